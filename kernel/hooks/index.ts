/**
 * The per-resource hooks, by resource name: behaviour a schema cannot say, one file per resource
 * (kernel/hooks/<resource>.ts). What remains:
 * - authors (kernel/hooks/authors.ts): `wxCreateTime` follows changes of `wxCode`;
 * - artworks (kernel/hooks/artworks.ts): a new `classify` is registered in art_categories;
 * - accounts (kernel/hooks/accounts.ts): password hashing, the last-admin rule, ending sessions.
 * - bidUsers (kernel/hooks/bidUsers.ts): the initial password (the phone number, hashed).
 * - contractTemplates (kernel/hooks/contractTemplates.ts): a parameter schema's limits fit
 *   its types, `required` names its parameters, it compiles.
 * - companies (kernel/hooks/companies.ts): the administrators' console accounts.
 * - notifications (kernel/hooks/notifications.ts): sending (recipients), draft → sent → read.
 * - archivedRecords (kernel/hooks/archivedRecords.ts): the read scope (an entry needs its resource's roles).
 * Everything else (counts, the authorName join, references, uniqueness, search, timestamps) is declared in
 * the schemas. On-chain fields are read-only and written by the ledger (server/ledger/records.ts).
 */
import type { ResourceHooks } from '../server/repository';
import { authorHooks } from './authors';
import { artworkHooks } from './artworks';
import { accountHooks } from './accounts';
import { bidUserHooks } from './bidUsers';
import { contractTemplateHooks } from './contractTemplates';
import { companyHooks } from './companies';
import { notificationHooks } from './notifications';
import { archivedRecordHooks } from './archivedRecords';

export const resourceHooks: Record<string, ResourceHooks> = {
  authors: authorHooks,
  artworks: artworkHooks,
  accounts: accountHooks,
  bidUsers: bidUserHooks,
  contractTemplates: contractTemplateHooks,
  archivedRecords: archivedRecordHooks,
  companies: companyHooks,
  notifications: notificationHooks,
};

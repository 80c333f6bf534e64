/**
 * The per-resource hooks, by resource name: behaviour a schema cannot say, kept next to the resource's
 * other hand-written routes. What remains:
 * - authors (server/routes/artmanager/authors/hooks.ts): `wxCreateTime` follows changes of `wxCode`;
 * - artworks (server/routes/artmanager/artwork/hooks.ts): a new `classify` is registered in art_categories;
 * - accounts (server/routes/dev-api/user/hooks.ts): password hashing, the last-admin rule, ending sessions.
 * - bidUsers (server/routes/artmanager/subjects/hooks.ts): the initial password (the phone number, hashed).
 * - contractTemplates (server/routes/medicine-api/smContract/hooks.ts): a parameter schema's limits fit
 *   its types, `required` names its parameters, it compiles.
 * - companies (server/routes/medicine-api/company/hooks.ts): the administrators' console accounts.
 * - notifications (server/routes/medicine-api/notification/hooks.ts): sending (recipients), draft → sent → read.
 * - archivedRecords (server/routes/data-api/pigeonhole.ts): the read scope (an entry needs its resource's roles).
 * Everything else (counts, the authorName join, references, uniqueness, search, timestamps) is declared in
 * the schemas. On-chain fields are read-only and written by the ledger (server/ledger/records.ts).
 */
import type { ResourceHooks } from './repository';
import { authorHooks } from '../routes/artmanager/authors/hooks';
import { artworkHooks } from '../routes/artmanager/artwork/hooks';
import { accountHooks } from '../routes/dev-api/user/hooks';
import { bidUserHooks } from '../routes/artmanager/subjects/hooks';
import { contractTemplateHooks } from '../routes/medicine-api/smContract/hooks';
import { companyHooks } from '../routes/medicine-api/company/hooks';
import { notificationHooks } from '../routes/medicine-api/notification/hooks';
import { archivedRecordHooks } from '../routes/data-api/pigeonhole';

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

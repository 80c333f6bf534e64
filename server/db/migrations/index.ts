/**
 * Every migration, in order. Kysely runs them by name (the date prefix keeps the order); a migration is
 * frozen once it lands. To add one: create `YYYYMMDDTnnnn_name.ts` exporting `up`/`down`, and list it here.
 */
import type { Migration } from 'kysely';
import * as registry from './20261122T0001_registry';
import * as ledger from './20261122T0100_ledger';
import * as search from './20261122T0200_search';
import * as companies from './20261122T0300_companies';

export const migrations: Record<string, Migration> = {
  '20261122T0001_registry': registry,
  '20261122T0100_ledger': ledger,
  '20261122T0200_search': search,
  '20261122T0300_companies': companies,
};

/**
 * PostgreSQL only (SQLite: nothing): the pg_trgm GIN indexes of the free-text tables `<table>_search`
 * (kernel/server/searchIndex.ts) keep a pending list of at most 256 kB (`gin_pending_list_limit`, default
 * 4 MB), and what the list holds is merged now (`gin_clean_pending_list`). Inserted rows wait in that
 * unsorted list, which every search scans until it is merged (PostgreSQL docs, "GIN Fast Update
 * Technique"): right after the Tate import it held 328 pages, and a search took 23 ms of backend CPU
 * instead of 2.5. At 256 kB a search scans at most 32 pages; `fastupdate = off` would scan none but made
 * the Tate import 2.4× slower (115 against 47 s, one run each at load 8), where 256 kB made it 48 s and 64 kB
 * 58 s. Indexes made by later migrations get the same limit from the storage codegen. Frozen once
 * landed: never edit, add a new migration instead.
 */
import { sql, type Kysely } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter.constructor.name === 'PostgresAdapter';

/** Runs `statement` (a format() string taking the index name) on every GIN index of a `*_search` table. */
const eachSearchIndex = (statement: string) =>
  sql.raw(`DO $$ DECLARE i text; BEGIN
  FOR i IN SELECT ic.relname FROM pg_index x
    JOIN pg_class ic ON ic.oid = x.indexrelid JOIN pg_class tc ON tc.oid = x.indrelid
    JOIN pg_am am ON am.oid = ic.relam
    WHERE tc.relnamespace = current_schema()::regnamespace AND am.amname = 'gin' AND tc.relname LIKE '%\\_search' LOOP
    EXECUTE format('${statement}', i);
  END LOOP; END $$`);

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await eachSearchIndex('ALTER INDEX %I SET (gin_pending_list_limit = 256)').execute(db);
  await eachSearchIndex('SELECT gin_clean_pending_list(%L::regclass)').execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await eachSearchIndex('ALTER INDEX %I RESET (gin_pending_list_limit)').execute(db);
}

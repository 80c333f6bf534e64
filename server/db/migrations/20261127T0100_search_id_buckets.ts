/**
 * PostgreSQL only (SQLite: nothing): each free-text table `<table>_search` (kernel/server/searchIndex.ts)
 * gets the GIN index `<table>_search_doc_id` on `(doc gin_trgm_ops, (id / 4096))` (pg_trgm and
 * btree_gin), which replaces `<table>_search_doc` on `doc` alone. The second column lets one index scan
 * find the matches of one id bucket, so that a page of a common word in id order reads one or two buckets
 * instead of visiting every match (kernel/server/freeText.ts `pageIds`, `walkPays`); `doc LIKE` alone
 * (totals, the other pages) is served by the same index. 4096 is `SEARCH_BUCKET`, written out here as a
 * landed migration must not change with the code. The pending list keeps the 256 kB of migration
 * 20261126T1520. Frozen once landed: never edit, add a new migration instead.
 */
import { sql, type Kysely } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter.constructor.name === 'PostgresAdapter';

/** Runs the PL/pgSQL `body` for every `*_search` table with `id` and `doc` columns (its name in `t`). */
const eachSearchTable = (body: string) =>
  sql.raw(`DO $$ DECLARE t text; BEGIN
  FOR t IN SELECT c.relname FROM pg_class c
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND c.relname LIKE '%\\_search'
      AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'doc' AND NOT a.attisdropped)
      AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'id' AND NOT a.attisdropped)
  LOOP ${body} END LOOP; END $$`);

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`CREATE EXTENSION IF NOT EXISTS btree_gin`.execute(db);
  await eachSearchTable(`
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I USING gin (doc gin_trgm_ops, (id / 4096)) WITH (gin_pending_list_limit = 256)', t || '_doc_id', t);
    EXECUTE format('DROP INDEX IF EXISTS %I', t || '_doc');`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await eachSearchTable(`
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I USING gin (doc gin_trgm_ops) WITH (gin_pending_list_limit = 256)', t || '_doc', t);
    EXECUTE format('DROP INDEX IF EXISTS %I', t || '_doc_id');`).execute(db);
}

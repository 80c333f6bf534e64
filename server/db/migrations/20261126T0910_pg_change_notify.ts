/**
 * PostgreSQL only (SQLite: nothing): the change notifications of server/db/pgChanges.ts (issue 20 item 6).
 * `baas_notify_change()` sends `NOTIFY baas_changes` (PostgreSQL docs, "NOTIFY": delivered once the
 * transaction commits, one per transaction and payload), called by a statement-level trigger of the same
 * name on every table of the schema (the migration tables aside). Frozen once landed: never edit, add a
 * new migration instead.
 */
import { sql, type Kysely } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter.constructor.name === 'PostgresAdapter';

/** The trigger on every table of the current schema (the migration tables aside), as `DO` runs it. */
const eachTable = (statement: string) =>
  sql.raw(`DO $$ DECLARE t text; BEGIN
  FOR t IN SELECT c.relname FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace
    AND c.relkind IN ('r', 'p') AND c.relname NOT LIKE 'kysely_migration%' LOOP
    EXECUTE format('${statement}', t);
  END LOOP; END $$`);

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`CREATE FUNCTION baas_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_notify('baas_changes', ''); RETURN NULL; END $$`.execute(db);
  await eachTable(
    'CREATE TRIGGER baas_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION baas_notify_change()',
  ).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await eachTable('DROP TRIGGER IF EXISTS baas_notify_change ON %I').execute(db);
  await sql`DROP FUNCTION IF EXISTS baas_notify_change()`.execute(db);
}

/**
 * Saved views of lists (issue 21 item 4, server/routes/dev-api/views): per account and list (`resource`,
 * a resource name), a named filter, sort and column set (JSON text), optionally shared with every other
 * account that may read the list. The row named '' is the account's last view of that list (what it
 * was showing), restored after signing in again. Names are unique per account and list. A view goes with
 * its account (foreign key, cascade). Frozen once landed: never edit, add a new migration instead.
 * Portable SQL (SQLite and PostgreSQL).
 */
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const idCol = (c: ColumnDefinitionBuilder) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());
  await db.schema
    .createTable('saved_views')
    .addColumn('id', pg ? 'serial' : 'integer', idCol)
    .addColumn('accountId', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('filter', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('sort', 'text')
    .addColumn('columns', 'text')
    .addColumn('shared', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updateTime', 'text', (c) => c.notNull())
    .addUniqueConstraint('saved_views_account_resource_name', ['accountId', 'resource', 'name'])
    .execute();
  await db.schema
    .createIndex('saved_views_resource')
    .on('saved_views')
    .columns(['resource', 'shared'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('saved_views').ifExists().execute();
}

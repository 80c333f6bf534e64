/**
 * Companies of the Medicine section (schemas/company.schema.json): one row per pharmaceutical company,
 * its Unified Social Credit Code unique (a second company with the same code is refused by the API with
 * 409, and by this unique index should two requests race). Frozen: never edit after it lands.
 * Works on SQLite and PostgreSQL (identity columns differ; everything else is portable SQL).
 */
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const idType = pg ? 'serial' : 'integer';
  const idCol = (c: ColumnDefinitionBuilder) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());
  await db.schema
    .createTable('companies')
    .addColumn('id', idType, idCol)
    .addColumn('companyName', 'text', (c) => c.notNull())
    .addColumn('creditCode', 'text', (c) => c.notNull().unique())
    .addColumn('licenseNo', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('contactName', 'text')
    .addColumn('contactPhone', 'text')
    .addColumn('adminAccount', 'text', (c) => c.notNull())
    .addColumn('backupAdminAccount', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('createTime', 'text', (c) => c.notNull())
    .addColumn('updateTime', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('companies_companyName').on('companies').column('companyName').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('companies').ifExists().execute();
}

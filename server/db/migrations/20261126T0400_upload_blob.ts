/**
 * Uploads in the database (issue 20 item 4; server/storage/pgStore.ts): `upload_blob`, one row per
 * stored object under its BlobStore key (content-addressed), with its MIME type, size in bytes, content
 * (`bytea` on PostgreSQL, `blob` on SQLite) and write time. The store used on PostgreSQL by default.
 * Frozen once landed: never edit, add a new migration instead.
 */
import type { Kysely } from 'kysely';

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('upload_blob')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('contentType', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('bytes', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('updateTime', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('upload_blob').execute();
}

/**
 * The rate limiter's counters in the database (issue 20 item 5; server/plugins/external/rateLimitStore.ts):
 * `rate_limit`, one row per limited route and client key, with its hit count in the current window and
 * the window's end (`expiresAt`, Unix ms). Used on PostgreSQL, so that every instance counts into the
 * same rows. Frozen once landed: never edit, add a new migration instead. Portable SQL.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limit')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('expiresAt', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limit').execute();
}

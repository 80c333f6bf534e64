/**
 * Sessions of the platform's users (the mini-program's sign-in, `POST /app-api/user/login`,
 * server/routes/app-api/user/index.ts): one row per sign-in, kept after it ends (expired or revoked), so
 * that a platform user's `loginCount` and `lastLoginTime` are those of its sessions. Only the token's
 * SHA-256 is stored. Frozen once landed: never edit, add a new migration instead. Portable SQL (SQLite and
 * PostgreSQL).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('platform_sessions')
    .addColumn('tokenHash', 'text', (c) => c.primaryKey())
    .addColumn('platformUserId', 'integer', (c) =>
      c.notNull().references('platform_users.id').onDelete('cascade'),
    )
    .addColumn('bidUserId', 'integer', (c) => c.references('bid_users.id').onDelete('cascade'))
    .addColumn('createTime', 'text', (c) => c.notNull())
    .addColumn('expireTime', 'text', (c) => c.notNull())
    .addColumn('revokeTime', 'text')
    .addColumn('ip', 'text')
    .execute();
  await db.schema
    .createIndex('platform_sessions_user')
    .on('platform_sessions')
    .columns(['platformUserId', 'createTime'])
    .execute();
  await db.schema
    .createIndex('platform_sessions_bid_user')
    .on('platform_sessions')
    .columns(['bidUserId'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('platform_sessions').ifExists().execute();
}

/**
 * The database plugin: opens the database (server/db/connect.ts), runs the migrations, decorates
 * `app.db` (Kysely<Database>) and `app.dialect`, and closes the connection when the app closes. On
 * PostgreSQL it also starts the change feed (server/db/pgChanges.ts) after giving any table made since
 * its migration the change trigger.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { connect, pgPool } from '../../db/connect';
import { changeFeed, ensureChangeTriggers } from '../../db/pgChanges';
import { migrateToLatest } from '../../db/migrator';
import type { Database } from '../../db/database';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dialect: 'sqlite' | 'postgres';
  }
}

export default fp(async function db(app: FastifyInstance) {
  const { db, dialect } = connect({
    dataDir: app.config.dataDir,
    databaseUrl: app.config.databaseUrl,
    sqliteFile: app.config.sqliteFile,
    poolMax: app.config.databasePoolMax,
  });
  const applied = await migrateToLatest(db);
  if (applied.length) app.log.info({ applied }, 'migrations applied');
  app.decorate('db', db);
  app.decorate('dialect', dialect);
  // PostgreSQL: the change notifications the caches rely on (pgChanges.ts), on tables made since the migration too.
  const pool = pgPool(db);
  const feed = changeFeed(db);
  if (pool && feed) {
    const added = await ensureChangeTriggers(pool);
    if (added.length) app.log.info({ tables: added }, 'change triggers added');
    await feed.start();
  }
  app.addHook('onClose', async () => {
    await feed?.close();
    await db.destroy();
  });
});

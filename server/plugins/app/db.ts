/**
 * The database plugin: opens the database (server/db/connect.ts), runs the migrations, decorates
 * `app.db` (Kysely<Database>) and `app.dialect`, and closes the connection when the app closes.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { connect } from '../../db/connect';
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
  });
  const applied = await migrateToLatest(db);
  if (applied.length) app.log.info({ applied }, 'migrations applied');
  app.decorate('db', db);
  app.decorate('dialect', dialect);
  app.addHook('onClose', async () => db.destroy());
});

/**
 * @fastify/rate-limit, off by default and switched on per route (`config.rateLimit`), e.g. login. On
 * PostgreSQL the counters live in the database (rateLimitStore.ts), so a limit holds across every
 * instance; on SQLite (one instance) in the process's memory. Registered after the database plugin.
 */
import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { Kysely } from 'kysely';
import { dbRateLimitStore } from './rateLimitStore';

export default fp(async (app) => {
  const store = app.dialect === 'postgres' ? dbRateLimitStore(app.db as Kysely<any>) : undefined;
  await app.register(rateLimit, { global: false, store });
});

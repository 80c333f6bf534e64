/**
 * A store of @fastify/rate-limit in the database (issue 20 item 5): every instance on one PostgreSQL
 * database counts into the same rows, so a limit (e.g. `LOGIN_RATE_LIMIT` per IP per minute) holds across
 * instances instead of per process. Table `rate_limit` (migration 20261126T0401_rate_limit): `key`
 * (`<method><route url>-<client key, the IP>`, as the plugin's RedisStore names them), `count` and
 * `expiresAt` (Unix ms). One upsert per hit: a fresh or expired row restarts at 1 with a new window
 * (fixed window, the plugin's default semantics); otherwise the count goes up by one. The answer is the
 * plugin's `{current, ttl}` (ttl in ms). Expired rows are deleted now and then (every 500th hit of a
 * process). Portable SQL (`INSERT ... ON CONFLICT DO UPDATE`): PostgreSQL, and SQLite in tests.
 */
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql, type Kysely } from 'kysely';

/** How many hits between two sweeps of expired rows, per process. */
const SWEEP_EVERY = 500;

/** The store class for `@fastify/rate-limit`'s `store` option, counting in `db` (see the module doc). */
export function dbRateLimitStore(db: Kysely<any>): FastifyRateLimitStoreCtor {
  let hits = 0;
  class DbRateLimitStore {
    constructor(private readonly prefix = 'rl-') {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const now = Date.now();
      const until = now + timeWindow;
      sql<{ count: number | string; expiresAt: number | string }>`
        INSERT INTO rate_limit (key, count, "expiresAt") VALUES (${this.prefix + key}, 1, ${until})
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN rate_limit."expiresAt" <= ${now} THEN 1 ELSE rate_limit.count + 1 END,
          "expiresAt" = CASE WHEN rate_limit."expiresAt" <= ${now} THEN ${until} ELSE rate_limit."expiresAt" END
        RETURNING count, "expiresAt"`
        .execute(db)
        .then(({ rows }) => {
          callback(null, {
            current: Number(rows[0].count),
            ttl: Math.max(0, Number(rows[0].expiresAt) - now),
          });
          if (++hits % SWEEP_EVERY === 0)
            void sql`DELETE FROM rate_limit WHERE "expiresAt" < ${now}`.execute(db).catch(() => undefined);
        }, callback);
    }

    /** The store of one route (the plugin passes its merged options, `routeInfo` among them). */
    child(options: unknown): FastifyRateLimitStore {
      const { method, url } = (options as { routeInfo: { method: string; url: string } }).routeInfo;
      return new DbRateLimitStore(`${this.prefix}${method}${url}-`) as unknown as FastifyRateLimitStore;
    }
  }
  return DbRateLimitStore as unknown as FastifyRateLimitStoreCtor;
}

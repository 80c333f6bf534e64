/**
 * The origin of each channel's log (C2SP tlog-checkpoint: the first line of a checkpoint, a unique,
 * URL-like name of the log, scheme removed; C2SP signed-note: the log's key name equals it). Channel C's
 * origin is `<prefix>/<C>`, e.g. `registry.example/artchannel`, where the prefix is `LEDGER_ORIGIN`.
 *
 * The prefix is fixed once a log exists: it is stored with each channel in `ledger_log`, so every
 * instance sharing a database (PostgreSQL) agrees on it, and a later `LEDGER_ORIGIN` that differs is
 * refused at start (a renamed log would be a different log). Without `LEDGER_ORIGIN`, the first start
 * derives a unique prefix `baas-<12 random hex>.invalid` and stores it; the names of the documentation's
 * examples (`SHARED_ORIGINS`), which two deployments would share, are refused unless
 * `LEDGER_ORIGIN_SHARED=1` (tests and demos).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ConfigError } from '../configError';
import type { LedgerTables } from './tables';

/** Prefixes that two deployments would share: refused without `LEDGER_ORIGIN_SHARED=1`. */
export const SHARED_ORIGINS = ['baas-admin', 'registry.example', 'example.com', 'example.org', 'localhost'];

/** An origin prefix: lower-case host-like labels, optionally followed by `/path` segments. */
export const ORIGIN_PREFIX_RE =
  /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:[0-9]{1,5})?(\/[A-Za-z0-9._~-]+)*$/;

/** The origin of a channel's log. */
export function originOf(prefix: string, channel: string): string {
  return `${prefix}/${channel}`;
}

/**
 * The origin prefix to use: the stored one, else `configured`, else a new unique one.
 * @throws ConfigError naming `LEDGER_ORIGIN` when it is malformed, shared without consent, or differs from
 * the stored prefix.
 */
export async function resolveOriginPrefix(
  db: Kysely<any>,
  configured: string | undefined,
  allowShared: boolean,
): Promise<string> {
  if (configured !== undefined) {
    if (!ORIGIN_PREFIX_RE.test(configured))
      throw new ConfigError(
        `LEDGER_ORIGIN must be a URL-like name without scheme or trailing slash (e.g. registry.example.com/baas), got "${configured}"`,
      );
    const host = configured.split('/')[0].split(':')[0];
    if (!allowShared && SHARED_ORIGINS.some((s) => host === s || host.endsWith(`.${s}`)))
      throw new ConfigError(
        `LEDGER_ORIGIN "${configured}" is an example name two deployments would share: use a name of your own (a domain you control), or set LEDGER_ORIGIN_SHARED=1 for a test`,
      );
  }
  const stored = await (db as Kysely<LedgerTables>)
    .selectFrom('ledger_log')
    .innerJoin('ledger_channel', 'ledger_channel.id', 'ledger_log.channelId')
    .select(['ledger_log.origin', 'ledger_channel.name'])
    .limit(1)
    .executeTakeFirst();
  const storedPrefix = stored?.origin.endsWith(`/${stored.name}`)
    ? stored.origin.slice(0, -stored.name.length - 1)
    : undefined;
  if (storedPrefix !== undefined) {
    if (configured !== undefined && configured !== storedPrefix)
      throw new ConfigError(
        `LEDGER_ORIGIN "${configured}" differs from this ledger's origin prefix "${storedPrefix}", fixed when its log began: unset it or set it to "${storedPrefix}" (docs/ledger.md section 10)`,
      );
    return storedPrefix;
  }
  return configured ?? `baas-${randomBytes(6).toString('hex')}.invalid`;
}

/** Stores a channel's origin once (a second call keeps the first). */
export async function storeOrigin(db: Kysely<any>, channelId: number, origin: string): Promise<void> {
  await (db as Kysely<LedgerTables>)
    .insertInto('ledger_log')
    .values({ channelId, origin, createdAt: new Date().toISOString() })
    .onConflict((oc) => oc.column('channelId').doNothing())
    .execute();
}

/**
 * The role gate's cache of accepted tokens (issue 10: the token lookup was about a fifth of a detail
 * call's time on SQLite; issue 20 item 6: a statement per call on PostgreSQL).
 *
 * On SQLite, a cached token is answered without a statement for as long as nothing could have changed what the
 * lookup would say; every way of changing it empties the cache before the next request is checked:
 * - this process changes a token or an account (revocation at sign-out, a new password, roles granted or
 *   withdrawn, an account deleted): TEMP triggers on this connection, AFTER UPDATE and AFTER DELETE on
 *   `tokens` and `accounts`, call a function that empties the cache, whatever the statement (Kysely,
 *   raw SQL, a cascade). TEMP triggers live in the connection only, so the database file and the other
 *   processes that open it never see them;
 * - another connection commits anything to the file (another process, a tool): SQLite's
 *   `PRAGMA data_version` changes (sqlite.org/pragma.html#pragma_data_version), read on every check;
 * - the token expires: its expiry is kept with it and compared with the clock on every check.
 * Only what a lookup read outside any open transaction is kept, and only when nothing emptied the cache
 * since the lookup began (the caller passes {@link TokenCache.generation} from before its statement): a
 * change made while the lookup awaited cannot be hidden by what it read before.
 *
 * On PostgreSQL (several instances may share the database), the cache is emptied whenever the change
 * generation of server/db/pgChanges.ts moves: any commit of this process (at once) or of another
 * connection (its notification), and while that generation is not known (listener down) nothing is kept.
 * The expiry is checked as on SQLite.
 */
import type SQLite from 'better-sqlite3';
import type { ChangeFeed } from '../../db/pgChanges';

/** Entries kept at most; beyond it the cache starts again empty (tokens are few: one per sign-in). */
const MAX_ENTRIES = 10_000;

/** The SQL function the TEMP triggers call. */
const CHANGED_FUNCTION = 'baas_auth_changed';

const TRIGGERS = ['tokens', 'accounts'].flatMap((table) =>
  ['UPDATE', 'DELETE'].map(
    (event) =>
      `CREATE TEMP TRIGGER IF NOT EXISTS baas_auth_${table}_${event.toLowerCase()} AFTER ${event} ON main.${table} ` +
      `BEGIN SELECT ${CHANGED_FUNCTION}(); END`,
  ),
);

/** Accepted tokens of one SQLite connection (see the module doc). `T` is what a lookup gives. */
export class TokenCache<T> {
  private readonly entries = new Map<string, { value: T; expireMs: number }>();
  /** The database's change marker (undefined: unknown, keep nothing), and whether a transaction is open. */
  private readonly dataVersion: () => unknown;
  private readonly inTransaction: () => boolean;
  private version: unknown;
  /** Times the cache was emptied by a change; a lookup begun under another value is not kept. */
  private emptied = 0;

  /** @param source the SQLite connection, or the change feed of a PostgreSQL pool (see the module doc) */
  constructor(source: SQLite.Database | ChangeFeed) {
    if ('current' in source) {
      this.dataVersion = () => source.current;
      this.inTransaction = () => false; // the lookup runs on the pool, never inside a transaction
    } else {
      source.function(CHANGED_FUNCTION, { deterministic: false }, () => {
        this.clear();
        return null;
      });
      for (const sql of TRIGGERS) source.exec(sql);
      const pragma = source.prepare('PRAGMA data_version').pluck();
      this.dataVersion = () => pragma.get();
      this.inTransaction = () => source.inTransaction;
    }
    this.version = this.dataVersion();
  }

  /** The cached lookup of `token`, or undefined (not cached, expired, or the database changed since). */
  get(token: string): T | undefined {
    if (this.sync() === undefined) return undefined;
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (Date.now() >= entry.expireMs) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.value;
  }

  /** Read before a lookup's statement, and given back to {@link set}. */
  get generation(): number {
    this.sync();
    return this.emptied;
  }

  /** Empties the cache when the change marker moved since last read; answers the marker. */
  private sync(): unknown {
    const version = this.dataVersion();
    if (version !== this.version) {
      this.clear();
      this.version = version;
    }
    return version;
  }

  /**
   * Keeps the lookup of `token`, valid until `expireTime` (UTC `YYYY-MM-DD HH:mm:ss`, the tokens table's
   * form), unless the cache was emptied since `generation` was read or a transaction is open on the
   * connection (see the module doc).
   */
  set(token: string, value: T, expireTime: string, generation: number): void {
    const version = this.sync();
    if (generation !== this.emptied || version === undefined || this.inTransaction()) return;
    const expireMs = Date.parse(`${expireTime.replace(' ', 'T')}Z`);
    if (!Number.isFinite(expireMs)) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(token, { value, expireMs });
  }

  private clear(): void {
    this.entries.clear();
    this.emptied++;
  }

  /** Entries held (tests). */
  get size(): number {
    return this.entries.size;
  }
}

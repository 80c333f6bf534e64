/**
 * The role gate's cache of accepted tokens, on SQLite (issue 10: the token lookup was about a fifth of a
 * detail call's time). On PostgreSQL there is none: several instances share the database, and each
 * lookup is one statement there.
 *
 * A cached token is answered without a statement for as long as nothing could have changed what the
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
 */
import type SQLite from 'better-sqlite3';

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
  private readonly dataVersion: SQLite.Statement;
  private version: unknown;
  /** Times the cache was emptied by a change; a lookup begun under another value is not kept. */
  private emptied = 0;

  constructor(private readonly database: SQLite.Database) {
    database.function(CHANGED_FUNCTION, { deterministic: false }, () => {
      this.clear();
      return null;
    });
    for (const sql of TRIGGERS) database.exec(sql);
    this.dataVersion = database.prepare('PRAGMA data_version').pluck();
    this.version = this.dataVersion.get();
  }

  /** The cached lookup of `token`, or undefined (not cached, expired, or the database changed since). */
  get(token: string): T | undefined {
    const version = this.dataVersion.get();
    if (version !== this.version) {
      this.clear();
      this.version = version;
      return undefined;
    }
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
    return this.emptied;
  }

  /**
   * Keeps the lookup of `token`, valid until `expireTime` (UTC `YYYY-MM-DD HH:mm:ss`, the tokens table's
   * form), unless the cache was emptied since `generation` was read or a transaction is open on the
   * connection (see the module doc).
   */
  set(token: string, value: T, expireTime: string, generation: number): void {
    if (generation !== this.emptied || this.database.inTransaction) return;
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

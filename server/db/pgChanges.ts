/**
 * "Has anything changed in the database since?" on PostgreSQL without a statement per question: a
 * change generation per pool, for the caches that answer a read from memory until the data changes (the
 * list totals, kernel/server/countCache.ts; the accepted tokens, server/plugins/app/tokenCache.ts). Issue
 * 20 item 6: reading `pg_current_snapshot()` before every list call was one round trip per call, and the
 * snapshot moves with every transaction of the whole cluster, other databases included.
 *
 * The generation goes up (never down) when:
 * - another connection commits a write: every table of the schema has a statement-level trigger calling
 *   `baas_notify_change()`, which sends `NOTIFY baas_changes` (migration 20261126T0910_pg_change_notify;
 *   tables made later get the trigger when the server starts, {@link ensureChangeTriggers}). PostgreSQL
 *   delivers a notification only once its transaction has committed (PostgreSQL docs, "NOTIFY"), on a
 *   connection of its own that LISTENs;
 * - this process's pool finishes a statement that may have written (anything but a plain `select`, and
 *   every `commit`): counted at once, so that this process's own writes never wait for their notification;
 * - the listening connection is (re)established: notifications sent while it was down are lost.
 * While the listening connection is down, {@link changeGeneration} answers undefined and the caches keep
 * nothing (every read asks the database). A cache keeps a value read under generation g only while the
 * generation is still g: any commit after the value's snapshot is counted after it began (the local count
 * after the commit returns, a notification after the commit), so an entry is never kept past a write of
 * this process, and past another process's write at most for the notification's delivery (milliseconds).
 */
import pg from 'pg';
import type { Kysely } from 'kysely';
import { RECORD_CHANNEL, type RecordEvents } from './recordEvents';

/** The channel of the notifications. */
export const CHANGE_CHANNEL = 'baas_changes';

/** The trigger function sending them (made by the migration). */
export const CHANGE_FUNCTION = 'baas_notify_change';

/** Delay before reconnecting the listener after it failed, ms. */
const RECONNECT_MS = 1000;

/** The change generation of one pool (see the module doc). */
export class ChangeFeed {
  private generation = 0;
  private listener: pg.Client | null = null;
  private listening = false;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private listenedBefore = false;

  /**
   * @param url the database's connection string
   * @param records where the record events (`baas_records` notifications) go; none: not listened to
   */
  constructor(
    private readonly url: string,
    private readonly records?: RecordEvents,
  ) {}

  /** The current generation, or undefined while notifications may be missed (listener down). */
  get current(): number | undefined {
    return this.listening ? this.generation : undefined;
  }

  /** Counts a change (a notification, a local write, a reconnection). */
  bump(): void {
    this.generation++;
  }

  /** Connects the listener (again after a failure, every {@link RECONNECT_MS}); resolves once listening or failed. */
  async start(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url });
    this.listener = client;
    const down = () => {
      if (this.listener !== client) return;
      this.listening = false;
      this.listener = null;
      client.end().catch(() => undefined);
      if (!this.closed) this.timer = setTimeout(() => void this.start(), RECONNECT_MS);
    };
    client.on('error', down);
    client.on('end', down);
    client.on('notification', (msg) => {
      if (msg.channel === RECORD_CHANNEL) this.records?.emitPayload(msg.payload);
      else this.bump();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      if (this.records) await client.query(`LISTEN ${RECORD_CHANNEL}`);
      // Whatever committed before LISTEN took effect was not notified: nothing cached before counts.
      this.bump();
      this.listening = this.listener === client;
      if (this.listening && this.listenedBefore) this.records?.emit('resync');
      if (this.listening) this.listenedBefore = true;
    } catch {
      down();
    }
  }

  /** Stops listening for good. */
  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    clearTimeout(this.timer);
    const client = this.listener;
    this.listener = null;
    await client?.end().catch(() => undefined);
  }
}

/** A statement that cannot have written (a plain select; a `select … for update` only locks). */
const READ_ONLY = /^\s*select\b/i;

/**
 * Counts every write of `pool`'s clients in `feed` once it has finished: statements other than a plain
 * `select`, and commits (see the module doc).
 */
export function countLocalWrites(pool: pg.Pool, feed: ChangeFeed): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const first = args[0] as string | { text?: string } | undefined;
      const text = typeof first === 'string' ? first : (first?.text ?? '');
      const result = query(...args);
      if (READ_ONLY.test(text) || !(result instanceof Promise)) return result;
      return result.finally(() => feed.bump());
    };
  });
}

/** The change feed of each database opened on PostgreSQL by server/db/connect.ts. */
const feeds = new WeakMap<Kysely<any>, ChangeFeed>();

/** Registers `feed` as the change feed of `db` (server/db/connect.ts). */
export function setChangeFeed(db: Kysely<any>, feed: ChangeFeed): void {
  feeds.set(db, feed);
}

/** The change feed of `db` (PostgreSQL), or undefined (SQLite, or a database opened otherwise). */
export function changeFeed(db: Kysely<any>): ChangeFeed | undefined {
  return feeds.get(db);
}

/**
 * The change generation of `db` (see the module doc), or undefined when it is not known: SQLite, no feed,
 * or its listener down. `db` being a transaction: undefined (its own uncommitted writes are not counted).
 */
export function changeGeneration(db: Kysely<any>): number | undefined {
  if (db.isTransaction) return undefined;
  return feeds.get(db)?.current;
}

/**
 * Gives every table of the current schema that lacks it the change trigger (tables made after the
 * migration), one server at a time (an advisory lock in the transaction). Needs the function from the
 * migration; does nothing without it.
 */
export async function ensureChangeTriggers(pool: pg.Pool): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('${CHANGE_FUNCTION}'))`);
    const { rows } = await client.query<{ table: string }>(
      `SELECT c.relname AS table FROM pg_class c
        WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
          AND c.relname NOT LIKE 'kysely_migration%'
          AND EXISTS (SELECT 1 FROM pg_proc WHERE proname = '${CHANGE_FUNCTION}')
          AND NOT EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname = '${CHANGE_FUNCTION}')`,
    );
    for (const { table } of rows)
      await client.query(
        `CREATE TRIGGER ${CHANGE_FUNCTION} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${pg.escapeIdentifier(table)} FOR EACH STATEMENT EXECUTE FUNCTION ${CHANGE_FUNCTION}()`,
      );
    await client.query('COMMIT');
    return rows.map((r) => r.table);
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

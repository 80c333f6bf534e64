/**
 * Live record events (issue 32, "Live"): every committed create, update or delete of a record, told to
 * whoever listens in this process (the console's event stream, server/routes/dev-api/events). An event
 * is `{resource, id, action, actor, clientId}`: the resource's name as the audit log names it, the
 * record's id (text), `create` / `update` / `delete`, the actor's username (`cli`, `system` for writes
 * without an account) and the `X-Client-Id` the writing request carried (the console tab's id, so a tab
 * can tell its own saves from others'), or null.
 *
 * The writer announces each write inside its transaction ({@link announceRecordWrite}, called by
 * server/db/audit.ts `recordAudit`, which every audited write calls); the event is delivered only once
 * that transaction has committed, and never after a rollback:
 * - PostgreSQL: `pg_notify('baas_records', <event JSON>)` in the transaction. PostgreSQL delivers a
 *   notification only when its transaction commits (docs, "NOTIFY"), to every connection that LISTENs:
 *   each server instance's change feed (pgChanges.ts) listens and hands it to its {@link RecordEvents}, so
 *   a write on one instance reaches the subscribers of all of them, this one included.
 * - SQLite: the SQL function `baas_record_event(<event JSON>)` ({@link sqliteRecordEvents}) queues the
 *   event on its connection while a transaction is open, and the connection hands the queue to its
 *   {@link RecordEvents} after `commit` (dropped after `rollback`); outside a transaction at once. Only
 *   this process hears it: other processes writing the same file (the `npm run admin` commands) are not
 *   seen live.
 * One transaction announces at most {@link MAX_EVENTS_PER_TRANSACTION} records of a resource one by one;
 * past that, one event with action `many` and no id stands for the rest (an import's batch), so a large
 * import costs a bounded number of notifications and the consoles reload the list once.
 */
import type SQLite from 'better-sqlite3';
import { sql, type Kysely, type SqliteDatabase, type SqliteStatement } from 'kysely';

/** The PostgreSQL channel of the record events. */
export const RECORD_CHANNEL = 'baas_records';

/** The SQLite function queuing a record event (registered on each connection by {@link sqliteRecordEvents}). */
export const SQLITE_RECORD_FUNCTION = 'baas_record_event';

/** Records of one resource announced one by one per transaction; past that, one `many` event. */
export const MAX_EVENTS_PER_TRANSACTION = 20;

/** What happened to the record; `many`: more records of the resource than announced one by one. */
export type RecordAction = 'create' | 'update' | 'delete' | 'many';

/** One committed write (see the module doc). */
export interface RecordEvent {
  resource: string;
  /** The record's id as text; null for `many`. */
  id: string | null;
  action: RecordAction;
  /** The actor's username (`cli`, `system` for the server's own writes). */
  actor: string;
  /** The writing request's `X-Client-Id` (a console tab), or null. */
  clientId: string | null;
}

/** A listener: an event, or `resync` when events may have been missed (the PostgreSQL listener reconnected). */
export type RecordListener = (event: RecordEvent | 'resync') => void;

/** The record events of one database in this process: its listeners. */
export class RecordEvents {
  private readonly listeners = new Set<RecordListener>();

  /** Adds `listener`; returns its removal. */
  subscribe(listener: RecordListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** The number of listeners. */
  get size(): number {
    return this.listeners.size;
  }

  /** Hands `event` to every listener (a listener's failure is its own: the others still get it). */
  emit(event: RecordEvent | 'resync'): void {
    for (const l of [...this.listeners])
      try {
        l(event);
      } catch {
        // a subscriber's stream failing must not reach the writer
      }
  }

  /** Emits the event in a notification's or function's JSON `payload`; ignores one that is not an event. */
  emitPayload(payload: string | undefined): void {
    const event = parseRecordEvent(payload);
    if (event) this.emit(event);
  }
}

/** The event in `payload` (JSON), or undefined when it is not one. */
export function parseRecordEvent(payload: string | undefined): RecordEvent | undefined {
  try {
    const e = JSON.parse(payload ?? '') as Partial<RecordEvent>;
    if (typeof e.resource !== 'string' || typeof e.action !== 'string') return undefined;
    return {
      resource: e.resource,
      id: e.id == null ? null : String(e.id),
      action: e.action,
      actor: typeof e.actor === 'string' ? e.actor : '',
      clientId: typeof e.clientId === 'string' ? e.clientId : null,
    };
  } catch {
    return undefined;
  }
}

/** The record events of each database opened by server/db/connect.ts. */
const hubs = new WeakMap<Kysely<any>, RecordEvents>();

/** Registers `events` as the record events of `db` (server/db/connect.ts). */
export function setRecordEvents(db: Kysely<any>, events: RecordEvents): void {
  hubs.set(db, events);
}

/** The record events of `db`, or undefined for a database opened otherwise. */
export function recordEventsOf(db: Kysely<any>): RecordEvents | undefined {
  return hubs.get(db);
}

/** Records announced per resource in each open transaction (see {@link MAX_EVENTS_PER_TRANSACTION}). */
const announced = new WeakMap<Kysely<any>, Map<string, number>>();

/** Cuts a text to `max` characters (a notification's payload stays far below PostgreSQL's 8000 bytes). */
const cut = (s: string, max: number) => (s.length > max ? s.slice(0, max) : s);

/**
 * Announces a write inside its transaction `db` (or at once when `db` is not one): delivered to the
 * listeners once the transaction commits (see the module doc). On SQLite a connection without the
 * function (a database not opened by connect.ts) announces nothing; the write is not affected.
 */
export async function announceRecordWrite(db: Kysely<any>, event: RecordEvent): Promise<void> {
  let e: RecordEvent = {
    resource: cut(event.resource, 100),
    id: event.id == null ? null : cut(event.id, 100),
    action: event.action,
    actor: cut(event.actor, 100),
    clientId: event.clientId == null ? null : cut(event.clientId, 64),
  };
  if (db.isTransaction) {
    let counts = announced.get(db);
    if (!counts) announced.set(db, (counts = new Map()));
    const n = (counts.get(e.resource) ?? 0) + 1;
    counts.set(e.resource, n);
    if (n > MAX_EVENTS_PER_TRANSACTION + 1) return;
    if (n === MAX_EVENTS_PER_TRANSACTION + 1) e = { ...e, id: null, action: 'many' };
  }
  const payload = JSON.stringify(e);
  if (db.getExecutor().adapter.constructor.name === 'PostgresAdapter') {
    await sql`select pg_notify(${RECORD_CHANNEL}, ${payload})`.execute(db);
    return;
  }
  try {
    await sql`select ${sql.raw(SQLITE_RECORD_FUNCTION)}(${payload})`.execute(db);
  } catch {
    // no such function on this connection: nobody listens (a SQLite statement's failure leaves the
    // transaction open and intact)
  }
}

/** A statement whose `run` calls `after` once it succeeded. */
function runThen(stmt: SqliteStatement, after: () => void): SqliteStatement {
  return {
    get reader() {
      return stmt.reader;
    },
    all: (parameters) => stmt.all(parameters),
    iterate: (parameters) => stmt.iterate(parameters),
    run: (parameters) => {
      const result = stmt.run(parameters);
      after();
      return result;
    },
  };
}

/**
 * SQLite: registers {@link SQLITE_RECORD_FUNCTION} on `database` and returns `inner` (the connection
 * Kysely's SQLite dialect is given) with Kysely's `commit` and `rollback` statements watched: the events
 * queued in a transaction go to `events` after its commit, and are dropped by its rollback.
 */
export function sqliteRecordEvents(
  database: SQLite.Database,
  inner: SqliteDatabase,
  events: RecordEvents,
): SqliteDatabase {
  let pending: string[] = [];
  database.function(SQLITE_RECORD_FUNCTION, { deterministic: false }, (payload: unknown) => {
    if (database.inTransaction) pending.push(String(payload));
    else events.emitPayload(String(payload));
    return null;
  });
  const flush = (commit: boolean) => {
    const done = pending;
    pending = [];
    if (commit) for (const p of done) events.emitPayload(p);
  };
  return {
    close: () => inner.close(),
    prepare: (text: string) => {
      const stmt = inner.prepare(text);
      if (text === 'commit') return runThen(stmt, () => flush(true));
      if (text === 'rollback') return runThen(stmt, () => flush(false));
      return stmt;
    },
  };
}

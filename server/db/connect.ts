/**
 * Opens the database: PostgreSQL when `databaseUrl` is a `postgres://` / `postgresql://` URL (pg pool),
 * otherwise the embedded default, a SQLite file at `<dataDir>/baas.sqlite` (better-sqlite3, WAL mode,
 * foreign keys on, synchronous=FULL so an acknowledged write survives a crash).
 */
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import type { Database } from './database';
import { ChangeFeed, countLocalWrites, setChangeFeed } from './pgChanges';
import { RecordEvents, setRecordEvents, sqliteRecordEvents } from './recordEvents';

export interface DbOptions {
  dataDir: string;
  databaseUrl?: string;
  /** ':memory:' for throwaway test databases. */
  sqliteFile?: string;
  /** PostgreSQL: most pool connections (`DATABASE_POOL_MAX`); default {@link defaultPoolMax}. */
  poolMax?: number;
}

/**
 * The pool size when none is set: twice this machine's cores, at least 4. The PostgreSQL wiki's rule
 * ("Number Of Database Connections": connections = core_count × 2 + effective_spindle_count, spindles 0
 * when the working set is cached), with the cores of this machine, which are the database's when it is
 * local. More connections than the database can run at once only queue inside PostgreSQL and take CPU
 * from this process: on the 2-core bench machine, 10 connections gave search p99 60-81 ms at 30 client
 * connections, 4 gave 46-54 ms at the same req/s (issue 20). Set `DATABASE_POOL_MAX` for a remote
 * database from its own cores.
 */
export function defaultPoolMax(): number {
  return Math.max(4, 2 * availableParallelism());
}

/** The better-sqlite3 handle behind a Kysely instance made by `connect` (the ledger's prepared-statement path). */
const sqliteHandles = new WeakMap<Kysely<any>, SQLite.Database>();

/** The better-sqlite3 database under `db` when `connect` opened it on SQLite; undefined on PostgreSQL. */
export function sqliteHandle(db: Kysely<any>): SQLite.Database | undefined {
  return sqliteHandles.get(db);
}

/** The pg pool behind a Kysely instance made by `connect` on PostgreSQL (its size gauges, /metrics). */
const pgPools = new WeakMap<Kysely<any>, pg.Pool>();

/** The node-postgres pool under `db` when `connect` opened PostgreSQL; undefined on SQLite. */
export function pgPool(db: Kysely<any>): pg.Pool | undefined {
  return pgPools.get(db);
}

/** What each database's queries report their duration to (seconds), set by {@link observeQueries}. */
const queryObservers = new WeakMap<Kysely<any>, (seconds: number) => void>();

/**
 * Calls `observe(seconds)` after every query on `db` (Kysely's `log` hook, plus the SQLite fast path of
 * {@link readQuery}); the metrics plugin's query-time histogram (issue 20). One observer per database.
 */
export function observeQueries(db: Kysely<any>, observe: (seconds: number) => void): void {
  queryObservers.set(db, observe);
}

/** Kysely's `log` option for `db`: reports each query's duration to its observer, if any. */
function queryLog(get: () => Kysely<any>) {
  return (event: { level: string; queryDurationMillis: number }) =>
    queryObservers.get(get())?.(event.queryDurationMillis / 1000);
}

/** Distinct SQL texts whose prepared statements are kept (least recently used beyond are finalised by GC). */
const STATEMENT_CACHE_SIZE = 500;

/** The prepared statements of each better-sqlite3 database, by SQL text (an LRU, see {@link cachedStatements}). */
const statementCaches = new WeakMap<SQLite.Database, Map<string, SQLite.Statement>>();

/** The statement prepared for `text` on `database`, from its LRU of {@link STATEMENT_CACHE_SIZE} texts. */
function preparedStatement(database: SQLite.Database, text: string): SQLite.Statement {
  let cache = statementCaches.get(database);
  if (!cache) statementCaches.set(database, (cache = new Map()));
  let stmt = cache.get(text);
  if (stmt) cache.delete(text);
  else {
    stmt = database.prepare(text);
    if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  cache.set(text, stmt);
  return stmt;
}

/**
 * `database` whose `prepare(sql)` answers the statement prepared earlier for the same text (an LRU of
 * {@link STATEMENT_CACHE_SIZE}): Kysely's SQLite driver prepares every query anew, which cost about a tenth
 * of the server's time under list and put-on-chain load (issue 9 and 10 profiles). Safe with Kysely: its
 * SQLite driver runs one query at a time on the one connection (a mutex), so a cached statement is never in
 * use twice at once, and SQLite re-prepares a statement by itself after a schema change.
 */
export function cachedStatements(database: SQLite.Database): SqliteDatabase {
  return {
    close: () => database.close(),
    prepare: (text: string) => preparedStatement(database, text) as unknown as SqliteStatement,
  };
}

/** SQL texts compiled by {@link compiledSql}, by dialect and the caller's key. */
const compiledTexts = new Map<string, string>();

/**
 * The SQL text of the query `build` makes (its parameter values are placeholders), compiled by Kysely
 * once per dialect and `key` and kept: for the statements a hot path runs with `readQuery` or
 * `CompiledQuery.raw` and its own parameters, which Kysely would otherwise build and compile on every
 * call (issue 10's and issue 9's profiles). `key` names the statement; it must differ for any `build`
 * that makes other SQL.
 */
export function compiledSql(db: Kysely<any>, key: string, build: () => { sql: string }): string {
  const k = `${db.getExecutor().adapter.constructor.name}:${key}`;
  let text = compiledTexts.get(k);
  if (text === undefined) compiledTexts.set(k, (text = build().sql));
  return text;
}

/**
 * The rows of a read-only query (`text` with `?`/`$n` parameters as Kysely compiles them for the dialect).
 * On SQLite, when the connection is not inside a transaction, the statement (prepared once) runs at once
 * through better-sqlite3, without Kysely's per-query work (connection mutex, promise chain): the list and
 * detail calls' main path (issue 10 profile). While a transaction is open on the connection (another
 * request's write, awaiting between its statements) the query goes through Kysely, which waits for that
 * transaction to end, so no read ever sees uncommitted rows. `db` being a transaction also goes through
 * Kysely (inside it). On PostgreSQL, outside a transaction, the query goes to the pool as a named
 * prepared statement (node-postgres "Prepared statements": parsed and planned once per connection, then
 * only bound and executed; PostgreSQL's plan cache decides between custom and generic plans), without
 * Kysely's per-query work: issue 20 item 6, where planning the detail call's join cost more than
 * running it. A statement prepared before another instance changed its table (a migration adding a
 * column under a `SELECT t.*`, or retyping one) is refused by PostgreSQL, "cached plan must not change
 * result type" ({@link isStalePlan}): the text then gets a new name, so that every connection prepares it
 * again for the table as it is now, and runs once more (the old statements are left to their connections,
 * which drop them when they close).
 */
export async function readQuery<R>(db: Kysely<any>, text: string, params: readonly unknown[]): Promise<R[]> {
  const database = sqliteHandles.get(db);
  if (database && !database.inTransaction) {
    const observe = queryObservers.get(db);
    if (!observe) return preparedStatement(database, text).all(...params) as R[];
    const t0 = performance.now();
    const rows = preparedStatement(database, text).all(...params) as R[];
    observe((performance.now() - t0) / 1000);
    return rows;
  }
  const pool = !db.isTransaction && pgPools.get(db);
  if (pool) {
    const observe = queryObservers.get(db);
    const t0 = observe && performance.now();
    const run = () =>
      pool.query<R & pg.QueryResultRow>({ name: statementName(text), text, values: params as unknown[] });
    const { rows } = await run().catch((e: unknown) => {
      if (!isStalePlan(e)) throw e;
      renameStatement(text);
      return run();
    });
    if (observe) observe((performance.now() - t0!) / 1000);
    return rows;
  }
  return (await db.executeQuery<R>(CompiledQuery.raw(text, [...params]))).rows;
}

/** Names of the PostgreSQL prepared statements, by SQL text (see {@link readQuery}). */
const statementNames = new Map<string, string>();

/** Distinct texts prepared at most; beyond them a text runs unnamed (planned on every call). */
const MAX_STATEMENT_NAMES = 5000;

/** Statement names handed out so far (a renamed text gets a new one: names are never reused). */
let namesGiven = 0;

/** The prepared statement name of `text` (`baas_<n>`, one per distinct text in this process). */
function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_STATEMENT_NAMES)
    statementNames.set(text, (name = `baas_${namesGiven++}`));
  return name;
}

/** Gives `text` a new statement name (see {@link readQuery}): the next use prepares it anew. */
function renameStatement(text: string): void {
  if (statementNames.has(text)) statementNames.set(text, `baas_${namesGiven++}`);
}

/**
 * Whether `e` is PostgreSQL refusing a prepared statement whose result columns changed since it was
 * prepared (SQLSTATE 0A000 feature_not_supported, "cached plan must not change result type": the plan
 * cache re-plans a statement after a schema change, but may not change the row type it announced).
 */
export function isStalePlan(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown } | null;
  return (
    err?.code === '0A000' &&
    typeof err.message === 'string' &&
    err.message.includes('cached plan must not change')
  );
}

/**
 * Whether `url` names a PostgreSQL database: a `postgres://` or `postgresql://` URI (libpq's two schemes);
 * false for nothing, a SQLite file or any other text.
 */
export function isPostgresUrl(url: string | null | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//.test(url);
}

export function connect(opts: DbOptions): { db: Kysely<Database>; dialect: 'sqlite' | 'postgres' } {
  if (isPostgresUrl(opts.databaseUrl)) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolMax || defaultPoolMax() });
    // An idle client's error (server restart, connection terminated) must not crash the process; the
    // pool drops that client and the next query opens a new one (node-postgres docs, "Pool: error").
    pool.on('error', (err) => console.error(`postgres: idle client error: ${err.message}`));
    const db: Kysely<Database> = new Kysely<Database>({
      dialect: new PostgresDialect({ pool }),
      log: queryLog(() => db),
    });
    pgPools.set(db, pool);
    // The change generation of pgChanges.ts: this pool's writes counted now; the listener starts with
    // the server (server/plugins/app/db.ts), until then the caches keep nothing.
    // The same listener hands the record events (recordEvents.ts) of every instance to this one's.
    const records = new RecordEvents();
    const feed = new ChangeFeed(opts.databaseUrl, records);
    countLocalWrites(pool, feed);
    setChangeFeed(db, feed);
    setRecordEvents(db, records);
    return { db, dialect: 'postgres' };
  }
  let file = opts.sqliteFile;
  if (!file) {
    mkdirSync(opts.dataDir, { recursive: true });
    file = join(opts.dataDir, 'baas.sqlite');
  }
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  // Record events (recordEvents.ts): queued in a transaction, told to this process's listeners after commit.
  const records = new RecordEvents();
  const db: Kysely<Database> = new Kysely<Database>({
    dialect: new SqliteDialect({
      database: sqliteRecordEvents(database, cachedStatements(database), records),
    }),
    log: queryLog(() => db),
  });
  sqliteHandles.set(db, database);
  setRecordEvents(db, records);
  return { db, dialect: 'sqlite' };
}

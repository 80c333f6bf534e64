/**
 * Opens the database: PostgreSQL when `databaseUrl` is a `postgres://` / `postgresql://` URL (pg pool),
 * otherwise the embedded default, a SQLite file at `<dataDir>/baas.sqlite` (better-sqlite3, WAL mode,
 * foreign keys on, synchronous=FULL so an acknowledged write survives a crash).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import type { Database } from './database';

export interface DbOptions {
  dataDir: string;
  databaseUrl?: string;
  /** ':memory:' for throwaway test databases. */
  sqliteFile?: string;
}

/** The better-sqlite3 handle behind a Kysely instance made by `connect` (the ledger's prepared-statement path). */
const sqliteHandles = new WeakMap<Kysely<any>, SQLite.Database>();

/** The better-sqlite3 database under `db` when `connect` opened it on SQLite; undefined on PostgreSQL. */
export function sqliteHandle(db: Kysely<any>): SQLite.Database | undefined {
  return sqliteHandles.get(db);
}

/** Distinct SQL texts whose prepared statements are kept (IN lists and multi-row inserts vary). */
const STATEMENT_CACHE = 500;

/**
 * The database as Kysely's SQLite driver sees it, with prepared statements reused per SQL text: the
 * driver prepares every query anew, which cost about a tenth of the server's time under put-on-chain
 * load (issue 9 profile). Safe because the driver runs one query at a time per connection (its mutex)
 * and SQLite re-prepares a statement by itself after a schema change.
 */
function cachingStatements(database: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (!stmt) {
        if (cache.size >= STATEMENT_CACHE) cache.clear();
        stmt = database.prepare(sql);
        cache.set(sql, stmt);
      }
      return stmt as unknown as SqliteStatement;
    },
  };
}

export function connect(opts: DbOptions): { db: Kysely<Database>; dialect: 'sqlite' | 'postgres' } {
  if (opts.databaseUrl && /^postgres(ql)?:\/\//.test(opts.databaseUrl)) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle client's error (server restart, connection terminated) must not crash the process; the
    // pool drops that client and the next query opens a new one (node-postgres docs, "Pool: error").
    pool.on('error', (err) => console.error(`postgres: idle client error: ${err.message}`));
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
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
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingStatements(database) }) });
  sqliteHandles.set(db, database);
  return { db, dialect: 'sqlite' };
}

/**
 * Opens the database: PostgreSQL when `databaseUrl` is a `postgres://` / `postgresql://` URL (pg pool),
 * otherwise the embedded default, a SQLite file at `<dataDir>/baas.sqlite` (better-sqlite3, WAL mode,
 * foreign keys on, synchronous=FULL so an acknowledged write survives a crash). On SQLite every
 * statement is prepared once per distinct SQL text and reused ({@link cachedStatements}); Kysely's driver
 * would otherwise prepare each query anew (10% of the server's time under list/detail load).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import type { Database } from './database';

export interface DbOptions {
  dataDir: string;
  databaseUrl?: string;
  /** ':memory:' for throwaway test databases. */
  sqliteFile?: string;
}

/** Distinct SQL texts whose prepared statements are kept (least recently used beyond are finalised by GC). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * `database` whose `prepare(sql)` answers the statement prepared earlier for the same text (an LRU of
 * {@link STATEMENT_CACHE_SIZE}). Safe with Kysely: its SQLite driver runs one query at a time on the one
 * connection (a mutex), so a cached statement is never in use twice at once.
 */
export function cachedStatements(database: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(text: string) {
      let stmt = cache.get(text);
      if (stmt) cache.delete(text);
      else {
        stmt = database.prepare(text);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(text, stmt);
      return stmt;
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
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: cachedStatements(database) }) }),
    dialect: 'sqlite',
  };
}

/**
 * Lazily prepared better-sqlite3 statements, for the SQLite fast paths that bypass Kysely (the ledger's
 * block writer and Merkle log, issue 9).
 */
import type SQLite from 'better-sqlite3';

/**
 * A getter of prepared statements, one per entry of `sql` (name → SQL text), prepared on `sqlite` on the
 * first call and kept. @throws Error when called without a SQLite connection (callers check first).
 */
export function lazyStatements<K extends string>(
  sqlite: SQLite.Database | undefined,
  sql: Readonly<Record<K, string>>,
): () => Record<K, SQLite.Statement> {
  let prepared: Record<K, SQLite.Statement> | undefined;
  return () => {
    if (prepared) return prepared;
    if (!sqlite) throw new Error('prepared statements need a SQLite database');
    const out = {} as Record<K, SQLite.Statement>;
    for (const name of Object.keys(sql) as K[]) out[name] = sqlite.prepare(sql[name]);
    return (prepared = out);
  };
}

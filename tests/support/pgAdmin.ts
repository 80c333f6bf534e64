/**
 * One statement on a PostgreSQL server over a connection of its own (CREATE DATABASE and DROP DATABASE
 * cannot run in a transaction or a pool's session): used by the API tests' per-app databases
 * (tests/api/helpers.ts) and the multi-instance benchmark (bench/multiInstance.ts).
 */
import pg from 'pg';

/**
 * Connects to `url`, runs `text`, and closes the connection even when the statement fails.
 * @throws the driver's error (with its SQLSTATE `code`)
 */
export async function runPgStatement(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

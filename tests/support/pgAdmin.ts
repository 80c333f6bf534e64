/**
 * One statement on a PostgreSQL server over a connection of its own (CREATE DATABASE and DROP DATABASE
 * cannot run in a transaction or a pool's session): used by the API tests' per-app databases
 * (tests/api/helpers.ts), the multi-instance benchmark (bench/multiInstance.ts) and the scratch databases of
 * the repository copies (tests/support/repoCopy.ts `scratchPostgres`).
 */
import { randomBytes } from 'node:crypto';
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

/** `admin` (a PostgreSQL URL) with its database replaced by `name`. */
export function databaseUrl(admin: string, name: string): string {
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A new database `<prefix>_<12 hex digits>` on the PostgreSQL server of `admin` (a role allowed to create
 * databases): its name, its URL, and `drop` removing it (FORCE: ending its sessions).
 * @throws the driver's error when CREATE DATABASE fails
 */
export async function createScratchDatabase(
  admin: string,
  prefix: string,
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await runPgStatement(admin, `CREATE DATABASE ${name}`);
  return {
    name,
    url: databaseUrl(admin, name),
    drop: () => runPgStatement(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

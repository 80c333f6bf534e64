/**
 * The signer's last signed checkpoints (`<LEDGER_KEY_DIR>/ledger-signed-checkpoints.json`,
 * server/ledger/checkpoints.ts `SIGNED_STATE_FILE`: `{ [origin]: {size, rootHash hex, note} }`) as the
 * backup and restore see them (server/ops/backup.ts): read and checked, merged (per origin the larger
 * size: a restore never lowers what the key dir remembers), written atomically, and the log origins of a
 * database (`ledger_log`, server/ledger/origin.ts).
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { readSignedStateFile, writeSignedStateFile, type SignedStateEntry } from '../ledger/signedState';

/** One origin's last signed checkpoint. */
export type SignedEntry = SignedStateEntry;

/** The state file's content: the last signed checkpoint per origin. */
export type SignedState = Record<string, SignedEntry>;

/** The signed state in a file, or undefined when it does not exist (server/ledger/signedState.ts). */
export const readSignedState = readSignedStateFile;

/** The prefix of an origin `<prefix>/<channel>` (server/ledger/origin.ts `originOf`). */
export function originPrefix(origin: string): string {
  const i = origin.lastIndexOf('/');
  return i > 0 ? origin.slice(0, i) : origin;
}

/** The distinct origin prefixes of `origins`, sorted. */
export function originPrefixes(origins: Iterable<string>): string[] {
  return [...new Set([...origins].map(originPrefix))].sort();
}

/**
 * `kept` merged with `incoming`: per origin the entry of the larger size (`kept`'s on a tie), so the
 * result never remembers less than either. `taken` lists the origins whose entry came from `incoming`.
 */
export function mergeSignedState(
  kept: SignedState,
  incoming: SignedState,
): { state: SignedState; taken: string[] } {
  const state: SignedState = { ...kept };
  const taken: string[] = [];
  for (const [origin, e] of Object.entries(incoming))
    if (!state[origin] || e.size > state[origin].size) {
      state[origin] = e;
      taken.push(origin);
    }
  return { state, taken };
}

/** Writes a signed state atomically, mode 0600 (server/ledger/signedState.ts). */
export const writeSignedState = writeSignedStateFile;

/** The log origins stored in SQLite file `file` (`ledger_log`); none when the ledger never started. */
export function sqliteOrigins(file: string): string[] {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const table = db
      .prepare(`select 1 from sqlite_master where type = 'table' and name = 'ledger_log'`)
      .get();
    if (!table) return [];
    return (db.prepare('select origin from ledger_log order by origin').all() as { origin: string }[]).map(
      (r) => r.origin,
    );
  } finally {
    db.close();
  }
}

/** The log origins stored in the PostgreSQL database at `url` (`ledger_log`); none when it has no ledger. */
export async function postgresOrigins(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query<{ origin: string }>('select origin from ledger_log order by origin');
    return r.rows.map((row) => row.origin);
  } catch (err) {
    if ((err as { code?: string }).code === '42P01') return []; // undefined_table: never started
    throw err;
  } finally {
    await client.end();
  }
}

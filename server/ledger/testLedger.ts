/**
 * Test support for the ledger's unit tests (never imported by the server): an in-memory SQLite database
 * migrated to the latest schema, an embedded ledger on it, both closed after each test, and a sample
 * `putAuthor` proposal on channel `artchannel`.
 */
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach } from 'vitest';
import { migrateToLatest } from '../db/migrator';
import { createEmbeddedLedger, type EmbeddedLedger } from './embedded';
import type { EmbeddedLedgerOptions } from './pipeline';
import { sha256Hex } from './tx';

/** The database and ledger of the running test; a test that closes its ledger itself clears `ledger`. */
export interface LedgerTestState {
  db?: Kysely<any>;
  ledger?: EmbeddedLedger;
}

/**
 * Registers an `afterEach` that closes the test's ledger (waiting at most `closeTimeoutMs` for its
 * flush; the ledger's default when undefined) and then its database; returns the state the test fills.
 */
export function ledgerTestState(closeTimeoutMs?: number): LedgerTestState {
  const state: LedgerTestState = {};
  afterEach(async () => {
    await state.ledger?.close(closeTimeoutMs);
    await state.db?.destroy();
    state.ledger = undefined;
    state.db = undefined;
  });
  return state;
}

/**
 * Opens a migrated in-memory database and an embedded ledger on it (not started) into `state`; the
 * caller registers its hooks, then starts it.
 */
export async function memoryLedger(
  state: LedgerTestState,
  opts: EmbeddedLedgerOptions,
): Promise<{ db: Kysely<any>; ledger: EmbeddedLedger }> {
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
  state.db = db;
  await migrateToLatest(db);
  const ledger = createEmbeddedLedger(db, opts);
  state.ledger = ledger;
  return { db, ledger };
}

/** Proposal number `i`: a `putAuthor` on artchannel whose record digest is sha256(`r${i}`). */
export const proposal = (i: number) => ({
  channel: 'artchannel',
  chaincode: 'artregistry',
  function: 'putAuthor',
  args: [String(i), '1', sha256Hex(`r${i}`)],
  creator: 'admin',
});

import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../db/migrator';
import { createEmbeddedLedger, type EmbeddedLedger } from './embedded';
import { putOnChain, RECORD_CHANNEL } from './records';

let ledger: EmbeddedLedger | undefined;
let db: Kysely<any> | undefined;
afterEach(async () => {
  await ledger?.close();
  await db?.destroy();
});

describe('putOnChain after a timeout', () => {
  it('a retry waits for the queued transaction instead of writing the same version twice', async () => {
    db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    await migrateToLatest(db);
    // Blocks are cut only at 100 transactions or after 60 s: the first call times out while queued.
    ledger = createEmbeddedLedger(db, { batchSize: 100, batchTimeoutMs: 60_000 });
    await ledger.start();
    await ledger.ensureChannel(RECORD_CHANNEL);
    const record = { id: 7, authorName: 'Queued author' };
    const fresh = { chain: null, chainDigest: null, chainVersion: 0 };

    await expect(putOnChain(ledger, 'author', record, fresh, 'admin', undefined, 50)).rejects.toThrow(
      /not committed within 50 ms/,
    );
    // The caller's stored state is still the old one (nothing committed yet); the retry must not queue
    // a second version 1.
    const retry = putOnChain(ledger, 'author', record, fresh, 'admin', undefined, 5_000);
    await ledger.flush();
    const answer = await retry;
    expect(answer).toMatchObject({ version: 1, repeated: true, blockNumber: 1 });
    const block = await ledger.block((await ledger.channel(RECORD_CHANNEL))!.id, 1);
    expect(block?.txCount).toBe(1);
  });
});

describe('closing while blocks cannot be cut', () => {
  it('close gives up flushing after its timeout and keeps the pending transaction for the next start', async () => {
    db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    await migrateToLatest(db);
    ledger = createEmbeddedLedger(db, { batchSize: 10, batchTimeoutMs: 5 });
    await ledger.start();
    await ledger.ensureChannel(RECORD_CHANNEL);
    // Every cut now fails: the blocks table refuses inserts.
    await sql`CREATE TRIGGER no_blocks BEFORE INSERT ON ledger_block BEGIN SELECT RAISE(ABORT, 'disk gone'); END`.execute(
      db,
    );
    const tx = await ledger.submit({
      channel: RECORD_CHANNEL,
      chaincode: 'artregistry',
      function: 'putAuthor',
      args: ['1', '1', '0'.repeat(64)],
      creator: 'admin',
    });
    await ledger.close(300);
    expect(await ledger.isPending(tx.txId)).toBe(true);
    ledger = undefined;
  });
});

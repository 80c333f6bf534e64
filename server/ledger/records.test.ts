import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { putOnChain, RECORD_CHANNEL } from './records';
import { ledgerTestState, memoryLedger } from './testLedger';

const state = ledgerTestState();

/** A started ledger on a fresh in-memory database, with the records' channel. */
async function started(opts: { batchSize: number; batchTimeoutMs: number }) {
  const opened = await memoryLedger(state, opts);
  await opened.ledger.start();
  await opened.ledger.ensureChannel(RECORD_CHANNEL);
  return opened;
}

describe('putOnChain after a timeout', () => {
  it('a retry waits for the queued transaction instead of writing the same version twice', async () => {
    // Blocks are cut only at 100 transactions or after 60 s: the first call times out while queued.
    const { ledger } = await started({ batchSize: 100, batchTimeoutMs: 60_000 });
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
    const { ledger, db } = await started({ batchSize: 10, batchTimeoutMs: 5 });
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
    state.ledger = undefined;
  });
});

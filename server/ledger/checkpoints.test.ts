import { generateKeyPairSync } from 'node:crypto';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CheckpointSigner, describeKey } from './checkpoints';
import { ledgerTestState, memoryLedger, proposal } from './testLedger';

const state = ledgerTestState(1000);

/** A signer that cannot sign the checkpoint of size `failAt` (a signing or storage failure). */
class FailingSigner extends CheckpointSigner {
  failAt = 0;
  override async sign(...args: Parameters<CheckpointSigner['sign']>) {
    if (args[2] === this.failAt) throw new Error('signer down');
    return super.sign(...args);
  }
}

async function open(batchSize: number) {
  const { privateKey } = generateKeyPairSync('ed25519');
  const errors: string[] = [];
  const { db, ledger } = await memoryLedger(state, {
    batchSize,
    batchTimeoutMs: 5,
    logError: (_e, m) => errors.push(m),
  });
  const signer = new FailingSigner(
    db,
    await describeKey('test.local/artchannel', privateKey, 'test'),
    ledger.writes.tree,
    {
      prefix: 'test.local',
    },
  );
  ledger.onCommit(signer.signInBlock);
  ledger.onBlockCommitted(signer.committed);
  ledger.writes.setHalt(signer.halted);
  await ledger.start();
  const ch = await ledger.ensureChannel('artchannel');
  return { ledger, db, signer, ch, errors };
}

const checkpointSizes = async (db: Kysely<any>) =>
  (await db.selectFrom('ledger_checkpoint').select('size').orderBy('size').execute()).map((r) => r.size);

describe('checkpoints signed in the block transaction', () => {
  it('every block is stored with its signed checkpoint; the callers find it when answered', async () => {
    const { ledger, db, ch } = await open(5);
    const txs = await Promise.all(Array.from({ length: 12 }, (_, i) => ledger.submitAndWait(proposal(i))));
    const height = (await ledger.channel(ch.id))!.height;
    expect(height).toBe(4); // genesis, 5 + 5 at once, 2 by the batch timeout
    // Sizes count entries (transactions): genesis 1, then 5 + 5 + 2.
    expect(await checkpointSizes(db)).toEqual([1, 6, 11, 13]);
    for (const tx of txs) {
      const block = await ledger.block(ch.id, tx.blockNumber);
      expect((await checkpointSizes(db)).includes(block!.treeSize!)).toBe(true);
    }
  });

  it('a block whose checkpoint cannot be signed is not committed: its transactions stay pending', async () => {
    const { ledger, db, signer, ch, errors } = await open(5);
    signer.failAt = 11; // the second block after genesis: 1 + 5 + 5 entries
    const first = await Promise.all(Array.from({ length: 5 }, (_, i) => ledger.submit(proposal(i))));
    await ledger.waitForCommit(first[0].txId);
    const second = await Promise.all(Array.from({ length: 5 }, (_, i) => ledger.submit(proposal(5 + i))));
    await new Promise((r) => setTimeout(r, 50));
    expect((await ledger.channel(ch.id))!.height).toBe(2);
    expect(await checkpointSizes(db)).toEqual([1, 6]);
    for (const tx of second) expect(await ledger.isPending(tx.txId)).toBe(true);
    expect(errors.some((m) => m.includes('failed'))).toBe(true);
    // Once the signer is back, the retry commits the block with its checkpoint.
    signer.failAt = 0;
    await ledger.flush(5000);
    expect((await ledger.channel(ch.id))!.height).toBe(3);
    expect(await checkpointSizes(db)).toEqual([1, 6, 11]);
    expect((await ledger.verify()).ok).toBe(true);
  });
});

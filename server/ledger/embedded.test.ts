import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../common/ledger/canonical';
import { checkProofWeb, recordDigestWeb } from '../../common/ledger/webVerify';
import { ledgerTestState, memoryLedger, proposal } from './testLedger';
import { sha256Hex } from './tx';

const state = ledgerTestState();

async function open(batchSize = 10, batchTimeoutMs = 5) {
  const { ledger, db } = await memoryLedger(state, { batchSize, batchTimeoutMs });
  await ledger.start();
  await ledger.ensureChannel('artchannel');
  return { ledger, db };
}

describe('embedded ledger', () => {
  it('creates a channel with a genesis block whose previous hash is empty', async () => {
    const { ledger } = await open();
    const ch = (await ledger.channel('artchannel'))!;
    expect(ch).toMatchObject({ name: 'artchannel', height: 1, txCount: 1 });
    const g = (await ledger.block(ch.id, 0))!;
    expect(g.previousHash).toBe('');
    expect((await ledger.blockTransactions(ch.id, 0))[0]).toMatchObject({
      chaincode: 'cscc',
      function: 'CreateChannel',
      args: ['artchannel'],
    });
    expect(await ledger.ensureChannel('artchannel')).toMatchObject({ id: ch.id, height: 1 });
  });

  it('cuts blocks by batch size, links them, and verifies', async () => {
    const { ledger } = await open(10, 60_000);
    const txs = await Promise.all(Array.from({ length: 25 }, (_, i) => ledger.submit(proposal(i))));
    // 20 cut by size at once; the 5 left wait for the (long) timeout until flush.
    await ledger.waitForCommit(txs[19].txId);
    expect(await ledger.isPending(txs[24].txId)).toBe(true);
    await ledger.flush();
    const ch = (await ledger.channel('artchannel'))!;
    expect(ch.height).toBe(4);
    const page = await ledger.blocks({ channelId: ch.id, page: 1, pageSize: 10, order: 'ASC' });
    expect(page.list.map((b) => b.txCount)).toEqual([1, 10, 10, 5]);
    for (let i = 1; i < page.list.length; i++)
      expect(page.list[i].previousHash).toBe(page.list[i - 1].blockHash);
    const committed = await ledger.transaction(txs[12].txId);
    expect(committed).toMatchObject({ blockNumber: 2, txIndex: 2, args: proposal(12).args });
    const v = await ledger.verify();
    expect(v).toMatchObject({ ok: true, blocks: 4, transactions: 26 });
    if (v.ok) expect(v.message).toBe('verified 4 blocks, 26 transactions in channel artchannel');
  });

  it('cuts full batches in the group commit that stores them: acknowledged means in a block', async () => {
    const { ledger, db } = await open(10, 60_000);
    const txs = await Promise.all(Array.from({ length: 25 }, (_, i) => ledger.submit(proposal(i))));
    // One database transaction stored the 25 and cut two blocks of 10; the 5 left wait in the queue.
    for (const tx of txs.slice(0, 20)) expect(await ledger.isPending(tx.txId)).toBe(false);
    expect((await ledger.transaction(txs[19].txId))!.blockNumber).toBe(2);
    // The 20 cut at once never went through the queue: the 5 left are its first rows (seq 1..5).
    const queued = await db.selectFrom('ledger_pending').select(['seq', 'txId']).orderBy('seq').execute();
    expect(queued).toEqual(txs.slice(20).map((t, i) => ({ seq: i + 1, txId: t.txId })));
    // The queued ones come first in the next block, before what is submitted after them.
    const more = await Promise.all(Array.from({ length: 5 }, (_, i) => ledger.submit(proposal(25 + i))));
    const block3 = await ledger.blockTransactions(1, 3);
    expect(block3.map((t) => t.txId)).toEqual([...txs.slice(20), ...more].map((t) => t.txId));
    expect((await ledger.verify()).ok).toBe(true);
  });

  it('cuts by batch timeout', async () => {
    const { ledger } = await open(1000, 5);
    const tx = await ledger.submitAndWait(proposal(1));
    expect(tx.blockNumber).toBe(1);
    expect(tx.txIndex).toBe(0);
  });

  it('refuses a bad proposal and an unknown channel', async () => {
    const { ledger } = await open();
    await expect(ledger.submit({ ...proposal(1), channel: 'nochannel' })).rejects.toThrow(
      /unknown channel "nochannel"/,
    );
    await expect(ledger.submit({ ...proposal(1), function: 'bad name' })).rejects.toThrow(
      /function must match/,
    );
    await expect(ledger.submit({ ...proposal(1), args: [1 as unknown as string] })).rejects.toThrow(
      /args\[0\]/,
    );
    await expect(ledger.ensureChannel('Bad Channel')).rejects.toThrow(/channel name/);
  });

  it('serves proofs that the Web Crypto checker accepts, and rejects a changed record', async () => {
    const { ledger } = await open(4, 5);
    const record = { id: 7, authorName: '齐白石', introduction: null, isBlock: 1, chain: 'x' };
    const digest = sha256Hex(canonicalJson({ id: 7, authorName: '齐白石', introduction: null }));
    expect(await recordDigestWeb('author', record)).toBe(digest);
    const txs = await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        ledger.submit(i === 3 ? { ...proposal(i), args: ['7', '1', digest] } : proposal(i)),
      ),
    );
    await ledger.flush();
    for (const t of txs) {
      const proof = (await ledger.proof(t.txId))!;
      const check = await checkProofWeb(proof);
      expect(check).toMatchObject({ ok: true, channel: 'artchannel' });
    }
    const p3 = (await ledger.proof(txs[2].txId))!;
    expect(await checkProofWeb(p3, digest)).toMatchObject({ ok: true, blockNumber: 1 });
    expect(
      await checkProofWeb(p3, await recordDigestWeb('author', { ...record, authorName: '齐白石 (edited)' })),
    ).toMatchObject({ ok: false, reason: 'digest' });
    expect(await checkProofWeb({ ...p3, tx: { ...p3.tx, creator: 'mallory' } })).toMatchObject({
      ok: false,
      reason: 'merkle',
    });
    expect(await checkProofWeb({ ...p3, header: { ...p3.header, number: 9 } })).toMatchObject({
      ok: false,
      reason: 'header',
    });
  });
});

describe('verification finds tampering at exactly that place', () => {
  async function filled() {
    const { ledger, db } = await open(5, 60_000);
    const txs = await Promise.all(Array.from({ length: 20 }, (_, i) => ledger.submit(proposal(i))));
    await ledger.flush();
    expect((await ledger.verify()).ok).toBe(true);
    return { ledger, db, txs };
  }

  it('a stored transaction changed', async () => {
    const { ledger, db, txs } = await filled();
    const target = (await ledger.transaction(txs[7].txId))!;
    await db
      .updateTable('ledger_tx')
      .set({ args: JSON.stringify(['7', '1', '00'.repeat(32)]) })
      .where('txId', '=', target.txId)
      .execute();
    expect(await ledger.verify()).toMatchObject({
      ok: false,
      blockNumber: target.blockNumber,
      txId: target.txId,
      field: 'leafHash',
    });
  });

  it('a transaction changed together with its recorded leaf hash', async () => {
    const { ledger, db, txs } = await filled();
    const target = (await ledger.transaction(txs[11].txId))!;
    const forged = { ...target, creator: 'mallory' };
    const { txLeafHash } = await import('./tx');
    const { toHex } = await import('../../common/ledger/hex');
    await db
      .updateTable('ledger_tx')
      .set({ creator: 'mallory', leafHash: toHex(txLeafHash(forged)) })
      .where('txId', '=', target.txId)
      .execute();
    expect(await ledger.verify()).toMatchObject({
      ok: false,
      blockNumber: target.blockNumber,
      field: 'dataHash',
    });
  });

  it.each([
    { what: 'a block header changed (data hash)', field: 'dataHash', value: 'ab'.repeat(32), blockNumber: 2 },
    { what: 'a stored block hash changed', field: 'blockHash', value: 'ef'.repeat(32), blockNumber: 4 },
  ])('$what', async ({ field, value, blockNumber }) => {
    const { ledger, db } = await filled();
    const ch = (await ledger.channel('artchannel'))!;
    await db
      .updateTable('ledger_block')
      .set({ [field]: value })
      .where('channelId', '=', ch.id)
      .where('number', '=', blockNumber)
      .execute();
    expect(await ledger.verify()).toMatchObject({ ok: false, blockNumber, field });
  });

  it('a re-hashed block breaks the link from the next block', async () => {
    const { ledger, db } = await filled();
    const ch = (await ledger.channel('artchannel'))!;
    const b3 = (await ledger.block(ch.id, 3))!;
    const { blockHashHex } = await import('./tx');
    // Forge block 3 consistently (new previous hash + recomputed block hash): block 3 itself is caught on previousHash.
    await db
      .updateTable('ledger_block')
      .set({
        previousHash: 'cd'.repeat(32),
        blockHash: blockHashHex({ ...b3, previousHash: 'cd'.repeat(32) }),
      })
      .where('channelId', '=', ch.id)
      .where('number', '=', 3)
      .execute();
    expect(await ledger.verify()).toMatchObject({ ok: false, blockNumber: 3, field: 'previousHash' });
  });

  it('a transaction removed from a block', async () => {
    const { ledger, db, txs } = await filled();
    const target = (await ledger.transaction(txs[3].txId))!;
    await sql`DELETE FROM ledger_tx WHERE "txId" = ${target.txId}`.execute(db);
    const v = await ledger.verify();
    expect(v).toMatchObject({ ok: false, blockNumber: target.blockNumber });
  });
});

describe('browser-side recomputation (Web Crypto) agrees with the server', () => {
  it('recomputes leaves, Merkle roots and block hashes of every block', async () => {
    const { ledger } = await open(3, 5);
    await Promise.all(Array.from({ length: 11 }, (_, i) => ledger.submit(proposal(i))));
    await ledger.flush();
    const { checkBlockWeb, txLeafHashWeb } = await import('../../common/ledger/webVerify');
    const ch = (await ledger.channel('artchannel'))!;
    for (let n = 0; n < ch.height; n++) {
      const block = (await ledger.block(ch.id, n))!;
      const txs = await ledger.blockTransactions(ch.id, n);
      expect(await checkBlockWeb(block, txs)).toEqual({ ok: true });
      for (const tx of txs) expect(await txLeafHashWeb(tx)).toBe(tx.leafHash);
      expect(await checkBlockWeb(block, [...txs].reverse())).toEqual(
        txs.length > 1 ? { ok: false, what: 'dataHash' } : { ok: true },
      );
      expect(await checkBlockWeb({ ...block, blockHash: 'ab'.repeat(32) }, txs)).toEqual({
        ok: false,
        what: 'blockHash',
      });
    }
  });
});

describe('block-committed hook', () => {
  it('is called once per block, in order, after the block is committed; a failing hook loses nothing', async () => {
    const errors: string[] = [];
    const { ledger } = await memoryLedger(state, {
      batchSize: 5,
      batchTimeoutMs: 5,
      logError: (_err, msg) => errors.push(msg),
    });
    const seen: { number: number; committed: boolean }[] = [];
    ledger.onBlockCommitted(async (block) => {
      // Committed: a read outside the block's database transaction already sees it.
      seen.push({
        number: block.number,
        committed: Boolean(await ledger.block(block.channelId, block.number)),
      });
      if (block.number === 2) throw new Error('signer down');
    });
    await ledger.start();
    await ledger.ensureChannel('artchannel');
    const txs = await Promise.all(Array.from({ length: 20 }, (_, i) => ledger.submitAndWait(proposal(i))));
    expect(seen).toEqual([0, 1, 2, 3, 4].map((number) => ({ number, committed: true })));
    expect(errors).toEqual(['ledger: the block-committed hook failed for block 2']);
    expect(new Set(txs.map((t) => t.blockNumber))).toEqual(new Set([1, 2, 3, 4]));
    expect((await ledger.verify()).ok).toBe(true);
  });
});

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical';
import type { Transaction, TxProof } from './types';
import { checkBlockWeb, checkProofWeb, recordDigestWeb } from './webVerify';

// The expected values are computed here with node:crypto and RFC 6962's recursive definition, not with
// the code under test (Web Crypto, level by level).
const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const leaf = (tx: Transaction) => sha(Buffer.from([0]), Buffer.from(canonicalJson(tx), 'utf8'));

/** RFC 6962 MTH: k = the largest power of two below n. */
function mth(leaves: Buffer[]): Buffer {
  if (leaves.length === 1) return leaves[0];
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha(Buffer.from([1]), mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

/** RFC 6962 PATH(m, D[n]) as steps from the leaf upwards. */
function path(m: number, leaves: Buffer[]): { side: 'left' | 'right'; hash: string }[] {
  if (leaves.length === 1) return [];
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  if (m < k)
    return [...path(m, leaves.slice(0, k)), { side: 'right', hash: mth(leaves.slice(k)).toString('hex') }];
  return [...path(m - k, leaves.slice(k)), { side: 'left', hash: mth(leaves.slice(0, k)).toString('hex') }];
}

/** DER SEQUENCE { INTEGER n, OCTET STRING prev, OCTET STRING data } for n < 128, by hand. */
function headerHash(number: number, previousHash: string, dataHash: string): string {
  const prev = Buffer.from(previousHash, 'hex');
  const data = Buffer.from(dataHash, 'hex');
  const body = Buffer.concat([
    Buffer.from([2, 1, number]),
    Buffer.from([4, prev.length]),
    prev,
    Buffer.from([4, data.length]),
    data,
  ]);
  return sha(Buffer.from([0x30, body.length]), body).toString('hex');
}

const txs: Transaction[] = Array.from({ length: 5 }, (_, i) => ({
  txId: createHash('sha256').update(`tx${i}`).digest('hex'),
  channel: 'artchannel',
  chaincode: 'artregistry',
  function: 'putArtwork',
  args: [String(i + 1), '1', createHash('sha256').update(`record${i}`).digest('hex')],
  creator: 'admin',
  timestamp: `2026-11-22 10:00:0${i}.000`,
  validationCode: 0,
}));
const leaves = txs.map(leaf);
const dataHash = mth(leaves).toString('hex');
const previousHash = 'ab'.repeat(32);
const blockHash = headerHash(7, previousHash, dataHash);

function proofOf(i: number): TxProof {
  return {
    channel: 'artchannel',
    channelId: 1,
    tx: txs[i],
    leafIndex: i,
    proof: path(i, leaves),
    header: { number: 7, previousHash, dataHash },
    blockHash,
    blockTime: '2026-11-22 10:00:05',
  };
}

describe('browser-side checks (Web Crypto)', () => {
  it('accepts the proof of every leaf of a 5-transaction block (odd levels carried up)', async () => {
    for (let i = 0; i < txs.length; i++)
      expect(await checkProofWeb(proofOf(i))).toEqual({
        ok: true,
        channel: 'artchannel',
        blockNumber: 7,
        blockHash,
      });
  });

  it('names what fails: a changed transaction, a wrong sibling side, a changed header, a changed record', async () => {
    const p = proofOf(2);
    expect(await checkProofWeb({ ...p, tx: { ...p.tx, creator: 'mallory' } })).toMatchObject({
      ok: false,
      reason: 'merkle',
      found: dataHash,
    });
    const flipped = p.proof.map((s, i) =>
      i === 0 ? { ...s, side: s.side === 'left' ? 'right' : 'left' } : s,
    );
    expect(await checkProofWeb({ ...p, proof: flipped as TxProof['proof'] })).toMatchObject({
      ok: false,
      reason: 'merkle',
    });
    expect(await checkProofWeb({ ...p, header: { ...p.header, number: 8 } })).toMatchObject({
      ok: false,
      reason: 'header',
      found: blockHash,
    });
    // "expected" is always the recomputed value: here the record's digest; "found" what the chain holds.
    expect(await checkProofWeb(p, '00'.repeat(32))).toMatchObject({
      ok: false,
      reason: 'digest',
      expected: '00'.repeat(32),
      found: txs[2].args[2],
    });
    expect(await checkProofWeb(p, txs[2].args[2])).toMatchObject({ ok: true });
    expect(await checkProofWeb({ ...p, proof: [{ side: 'left', hash: 'not hex' }] })).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
  });

  it('recomputes a block from its transactions, and says which hash does not match', async () => {
    const block = { number: 7, previousHash, dataHash, blockHash };
    expect(await checkBlockWeb(block, txs)).toEqual({ ok: true });
    expect(await checkBlockWeb(block, txs.slice(0, 4))).toEqual({ ok: false, what: 'dataHash' });
    expect(await checkBlockWeb({ ...block, number: 6 }, txs)).toEqual({ ok: false, what: 'blockHash' });
  });

  it('digests a record without its bookkeeping and derived fields (docs/ledger.md section 7)', async () => {
    const record = { id: 3, artWorkName: 'Sunset', author: 1 };
    const expected = createHash('sha256').update(canonicalJson(record)).digest('hex');
    expect(
      await recordDigestWeb('artwork', { ...record, isBlock: 1, status: 2, chain: 'x', authorName: 'T' }),
    ).toBe(expected);
    expect(await recordDigestWeb('artwork', { ...record, artWorkName: 'Sunrise' })).not.toBe(expected);
  });
});

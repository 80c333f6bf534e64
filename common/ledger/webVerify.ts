/**
 * Browser-side checks with Web Crypto (`crypto.subtle`, also present in Node 20): a record's digest, a
 * transaction's Merkle proof and its block header (docs/ledger.md sections 3 and 7). Independent of the
 * server's node:crypto code; no node imports, so the console bundles it.
 */
import { canonicalBytes, canonicalJson } from './canonical';
import { encodeHeader } from './der';
import { concatBytes, fromHex, toHex } from './hex';
import { digestFields, type RecordKind } from './recordFields';
import { txBody } from './txBody';
import type { TxProof, Transaction } from './types';

async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>));
}

/** SHA-256 hex of the canonical JSON of the record's digest fields (recordFields.ts). */
export async function recordDigestWeb(kind: RecordKind, record: object): Promise<string> {
  return toHex(await sha256(canonicalBytes(digestFields(kind, record))));
}

/**
 * Why a proof failed, or `ok`. `expected` is always the value recomputed in the browser, `found` the value
 * the server sent (docs/ledger.md section 6).
 */
export type ProofCheck =
  | { ok: true; channel: string; blockNumber: number; blockHash: string }
  | {
      ok: false;
      reason: 'digest' | 'merkle' | 'header' | 'malformed';
      message: string;
      expected?: string;
      found?: string;
    };

/**
 * Checks a proof: leaf hash of `proof.tx` folded along the audit path equals `header.dataHash`; SHA-256
 * of the DER header equals `blockHash`; and when `recordDigest` is given, it equals the digest carried by
 * the transaction (`args[2]`, docs/ledger.md section 7).
 */
export async function checkProofWeb(proof: TxProof, recordDigest?: string): Promise<ProofCheck> {
  try {
    const tx: Transaction = {
      txId: proof.tx.txId,
      channel: proof.tx.channel,
      chaincode: proof.tx.chaincode,
      function: proof.tx.function,
      args: proof.tx.args,
      creator: proof.tx.creator,
      timestamp: proof.tx.timestamp,
      validationCode: proof.tx.validationCode,
    };
    if (recordDigest !== undefined && tx.args[2] !== recordDigest)
      return {
        ok: false,
        reason: 'digest',
        message: 'the record changed since it was put on chain',
        expected: recordDigest,
        found: tx.args[2],
      };
    let h = await sha256(concatBytes(Uint8Array.of(0), new TextEncoder().encode(canonicalJson(tx))));
    for (const step of proof.proof) {
      const sib = fromHex(step.hash);
      h = await sha256(
        step.side === 'left' ? concatBytes(Uint8Array.of(1), sib, h) : concatBytes(Uint8Array.of(1), h, sib),
      );
    }
    if (toHex(h) !== proof.header.dataHash)
      return {
        ok: false,
        reason: 'merkle',
        message: "the Merkle path does not lead to the block's data hash",
        expected: toHex(h),
        found: proof.header.dataHash,
      };
    const blockHash = toHex(
      await sha256(
        encodeHeader({
          number: proof.header.number,
          previousHash: fromHex(proof.header.previousHash),
          dataHash: fromHex(proof.header.dataHash),
        }),
      ),
    );
    if (blockHash !== proof.blockHash)
      return {
        ok: false,
        reason: 'header',
        message: 'the block header does not hash to the block hash',
        expected: blockHash,
        found: proof.blockHash,
      };
    return { ok: true, channel: proof.channel, blockNumber: proof.header.number, blockHash };
  } catch (err) {
    return { ok: false, reason: 'malformed', message: `malformed proof: ${(err as Error).message}` };
  }
}

/** Leaf hash (hex) of a transaction's eight hashed fields, with Web Crypto. */
export async function txLeafHashWeb(tx: Transaction): Promise<string> {
  return toHex(await sha256(concatBytes(Uint8Array.of(0), canonicalBytes(txBody(tx)))));
}

/** Merkle root (hex) of leaf hashes (hex), odd node carried up (docs/ledger.md section 3). */
export async function merkleRootWeb(leaves: string[]): Promise<string> {
  if (leaves.length === 0) throw new Error('Merkle root of no leaves');
  let level = leaves.map(fromHex);
  while (level.length > 1) {
    const up: Uint8Array[] = [];
    for (let i = 0; i + 1 < level.length; i += 2)
      up.push(await sha256(concatBytes(Uint8Array.of(1), level[i], level[i + 1])));
    if (level.length % 2 === 1) up.push(level[level.length - 1]);
    level = up;
  }
  return toHex(level[0]);
}

/** Block hash (hex) = SHA-256 of the DER header, with Web Crypto. */
export async function blockHashWeb(header: {
  number: number;
  previousHash: string;
  dataHash: string;
}): Promise<string> {
  return toHex(
    await sha256(
      encodeHeader({
        number: header.number,
        previousHash: fromHex(header.previousHash),
        dataHash: fromHex(header.dataHash),
      }),
    ),
  );
}

/**
 * Recomputes a block in the browser from its transactions: each leaf, the Merkle root against
 * `dataHash`, and the block hash. Answers which part does not match, or ok.
 */
export async function checkBlockWeb(
  block: { number: number; previousHash: string; dataHash: string; blockHash: string },
  txs: Transaction[],
): Promise<{ ok: true } | { ok: false; what: 'dataHash' | 'blockHash' }> {
  const leaves = await Promise.all(txs.map(txLeafHashWeb));
  if ((await merkleRootWeb(leaves)) !== block.dataHash) return { ok: false, what: 'dataHash' };
  if ((await blockHashWeb(block)) !== block.blockHash) return { ok: false, what: 'blockHash' };
  return { ok: true };
}

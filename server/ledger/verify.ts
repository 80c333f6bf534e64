/**
 * Verification of a stored ledger (docs/ledger.md section 6): per channel, block by block, recompute every
 * transaction's leaf hash, the Merkle root, the DER header hash and the link to the previous block, and
 * answer the first failure or "verified N blocks, M transactions". Reads in pages so 100,000s of
 * transactions stay within memory. Works on any database holding the ledger tables.
 */
import type { Kysely } from 'kysely';
import { fromHex, toHex } from '../../common/ledger/hex';
import { merkleRoot } from './merkle';
import type { LedgerTables } from './tables';
import { blockHashHex, txLeafHash } from './tx';
import type { Transaction, VerifyResult } from '../../common/ledger/types';

const PAGE = 500;

/**
 * Verifies every channel (or only `channelName`).
 * @throws Error only for an unknown `channelName` or a database failure; a broken ledger is a result.
 */
export async function verifyLedger(db: Kysely<any>, channelName?: string): Promise<VerifyResult> {
  const ldb = db as Kysely<LedgerTables>;
  let q = ldb.selectFrom('ledger_channel').selectAll().orderBy('id');
  if (channelName !== undefined) q = q.where('name', '=', channelName);
  const channels = await q.execute();
  if (channelName !== undefined && channels.length === 0) throw new Error(`unknown channel "${channelName}"`);
  let blocks = 0;
  let transactions = 0;
  const seenTx = new Set<string>();

  for (const ch of channels) {
    let expectedNumber = 0;
    let previous = '';
    for (;;) {
      const rows = await ldb
        .selectFrom('ledger_block')
        .selectAll()
        .where('channelId', '=', ch.id)
        .where('number', '>=', expectedNumber)
        .orderBy('number')
        .limit(PAGE)
        .execute();
      if (rows.length === 0) break;
      const txRows = await ldb
        .selectFrom('ledger_tx')
        .selectAll()
        .where('channelId', '=', ch.id)
        .where('blockNumber', '>=', rows[0].number)
        .where('blockNumber', '<=', rows[rows.length - 1].number)
        .orderBy('blockNumber')
        .orderBy('txIndex')
        .execute();
      let t = 0;
      for (const b of rows) {
        const fail = (
          field: string,
          expected: string,
          found: string,
          what: string,
          txId?: string,
        ): VerifyResult => ({
          ok: false,
          channel: ch.name,
          blockNumber: b.number,
          txId,
          field,
          expected,
          found,
          message: `channel ${ch.name}, block ${b.number}${txId ? `, transaction ${txId}` : ''}: ${what} (expected ${expected || '""'}, found ${found || '""'})`,
          blocks,
          transactions,
        });
        if (b.number !== expectedNumber)
          return fail(
            'number',
            String(expectedNumber),
            String(b.number),
            `block number ${expectedNumber} is missing`,
          );
        const leaves: Uint8Array[] = [];
        let index = 0;
        while (t < txRows.length && txRows[t].blockNumber === b.number) {
          const r = txRows[t++];
          if (r.txIndex !== index)
            return fail(
              'txIndex',
              String(index),
              String(r.txIndex),
              'transaction positions are not contiguous',
              r.txId,
            );
          const tx: Transaction = {
            txId: r.txId,
            channel: ch.name,
            chaincode: r.chaincode,
            function: r.function,
            args: JSON.parse(r.args) as string[],
            creator: r.creator,
            timestamp: r.timestamp,
            validationCode: r.validationCode,
          };
          const leaf = txLeafHash(tx);
          const leafHex = toHex(leaf);
          if (leafHex !== r.leafHash)
            return fail(
              'leafHash',
              leafHex,
              r.leafHash,
              'the transaction does not hash to the leaf recorded in its block',
              r.txId,
            );
          if (seenTx.has(r.txId))
            return fail('txId', 'unique', 'duplicate', 'transaction id appears twice', r.txId);
          seenTx.add(r.txId);
          leaves.push(fromHex(r.leafHash));
          index++;
        }
        if (leaves.length !== b.txCount)
          return fail('txCount', String(b.txCount), String(leaves.length), 'transaction count differs');
        if (leaves.length === 0)
          return fail('txCount', '>= 1', '0', 'a block must hold at least one transaction');
        const dataHash = toHex(merkleRoot(leaves));
        if (dataHash !== b.dataHash)
          return fail(
            'dataHash',
            dataHash,
            b.dataHash,
            "the Merkle root of the block's transactions differs from its data hash",
          );
        if (b.previousHash !== previous)
          return fail(
            'previousHash',
            previous,
            b.previousHash,
            "the previous hash does not match the previous block's hash",
          );
        const hash = blockHashHex({ number: b.number, previousHash: b.previousHash, dataHash: b.dataHash });
        if (hash !== b.blockHash)
          return fail(
            'blockHash',
            hash,
            b.blockHash,
            'the stored block hash differs from SHA-256 of the DER header',
          );
        previous = hash;
        expectedNumber++;
        blocks++;
        transactions += leaves.length;
      }
      // Transactions pointing at blocks that do not exist in this page range are caught by the FK and txCount.
    }
  }
  const n = channels.length;
  return {
    ok: true,
    blocks,
    transactions,
    channels: n,
    message: `verified ${blocks} blocks, ${transactions} transactions${n === 1 ? ` in channel ${channels[0].name}` : ` in ${n} channels`}`,
  };
}

/**
 * One chunk of a ledger verification (verify.ts): consecutive blocks of one channel checked on their own
 * (numbering, positions, leaf hashes, duplicate ids, counts, Merkle roots, block hashes, the links between
 * its blocks). Kept apart, with few imports, because worker threads load it (verifyWorker.ts).
 */
import type SQLite from 'better-sqlite3';
import { merkleRoot } from './merkle';
import { blockHashHex, txLeafBuffer } from './tx';
import type { Transaction } from '../../common/ledger/types';

/** Consecutive blocks `from..to` (numbers, inclusive) of one channel. */
export interface Chunk {
  channelId: number;
  channel: string;
  from: number;
  to: number;
}

/** A failure inside a chunk, with what the chunk had checked before it. */
export interface ChunkFailure {
  blockNumber: number;
  txId?: string;
  field: string;
  expected: string;
  found: string;
  what: string;
  blocks: number;
  transactions: number;
}

/** What verifying a chunk found. `first`/`last` are its first and last stored blocks (for the links). */
export interface ChunkResult {
  blocks: number;
  transactions: number;
  first?: { number: number; previousHash: string };
  last?: { number: number; blockHash: string };
  failure?: ChunkFailure;
}

export interface BlockRow {
  number: number;
  previousHash: string;
  dataHash: string;
  blockHash: string;
  txCount: number;
}
export interface TxRow {
  txId: string;
  blockNumber: number;
  txIndex: number;
  chaincode: string;
  function: string;
  args: string;
  creator: string;
  timestamp: string;
  validationCode: number;
  leafHash: string;
}

/** A chunk's stored blocks and transactions, ordered by number, then position. */
export interface ChunkData {
  blocks: BlockRow[];
  txs: TxRow[];
}

/** Reads a chunk's blocks and transactions. */
export type ChunkReader = (c: Chunk) => Promise<ChunkData> | ChunkData;

const TX_COLUMNS =
  '"txId", "blockNumber", "txIndex", "chaincode", "function", "args", "creator", "timestamp", "validationCode", "leafHash"';

/** A reader over a better-sqlite3 connection (prepared statements). */
export function sqliteChunkReader(d: SQLite.Database): (c: Chunk) => ChunkData {
  const blocks = d.prepare(
    'SELECT "number", "previousHash", "dataHash", "blockHash", "txCount" FROM ledger_block WHERE "channelId" = ? AND "number" BETWEEN ? AND ? ORDER BY "number"',
  );
  const txs = d.prepare(
    `SELECT ${TX_COLUMNS} FROM ledger_tx WHERE "channelId" = ? AND "blockNumber" BETWEEN ? AND ? ORDER BY "blockNumber", "txIndex"`,
  );
  return (c) => ({
    blocks: blocks.all(c.channelId, c.from, c.to) as BlockRow[],
    txs: txs.all(c.channelId, c.from, c.to) as TxRow[],
  });
}

/**
 * Verifies one chunk: numbering from `c.from`, positions, leaf hashes, duplicate ids, counts, Merkle
 * roots, block hashes, and the links between its own blocks (the first block's link is the caller's).
 */
export function verifyChunk(c: Chunk, data: ChunkData): ChunkResult {
  const { blocks: rows, txs: txRows } = data;
  const res: ChunkResult = { blocks: 0, transactions: 0 };
  if (rows.length === 0) return res;
  res.first = { number: rows[0].number, previousHash: rows[0].previousHash };
  const seen = new Set<string>();
  let expectedNumber = c.from;
  let previous: string | undefined;
  let t = 0;
  for (const b of rows) {
    const fail = (field: string, expected: string, found: string, what: string, txId?: string) => {
      res.failure = {
        blockNumber: b.number,
        txId,
        field,
        expected,
        found,
        what,
        blocks: res.blocks,
        transactions: res.transactions,
      };
      return res;
    };
    if (b.number !== expectedNumber)
      return fail(
        'number',
        String(expectedNumber),
        String(b.number),
        `block number ${expectedNumber} is missing`,
      );
    // Transactions of blocks that do not exist are caught by the FK and txCount.
    while (t < txRows.length && txRows[t].blockNumber < b.number) t++;
    const leaves: Buffer[] = [];
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
        channel: c.channel,
        chaincode: r.chaincode,
        function: r.function,
        args: JSON.parse(r.args) as string[],
        creator: r.creator,
        timestamp: r.timestamp,
        validationCode: r.validationCode,
      };
      const leaf = txLeafBuffer(tx);
      const leafHex = leaf.toString('hex');
      if (leafHex !== r.leafHash)
        return fail(
          'leafHash',
          leafHex,
          r.leafHash,
          'the transaction does not hash to the leaf recorded in its block',
          r.txId,
        );
      if (seen.has(r.txId))
        return fail('txId', 'unique', 'duplicate', 'transaction id appears twice', r.txId);
      seen.add(r.txId);
      leaves.push(leaf);
      index++;
    }
    if (leaves.length !== b.txCount)
      return fail('txCount', String(b.txCount), String(leaves.length), 'transaction count differs');
    if (leaves.length === 0)
      return fail('txCount', '>= 1', '0', 'a block must hold at least one transaction');
    const dataHash = Buffer.from(merkleRoot(leaves)).toString('hex');
    if (dataHash !== b.dataHash)
      return fail(
        'dataHash',
        dataHash,
        b.dataHash,
        "the Merkle root of the block's transactions differs from its data hash",
      );
    if (previous !== undefined && b.previousHash !== previous)
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
    res.blocks++;
    res.transactions += leaves.length;
    res.last = { number: b.number, blockHash: hash };
  }
  return res;
}

/**
 * One chunk of a ledger verification (verify.ts): consecutive blocks of one channel checked on their own
 * (numbering, positions, leaf hashes, duplicate ids, counts, Merkle roots, block hashes, the links between
 * its blocks). Kept apart, with few imports, because worker threads load it (verifyWorker.ts).
 */
import type SQLite from 'better-sqlite3';
import { merkleRootHex } from './merkle';
import { blockHashHex, storedTxLeafHex } from './tx';

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

/** A stored block: number, previousHash, dataHash, blockHash, txCount (an array: the cheapest row). */
export type BlockRow = [
  number: number,
  previousHash: string,
  dataHash: string,
  blockHash: string,
  txCount: number,
];
/**
 * A stored transaction: txId, blockNumber, txIndex, chaincode, function, args (JSON text), creator,
 * timestamp, validationCode, leafHash (an array: better-sqlite3's raw rows).
 */
export type TxRow = [
  txId: string,
  blockNumber: number,
  txIndex: number,
  chaincode: string,
  fn: string,
  args: string,
  creator: string,
  timestamp: string,
  validationCode: number,
  leafHash: string,
];

/** A chunk's stored blocks and transactions, ordered by number, then position. */
export interface ChunkData {
  blocks: BlockRow[];
  txs: TxRow[];
}

/** Reads a chunk's blocks and transactions. */
export type ChunkReader = (c: Chunk) => Promise<ChunkData> | ChunkData;

/** The columns of `TxRow` and `BlockRow`, in their order. */
export const TX_COLUMNS = [
  'txId',
  'blockNumber',
  'txIndex',
  'chaincode',
  'function',
  'args',
  'creator',
  'timestamp',
  'validationCode',
  'leafHash',
] as const;
export const BLOCK_COLUMNS = ['number', 'previousHash', 'dataHash', 'blockHash', 'txCount'] as const;
const list = (cols: readonly string[]) => cols.map((c) => `"${c}"`).join(', ');

/** A reader over a better-sqlite3 connection (prepared statements answering raw rows, no objects). */
export function sqliteChunkReader(d: SQLite.Database): (c: Chunk) => ChunkData {
  const blocks = d
    .prepare(
      `SELECT ${list(BLOCK_COLUMNS)} FROM ledger_block WHERE "channelId" = ? AND "number" BETWEEN ? AND ? ORDER BY "number"`,
    )
    .raw(true);
  const txs = d
    .prepare(
      `SELECT ${list(TX_COLUMNS)} FROM ledger_tx WHERE "channelId" = ? AND "blockNumber" BETWEEN ? AND ? ORDER BY "blockNumber", "txIndex"`,
    )
    .raw(true);
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
  res.first = { number: rows[0][0], previousHash: rows[0][1] };
  const seen = new Set<string>();
  let expectedNumber = c.from;
  let previous: string | undefined;
  let t = 0;
  for (const row of rows) {
    const [number, previousHash, storedDataHash, storedBlockHash, txCount] = row;
    const fail = (field: string, expected: string, found: string, what: string, txId?: string) => {
      res.failure = {
        blockNumber: number,
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
    if (number !== expectedNumber)
      return fail(
        'number',
        String(expectedNumber),
        String(number),
        `block number ${expectedNumber} is missing`,
      );
    // Transactions of blocks that do not exist are caught by the FK and txCount.
    while (t < txRows.length && txRows[t][1] < number) t++;
    const leaves: string[] = [];
    let index = 0;
    while (t < txRows.length && txRows[t][1] === number) {
      const [txId, , txIndex, chaincode, fn, args, creator, timestamp, validationCode, leafHash] =
        txRows[t++];
      if (txIndex !== index)
        return fail(
          'txIndex',
          String(index),
          String(txIndex),
          'transaction positions are not contiguous',
          txId,
        );
      const leaf = storedTxLeafHex(txId, c.channel, chaincode, fn, args, creator, timestamp, validationCode);
      if (leaf !== leafHash)
        return fail(
          'leafHash',
          leaf,
          leafHash,
          'the transaction does not hash to the leaf recorded in its block',
          txId,
        );
      if (seen.has(txId)) return fail('txId', 'unique', 'duplicate', 'transaction id appears twice', txId);
      seen.add(txId);
      leaves.push(leaf);
      index++;
    }
    if (leaves.length !== txCount)
      return fail('txCount', String(txCount), String(leaves.length), 'transaction count differs');
    if (leaves.length === 0)
      return fail('txCount', '>= 1', '0', 'a block must hold at least one transaction');
    const dataHash = merkleRootHex(leaves);
    if (dataHash !== storedDataHash)
      return fail(
        'dataHash',
        dataHash,
        storedDataHash,
        "the Merkle root of the block's transactions differs from its data hash",
      );
    if (previous !== undefined && previousHash !== previous)
      return fail(
        'previousHash',
        previous,
        previousHash,
        "the previous hash does not match the previous block's hash",
      );
    const hash = blockHashHex({ number, previousHash, dataHash: storedDataHash });
    if (hash !== storedBlockHash)
      return fail(
        'blockHash',
        hash,
        storedBlockHash,
        'the stored block hash differs from SHA-256 of the DER header',
      );
    previous = hash;
    expectedNumber++;
    res.blocks++;
    res.transactions += leaves.length;
    res.last = { number, blockHash: hash };
  }
  return res;
}

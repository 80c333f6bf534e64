/**
 * Verification of a stored ledger (docs/ledger.md section 6): per channel, block by block, recompute every
 * transaction's leaf hash, the Merkle root, the DER header hash and the link to the previous block, and
 * answer the first failure or "verified N blocks, M transactions". Works on any database holding the
 * ledger tables.
 *
 * Speed (issue 9: 100,000 transactions in at most 1 s): each channel's blocks are split into chunks of
 * about CHUNK_TX transactions, verified independently (`verifyChunk`); the chunks' boundaries (numbering
 * and previous-hash links) are then checked in order, so the answer is the same first failure a
 * block-by-block walk gives. On a SQLite file, worker threads (verifyWorker.ts, each with its own
 * read-only connection; WAL lets readers run beside the writer) take chunks from the same queue as the
 * calling thread, which starts at once and does not wait for them to boot. Blocks are append-only, so
 * chunks read through different connections agree.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import { sqliteHandle } from '../db/connect';
import type { LedgerTables } from './tables';
import type { VerifyResult } from '../../common/ledger/types';
import {
  BLOCK_COLUMNS,
  sqliteChunkReader,
  TX_COLUMNS,
  verifyChunk,
  type BlockRow,
  type TxRow,
  type Chunk,
  type ChunkReader,
  type ChunkResult,
} from './verifyChunk';

export { verifyChunk, type Chunk, type ChunkResult } from './verifyChunk';

/** About this many transactions per chunk. */
const CHUNK_TX = 5000;
/** Below this many transactions no worker is started (its start-up costs more than it saves). */
const WORKERS_FROM_TX = 20_000;

/** A reader through Kysely (any dialect), answering the rows as verifyChunk's arrays. */
function kyselyChunkReader(db: Kysely<LedgerTables>): ChunkReader {
  return async (c) => {
    const [blocks, txs] = await Promise.all([
      db
        .selectFrom('ledger_block')
        .select([...BLOCK_COLUMNS])
        .where('channelId', '=', c.channelId)
        .where('number', '>=', c.from)
        .where('number', '<=', c.to)
        .orderBy('number')
        .execute(),
      db
        .selectFrom('ledger_tx')
        .select([...TX_COLUMNS])
        .where('channelId', '=', c.channelId)
        .where('blockNumber', '>=', c.from)
        .where('blockNumber', '<=', c.to)
        .orderBy('blockNumber')
        .orderBy('txIndex')
        .execute(),
    ]);
    return {
      blocks: blocks.map((b): BlockRow => [
        Number(b.number),
        b.previousHash,
        b.dataHash,
        b.blockHash,
        Number(b.txCount),
      ]),
      txs: txs.map((t): TxRow => [
        t.txId,
        Number(t.blockNumber),
        Number(t.txIndex),
        t.chaincode,
        t.function,
        t.args,
        t.creator,
        t.timestamp,
        Number(t.validationCode),
        t.leafHash,
      ]),
    };
  };
}

/** Fields checked before a block's previous-hash link (the order of verifyChunk's checks). */
const BEFORE_LINK = new Set(['number', 'txIndex', 'leafHash', 'txId', 'txCount', 'dataHash']);

/** The channel's blocks cut into chunks of about CHUNK_TX transactions (from the stored txCount). */
async function chunksOf(db: Kysely<LedgerTables>, ch: { id: number; name: string }): Promise<Chunk[]> {
  const rows = await db
    .selectFrom('ledger_block')
    .select(['number', 'txCount'])
    .where('channelId', '=', ch.id)
    .orderBy('number')
    .execute();
  const chunks: Chunk[] = [];
  let from: number | undefined;
  let n = 0;
  for (const r of rows) {
    const number = Number(r.number);
    from ??= number;
    n += Math.max(1, Number(r.txCount));
    if (n >= CHUNK_TX) {
      chunks.push({ channelId: ch.id, channel: ch.name, from, to: number });
      from = undefined;
      n = 0;
    }
  }
  if (from !== undefined)
    chunks.push({ channelId: ch.id, channel: ch.name, from, to: Number(rows[rows.length - 1].number) });
  // The first chunk starts at 0 whatever is stored, so a missing genesis block is reported.
  if (chunks.length) chunks[0].from = 0;
  return chunks;
}

/** Options of `verifyLedger`. */
export interface VerifyOptions {
  /**
   * Worker threads beside the calling thread (SQLite files only): default `availableParallelism() - 1`
   * (at most 3), 0 for none. Not started below `workersFromTx` transactions.
   */
  workers?: number;
  /** Fewest transactions (estimated from the chunks) for which workers start; default 20,000. */
  workersFromTx?: number;
}

/**
 * Worker threads (verifyWorker.ts) verifying chunks of a SQLite file, each through its own read-only
 * connection. `take()` hands out the next chunk index; a worker that fails gives its chunk back
 * (`lost`), and the calling thread verifies it.
 */
class VerifyPool {
  private readonly workers: Worker[] = [];
  private readonly inFlight = new Map<Worker, number>();
  private wake: (() => void) | undefined;

  /** @throws Error when worker threads cannot be started here (the caller then verifies alone). */
  constructor(
    file: string,
    n: number,
    private readonly take: () => number | undefined,
    private readonly chunks: Chunk[],
    private readonly results: (ChunkResult | undefined)[],
    private readonly lost: number[],
    private readonly failed: (index: number) => void,
  ) {
    // The worker is plain JavaScript (codegen's bundle of verifyWorker.ts, scripts/codegen/workers.ts),
    // started without the parent's loader flags: through tsx's loader it cost about 0.5 s of CPU each.
    const entry = new URL('./generated/verifyWorker.mjs', import.meta.url);
    for (let i = 0; i < n; i++) {
      const w = new Worker(entry, { workerData: { file }, execArgv: [] });
      w.on('message', (m: { index?: number; result?: ChunkResult }) => {
        if (m.index !== undefined) {
          this.results[m.index] = m.result;
          this.inFlight.delete(w);
          if (m.result?.failure) this.failed(m.index);
        }
        this.feed(w);
        this.wake?.();
      });
      const gone = () => {
        const i = this.inFlight.get(w);
        if (i !== undefined) this.lost.push(i);
        this.inFlight.delete(w);
        this.workers.splice(this.workers.indexOf(w), 1);
        this.wake?.();
      };
      w.on('error', gone);
      w.on('exit', () => this.workers.includes(w) && gone());
      this.workers.push(w);
    }
  }

  private feed(w: Worker): void {
    const i = this.take();
    if (i === undefined) return;
    this.inFlight.set(w, i);
    w.postMessage({ index: i, chunk: this.chunks[i] });
  }

  /** Resolves once no worker holds a chunk. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await new Promise<void>((r) => (this.wake = r));
  }

  async close(): Promise<void> {
    const ws = this.workers.splice(0);
    await Promise.all(ws.map((w) => w.terminate()));
  }
}

/** Starts the pool, or answers undefined where worker threads cannot run (e.g. without tsx's loader). */
function startPool(...args: ConstructorParameters<typeof VerifyPool>): VerifyPool | undefined {
  try {
    return new VerifyPool(...args);
  } catch {
    return undefined;
  }
}

/**
 * Verifies every channel (or only `channelName`).
 * @throws Error only for an unknown `channelName` or a database failure; a broken ledger is a result.
 */
export async function verifyLedger(
  db: Kysely<any>,
  channelName?: string,
  opts: VerifyOptions = {},
): Promise<VerifyResult> {
  const ldb = db as Kysely<LedgerTables>;
  let q = ldb.selectFrom('ledger_channel').selectAll().orderBy('id');
  if (channelName !== undefined) q = q.where('name', '=', channelName);
  const channels = await q.execute();
  if (channelName !== undefined && channels.length === 0) throw new Error(`unknown channel "${channelName}"`);

  const chunks: Chunk[] = [];
  for (const ch of channels) chunks.push(...(await chunksOf(ldb, ch)));
  const results: (ChunkResult | undefined)[] = new Array(chunks.length);

  const sqlite = sqliteHandle(db);
  const read = sqlite ? sqliteChunkReader(sqlite) : kyselyChunkReader(ldb);
  const file = sqlite && !sqlite.memory ? sqlite.name : undefined;
  const wanted = opts.workers ?? Math.min(3, Math.max(1, availableParallelism() - 1));
  const totalTx = chunks.length * CHUNK_TX;
  let next = 0;
  // Stop handing out chunks past a failure: the answer is the first one.
  let stopAt = chunks.length;
  const lost: number[] = [];
  const take = () => (lost.length ? lost.shift() : next < stopAt ? next++ : undefined);
  const pool =
    file && wanted > 0 && totalTx >= (opts.workersFromTx ?? WORKERS_FROM_TX)
      ? startPool(file, wanted, take, chunks, results, lost, (i) => (stopAt = Math.min(stopAt, i + 1)))
      : undefined;
  try {
    for (;;) {
      const i = take();
      if (i === undefined) {
        // Wait for the workers' chunks; one a failed worker gave back is verified here.
        await pool?.idle();
        if (lost.length) continue;
        break;
      }
      const r = verifyChunk(chunks[i], await read(chunks[i]));
      results[i] = r;
      if (r.failure) stopAt = Math.min(stopAt, i + 1);
      // Let the workers' messages in between chunks (better-sqlite3 reads block the thread).
      if (pool) await new Promise((r) => setImmediate(r));
    }
  } finally {
    await pool?.close();
  }
  return combine(channels, chunks, results);
}

/** Checks the chunks' boundaries in chain order and answers the first failure, or the totals. */
function combine(
  channels: { id: number; name: string }[],
  chunks: Chunk[],
  results: (ChunkResult | undefined)[],
): VerifyResult {
  let blocks = 0;
  let transactions = 0;
  let ci = 0;
  for (const ch of channels) {
    let expectedNumber = 0;
    let previous = '';
    for (; ci < chunks.length && chunks[ci].channelId === ch.id; ci++) {
      const r = results[ci]!;
      const f = r.failure;
      const fail = (
        blockNumber: number,
        field: string,
        expected: string,
        found: string,
        what: string,
        txId?: string,
      ): VerifyResult => ({
        ok: false,
        channel: ch.name,
        blockNumber,
        txId,
        field,
        expected,
        found,
        message: `channel ${ch.name}, block ${blockNumber}${txId ? `, transaction ${txId}` : ''}: ${what} (expected ${expected || '""'}, found ${found || '""'})`,
        blocks,
        transactions,
      });
      const first = r.first;
      const failsFirst = f && first && f.blockNumber === first.number && BEFORE_LINK.has(f.field);
      if (
        first &&
        first.number !== expectedNumber &&
        !(f && f.field === 'number' && f.blockNumber === first.number)
      )
        return fail(
          first.number,
          'number',
          String(expectedNumber),
          String(first.number),
          `block number ${expectedNumber} is missing`,
        );
      if (first && !failsFirst && first.previousHash !== previous)
        return fail(
          first.number,
          'previousHash',
          previous,
          first.previousHash,
          "the previous hash does not match the previous block's hash",
        );
      if (f) {
        blocks += f.blocks;
        transactions += f.transactions;
        return fail(f.blockNumber, f.field, f.expected, f.found, f.what, f.txId);
      }
      blocks += r.blocks;
      transactions += r.transactions;
      if (r.last) {
        expectedNumber = r.last.number + 1;
        previous = r.last.blockHash;
      }
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

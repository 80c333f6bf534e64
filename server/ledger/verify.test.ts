/**
 * Chunked verification (verify.ts): a ledger of 13 blocks (genesis + 12 × 1,000 transactions) splits into
 * three chunks of about 5,000 transactions, [0..5], [6..10], [11..12]. Tampering at a chunk's first block
 * must give the same first failure as a block-by-block walk (the boundary checks), and worker threads
 * (a child process running under tsx, since vitest's module runner cannot host them) must agree with the
 * calling thread alone.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, sqliteHandle } from '../db/connect';
import { migrateToLatest } from '../db/migrator';
import { createEmbeddedLedger } from './embedded';
import { sha256Hex } from './tx';
import { verifyLedger } from './verify';
import { sqliteChunkReader, verifyChunk, type Chunk, type ChunkResult } from './verifyChunk';

const dir = mkdtempSync(join(tmpdir(), 'baas-verify-'));
const BLOCKS = 12;
const PER_BLOCK = 1000;

/** Verifies `dataDir` in a child process with `workers` worker threads (from any size). */
function verifyWithWorkers(dataDir: string, workers: number) {
  const code = `
    import { connect } from './server/db/connect';
    import { verifyLedger } from './server/ledger/verify';
    const { db } = connect({ dataDir: ${JSON.stringify(dataDir)} });
    const r = await verifyLedger(db, undefined, { workers: ${workers}, workersFromTx: 1 });
    await db.destroy();
    console.log(JSON.stringify(r));`;
  const p = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: join(import.meta.dirname, '../..'),
    encoding: 'utf8',
  });
  expect(p.status, p.stderr).toBe(0);
  return JSON.parse(p.stdout.trim().split('\n').pop()!);
}

/** A copy of the ledger database with `sqlText` applied (foreign keys off, as a forger would). */
async function tampered(name: string, sqlText: string): Promise<string> {
  const target = join(dir, name);
  mkdirSync(target, { recursive: true });
  const { db: src } = connect({ dataDir: join(dir, 'base') });
  await sqliteHandle(src)!.backup(join(target, 'baas.sqlite'));
  await src.destroy();
  const { db: copy } = connect({ dataDir: target });
  sqliteHandle(copy)!.pragma('foreign_keys = OFF');
  sqliteHandle(copy)!.exec(sqlText);
  await copy.destroy();
  return target;
}

async function verifyDir(dataDir: string) {
  const { db } = connect({ dataDir });
  try {
    return await verifyLedger(db, undefined, { workers: 0 });
  } finally {
    await db.destroy();
  }
}

beforeAll(async () => {
  const { db } = connect({ dataDir: join(dir, 'base') });
  await migrateToLatest(db);
  const ledger = createEmbeddedLedger(db, { batchSize: PER_BLOCK, batchTimeoutMs: 60_000 });
  await ledger.start();
  await ledger.ensureChannel('artchannel');
  await Promise.all(
    Array.from({ length: BLOCKS * PER_BLOCK }, (_, i) =>
      ledger.submitAndWait({
        channel: 'artchannel',
        chaincode: 'artregistry',
        function: 'putArtwork',
        args: [String(i), '1', sha256Hex(`r${i}`)],
        creator: 'admin',
      }),
    ),
  );
  await ledger.close();
  await db.destroy();
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs the generated worker (server/ledger/generated/verifyWorker.mjs, plain JavaScript) on its own, as
 * verify.ts starts it (no loader flags), over `chunks` of `dataDir`; answers its results in order.
 */
async function runWorker(dataDir: string, chunks: Chunk[]): Promise<ChunkResult[]> {
  const w = new Worker(new URL('./generated/verifyWorker.mjs', import.meta.url), {
    workerData: { file: join(dataDir, 'baas.sqlite') },
    execArgv: [],
  });
  try {
    return await new Promise((resolve, reject) => {
      const results: ChunkResult[] = [];
      w.on('error', reject);
      w.on('exit', (code) => reject(new Error(`worker exited with ${code}`)));
      w.on('message', (m: { index?: number; result?: ChunkResult }) => {
        if (m.index !== undefined) results[m.index] = m.result!;
        if (results.length === chunks.length && !results.includes(undefined as never)) resolve(results);
        else if (m.index === undefined) chunks.forEach((chunk, index) => w.postMessage({ index, chunk }));
      });
    });
  } finally {
    await w.terminate();
  }
}

describe('chunked verification', { timeout: 120_000 }, () => {
  it('verifies the whole ledger, on the calling thread and with workers', async () => {
    const alone = await verifyDir(join(dir, 'base'));
    expect(alone).toMatchObject({ ok: true, blocks: BLOCKS + 1, transactions: BLOCKS * PER_BLOCK + 1 });
    expect(verifyWithWorkers(join(dir, 'base'), 2)).toEqual(alone);
  });

  it('the generated worker bundle runs without tsx and finds what verifyChunk finds, tampered or not', async () => {
    const chunks: Chunk[] = [
      { channelId: 1, channel: 'artchannel', from: 0, to: 5 },
      { channelId: 1, channel: 'artchannel', from: 6, to: 12 },
    ];
    const d = await tampered(
      'worker',
      `UPDATE ledger_tx SET creator = 'mallory' WHERE "blockNumber" = 9 AND "txIndex" = 3`,
    );
    for (const dataDir of [join(dir, 'base'), d]) {
      const file = new SQLite(join(dataDir, 'baas.sqlite'), { readonly: true });
      const read = sqliteChunkReader(file);
      const here = chunks.map((c) => verifyChunk(c, read(c)));
      file.close();
      expect(await runWorker(dataDir, chunks)).toEqual(here);
    }
    const [, second] = await runWorker(d, chunks);
    expect(second.failure).toMatchObject({ blockNumber: 9, field: 'leafHash', transactions: 3000 });
  });

  it("a chunk's first block with a forged previous hash is reported as the broken link", async () => {
    const d = await tampered(
      'prev',
      `UPDATE ledger_block SET "previousHash" = '${'ab'.repeat(32)}' WHERE number = 6`,
    );
    const r = await verifyDir(d);
    expect(r).toMatchObject({
      ok: false,
      blockNumber: 6,
      field: 'previousHash',
      blocks: 6,
      transactions: 5001,
    });
    expect(verifyWithWorkers(d, 2)).toEqual(r);
  });

  it('a missing chunk-first block is reported as the gap', async () => {
    const d = await tampered(
      'gap',
      'DELETE FROM ledger_tx WHERE "blockNumber" = 11; DELETE FROM ledger_block WHERE number = 11;',
    );
    expect(await verifyDir(d)).toMatchObject({ ok: false, blockNumber: 12, field: 'number', expected: '11' });
  });

  it('a changed payload in a later chunk names its transaction, counting what came before', async () => {
    const d = await tampered(
      'payload',
      `UPDATE ledger_tx SET args = '["x","1","y"]' WHERE "blockNumber" = 8 AND "txIndex" = 10`,
    );
    const r = await verifyDir(d);
    expect(r).toMatchObject({ ok: false, blockNumber: 8, field: 'leafHash', blocks: 8, transactions: 7001 });
    expect(verifyWithWorkers(d, 2)).toEqual(r);
  });
});

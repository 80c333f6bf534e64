/**
 * Ledger benchmark (printed, never asserted): `npx tsx bench/ledger.ts`, or through `npm run bench`
 * (bench/run.ts calls `run()`).
 *
 * 1. The ledger alone: 100,000 put-on-chain-shaped transactions submitted to the embedded ledger on a
 *    SQLite file (WAL, synchronous=FULL, as the server runs it), cut in blocks of 10 → 10,000 blocks;
 *    throughput in tx/s (submit → committed in a block).
 * 2. Verification time of that chain (100,000 transactions, every hash and link recomputed).
 * 3. Blocks-list latency over HTTP on that database (10,000+ blocks): GET /baas-api/blocks, random page
 *    of 20, p50/p99 (autocannon).
 * 4. Put-on-chain over HTTP (POST /artmanager/authors/blockChain, distinct authors, each answer after its
 *    block is committed): one call at a time, and concurrent, for two block-cutting settings.
 * The anchors (published figures of other systems, different hardware and with consensus and network)
 * are printed beside ours. Environment: BENCH_LEDGER_TX (default 100000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { connect } from '../server/db/connect';
import { migrateToLatest } from '../server/db/migrator';
import { createEmbeddedLedger } from '../server/ledger/embedded';
import { RECORD_CHANNEL } from '../server/ledger/records';
import { sha256Hex } from '../server/ledger/tx';
import { startServerProcess, type ServerProcess } from '../tests/support/serverProcess';
import { verifyLedger } from '../server/ledger/verify';

const PASSWORD = 'bench-ledger-password';

export const ANCHORS = [
  'Hyperledger Fabric 2.5: peak 2,947 tx/s on three 40-thread machines, with consensus and network (Hyperledger blog, 2023)',
  'FastFabric (Gorenflo et al., 2019): about 20,000 tx/s',
];

/** The real server on `dataDir` (tests/support/serverProcess.ts), signed in as admin. */
async function startServer(
  dataDir: string,
  env: Record<string, string>,
): Promise<{ server: ServerProcess; url: string; token: string }> {
  const server = await startServerProcess({
    dataDir,
    env: { ADMIN_PASSWORD: PASSWORD, USER_PASSWORD: PASSWORD, ...env },
  });
  const r = await fetch(`${server.url}/dev-api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });
  const token = ((await r.json()) as { data: { token: string } }).data.token;
  return { server, url: server.url, token };
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Puts `ids` on chain over HTTP with `concurrency` calls in flight; tx/s and latency percentiles (ms). */
async function putLoad(url: string, token: string, ids: number[], concurrency: number) {
  let next = 0;
  const lat: number[] = [];
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ids.length) {
        const id = ids[next++];
        const t0 = performance.now();
        const r = await fetch(`${url}/artmanager/authors/blockChain`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-token': token },
          body: JSON.stringify({ id }),
        });
        const body = (await r.json()) as { code: number; data?: { repeated: boolean } };
        if (r.status !== 200 || body.code !== 0 || body.data?.repeated) errors++;
        lat.push(performance.now() - t0);
      }
    }),
  );
  const secs = (performance.now() - started) / 1000;
  lat.sort((a, b) => a - b);
  return { tps: ids.length / secs, p50: pct(lat, 50), p99: pct(lat, 99), errors, n: ids.length };
}

async function insertAuthors(dataDir: string, n: number): Promise<number[]> {
  const { db } = connect({ dataDir });
  await migrateToLatest(db);
  const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
  const ids: number[] = [];
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < n; i += 500) {
      const rows = await trx
        .insertInto('authors')
        .values(
          Array.from({ length: Math.min(500, n - i) }, (_, j) => ({
            authorName: `Bench author ${i + j}`,
            introduction: null,
            portrait: null,
            chain: null,
            chainDigest: null,
            blockTime: null,
            createTime: now,
            updateTime: now,
            wxCode: null,
            wxUrl: null,
            wxCreateTime: null,
            sourceId: null,
          })),
        )
        .returning('id')
        .execute();
      ids.push(...rows.map((r) => r.id));
    }
  });
  await db.destroy();
  return ids;
}

/** Runs every part and prints the figures. `ctx.tmpDir` (from bench/run.ts) holds the scratch data. */
export async function run(ctx: { tmpDir?: string } = {}): Promise<void> {
  const scratch = mkdtempSync(join(ctx.tmpDir ?? tmpdir(), 'ledger-bench-'));
  const N = Number(process.env.BENCH_LEDGER_TX || 100_000);
  const lines: string[] = [];
  const out = (s: string) => {
    console.log(s);
    lines.push(s);
  };
  try {
    out(
      `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, SQLite (better-sqlite3) WAL synchronous=FULL`,
    );

    // 1. the ledger alone
    const dataDir = join(scratch, 'chain');
    const { db } = connect({ dataDir });
    await migrateToLatest(db);
    const ledger = createEmbeddedLedger(db, { batchSize: 10, batchTimeoutMs: 5 });
    await ledger.start();
    await ledger.ensureChannel(RECORD_CHANNEL);
    const WINDOW = 1000;
    const t0 = performance.now();
    for (let i = 0; i < N; i += WINDOW) {
      const batch = Array.from({ length: Math.min(WINDOW, N - i) }, (_, j) =>
        ledger.submitAndWait(
          {
            channel: RECORD_CHANNEL,
            chaincode: 'artregistry',
            function: 'putArtwork',
            args: [String(i + j + 1), '1', sha256Hex(`record ${i + j}`)],
            creator: 'admin',
          },
          { timeoutMs: 120_000 },
        ),
      );
      await Promise.all(batch);
    }
    const alone = N / ((performance.now() - t0) / 1000);
    const totals = await ledger.totals();
    await ledger.close();
    out(
      `ledger alone: ${N.toLocaleString('en')} tx committed in ${totals.blocks.toLocaleString('en')} blocks (batch size 10, ${WINDOW} in flight): ${alone.toFixed(0)} tx/s`,
    );

    // 2. verification
    const v0 = performance.now();
    const verified = await verifyLedger(db);
    const vms = performance.now() - v0;
    out(
      `verification: ${verified.ok ? verified.message : `BROKEN ${verified.message}`} in ${(vms / 1000).toFixed(2)} s (${(verified.transactions / (vms / 1000)).toFixed(0)} tx/s)`,
    );
    await db.destroy();

    // 3. blocks-list latency over HTTP, 10,000+ blocks
    {
      const { server, url, token } = await startServer(dataDir, {});
      try {
        const pages = Math.ceil(totals.blocks / 20);
        const r = await autocannon({
          url,
          connections: 10,
          duration: 8,
          requests: [
            {
              method: 'GET',
              headers: { 'x-token': token },
              setupRequest: (req) => ({
                ...req,
                path: `/baas-api/blocks?channelId=1&page=${1 + Math.floor(Math.random() * pages)}&pageSize=20`,
              }),
            },
          ],
        });
        out(
          `blocks list (${totals.blocks.toLocaleString('en')} blocks, random page of 20, 10 connections, 8 s): ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx + r.errors}`,
        );
      } finally {
        await server.stop();
      }
    }

    // 4. put on chain over HTTP
    for (const setting of [
      {
        label: 'batch size 100, batch timeout 0 ms',
        env: { LEDGER_BATCH_SIZE: '100', LEDGER_BATCH_TIMEOUT_MS: '0' },
        seq: 300,
      },
      { label: 'default: batch size 10, batch timeout 200 ms', env: {}, seq: 25 },
    ]) {
      const dir = join(scratch, `http-${setting.seq}`);
      const ids = await insertAuthors(dir, setting.seq + 3000);
      const { server, url, token } = await startServer(dir, setting.env as Record<string, string>);
      try {
        const one = await putLoad(url, token, ids.slice(0, setting.seq), 1);
        const many = await putLoad(url, token, ids.slice(setting.seq), 64);
        out(
          `put on chain over HTTP (${setting.label}): one at a time ${one.tps.toFixed(0)} tx/s (p50 ${one.p50.toFixed(1)} ms, ${one.n} calls); 64 concurrent ${many.tps.toFixed(0)} tx/s (p50 ${many.p50.toFixed(1)} ms, p99 ${many.p99.toFixed(1)} ms, ${many.n} calls), errors ${one.errors + many.errors}`,
        );
      } finally {
        await server.stop();
      }
    }
    out('anchors (not comparable setups, printed for scale):');
    for (const a of ANCHORS) out(`  - ${a}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  run().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}

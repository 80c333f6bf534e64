/**
 * One instance against three on one PostgreSQL (issue 10 item 5), beside one instance on SQLite with the
 * same data (issue 20 item 6), printed, never asserted: `npm run bench:pg` (this section alone), or
 * through `npm run bench` (bench/run.ts calls `run()`).
 *
 * Needs a PostgreSQL role allowed to create databases: `BENCH_DATABASE_URL`, else `TEST_DATABASE_URL`
 * (`bash scripts/postgres-test-db.sh --durable` prints one, a cluster with PostgreSQL's default durability; this bench itself needs no root). Without either it
 * prints how to enable it and returns. It creates a scratch database, imports the Tate data into it
 * (the full file when present, else the shipped sample), starts three server processes on it
 * (scripts/multi-instance.sh does the same by hand), and loads:
 * - list (`searchArtworkList` page 1 of 20), search (a rotating word) and detail (a random artwork), with
 *   autocannon: against one SQLite instance (the same files imported into a SQLite DATA_DIR), one
 *   PostgreSQL instance with C connections, and the three with C/3 each at the same time (the bench
 *   client spreads the load; no proxy needed); each after a 2 s warm-up;
 * - put on chain (`POST /artmanager/authors/blockChain`, distinct authors, 64 concurrent callers, batch
 *   size 100): all to one instance, then spread over the three (two of them follow the elected orderer).
 * - search again with few connections (BENCH_LIGHT_CONNECTIONS, default 4; 0 skips it): the latency of a
 *   search when the server is not saturated (with 30 connections p99 is mostly queueing).
 * Environment: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 30), BENCH_MULTI_PUTS (calls
 * per put-on-chain run, default 6000; 0 skips put on chain).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type RequestSpec } from 'autocannon';
import { connect, isPostgresUrl } from '../server/db/connect';
import { migrateToLatest } from '../server/db/migrator';
import { importTate } from '../server/import/importer';
import { SEED_FILES } from '../server/import/seed';
import { startServerProcess, type ServerProcess } from '../tests/support/serverProcess';
import { SERVER_BUNDLE, SERVER_ENV } from '../scripts/build-server';
import { ensureBuilt } from '../scripts/build';
import { ourCalls } from './apiTable';
import { adminToken, insertBenchAuthors, runIfMain } from './benchServer';
import { databaseUrl, runPgStatement as admin } from '../tests/support/pgAdmin';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PASSWORD = 'bench-multi-password';
const WORDS = ['sunset', 'bridge', 'river', 'portrait', 'venice', 'head', 'study', 'sea', 'church', 'tree'];

/** The Tate files: TATE_DIR's full data when present, else the shipped sample. */
function tateFiles(): { artistsFile: string; artworksFile: string; label: string } {
  const dir = resolve(process.env.TATE_DIR || join(root, '../shared/data/tate'));
  const full = { artistsFile: join(dir, 'artists.json.gz'), artworksFile: join(dir, 'artworks.json.gz') };
  if (existsSync(full.artistsFile) && existsSync(full.artworksFile))
    return { ...full, label: 'full Tate file' };
  return { artistsFile: SEED_FILES.artists, artworksFile: SEED_FILES.artworks, label: 'shipped Tate sample' };
}

/** Runs autocannon against each of `urls` at once (`connections` split evenly); summed req/s, worst p99. */
async function spread(urls: string[], request: RequestSpec, connections: number, duration: number) {
  const each = (seconds: number) =>
    Promise.all(
      urls.map((url) =>
        autocannon({
          url,
          connections: Math.max(1, Math.round(connections / urls.length)),
          duration: seconds,
          requests: [request],
        }),
      ),
    );
  await each(2); // warm-up: statement plans, caches, list totals
  const runs = await each(duration);
  return {
    rps: runs.reduce((n, r) => n + r.requests.average, 0),
    p99: Math.max(...runs.map((r) => r.latency.p99)),
    bad: runs.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0),
  };
}

/** Puts `ids` on chain with `concurrency` callers, caller k calling `urls[k % urls.length]`. */
async function puts(urls: string[], token: string, ids: number[], concurrency: number) {
  let next = 0;
  let errors = 0;
  const lat: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, k) => {
      const url = urls[k % urls.length];
      while (next < ids.length) {
        const id = ids[next++];
        const s = performance.now();
        const r = await fetch(`${url}/artmanager/authors/blockChain`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-token': token },
          body: JSON.stringify({ id }),
        });
        const body = (await r.json()) as { code: number; data?: { repeated: boolean } };
        if (r.status !== 200 || body.code !== 0 || body.data?.repeated) errors++;
        lat.push(performance.now() - s);
      }
    }),
  );
  lat.sort((a, b) => a - b);
  return {
    tps: ids.length / ((performance.now() - t0) / 1000),
    p99: lat[Math.min(lat.length - 1, Math.floor(lat.length * 0.99))],
    errors,
  };
}

/** Runs the comparison and prints the table. `ctx.tmpDir` (from bench/run.ts) holds the scratch data. */
export async function run(ctx: { tmpDir?: string } = {}): Promise<void> {
  const adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!isPostgresUrl(adminUrl)) {
    console.log(
      'skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL role allowed to create databases, e.g. BENCH_DATABASE_URL=$(bash scripts/postgres-test-db.sh --durable)',
    );
    return;
  }
  const duration = Number(process.env.BENCH_DURATION || 10);
  const connections = Number(process.env.BENCH_CONNECTIONS || 30);
  const nPuts = Number(process.env.BENCH_MULTI_PUTS || 6000);
  const name = `baas_bench_${randomBytes(5).toString('hex')}`;
  const dbUrl = databaseUrl(adminUrl, name);
  const scratch = mkdtempSync(join(ctx.tmpDir ?? tmpdir(), 'multi-bench-'));
  const servers: ServerProcess[] = [];
  await admin(adminUrl, `CREATE DATABASE ${name}`);
  try {
    const files = tateFiles();
    const { db } = connect({ dataDir: scratch, databaseUrl: dbUrl });
    await migrateToLatest(db);
    const t0 = performance.now();
    const summary = await importTate(db, {
      artistsFile: files.artistsFile,
      artworksFile: files.artworksFile,
    });
    const pgSeconds = (performance.now() - t0) / 1000;
    const artworkIds = (await db.selectFrom('artworks').select('id').limit(5000).execute()).map((r) => r.id);
    const ids = nPuts > 0 ? await insertBenchAuthors(db, 2 * nPuts, 1000) : [];
    await db.destroy();
    console.log(
      `PostgreSQL database ${name}: ${files.label} imported (${summary.artworks.read} artworks) in ${pgSeconds.toFixed(1)} s, plus ${ids.length} authors to put on chain`,
    );
    // The same files into a SQLite DATA_DIR, for the SQLite column.
    const sqliteDir = join(scratch, 'sqlite');
    mkdirSync(sqliteDir);
    await ensureBuilt({ serverOnly: true });
    // As `npm run import` does it (the bundled command: its writer and worker threads).
    const { DATABASE_URL: _url, ...importEnv } = process.env;
    execFileSync(
      process.execPath,
      [join(root, 'server/dist/import.mjs'), files.artworksFile, '--artists', files.artistsFile],
      { cwd: root, env: { ...importEnv, DATA_DIR: sqliteDir }, stdio: ['ignore', 'ignore', 'inherit'] },
    );

    // As `npm start` runs it: the production bundle, with its environment.
    await ensureBuilt({ serverOnly: true });
    const env = {
      ...SERVER_ENV,
      DATABASE_URL: dbUrl,
      ADMIN_PASSWORD: PASSWORD,
      USER_PASSWORD: PASSWORD,
      LEDGER_BATCH_SIZE: '100',
      LEDGER_BATCH_TIMEOUT_MS: '0',
      LOGIN_RATE_LIMIT: '1000',
    };
    for (let i = 0; i < 3; i++)
      servers.push(
        await startServerProcess({
          dataDir: join(scratch, `i${i}`),
          env,
          entry: SERVER_BUNDLE,
        }),
      );
    const { DATABASE_URL: _pg, ...liteEnv } = env;
    const sqliteServer = await startServerProcess({ dataDir: sqliteDir, env: liteEnv, entry: SERVER_BUNDLE });
    servers.push(sqliteServer);
    const urls = servers.slice(0, 3).map((s) => s.url);
    const token = await adminToken(urls[0], PASSWORD, 'server', 10);
    const liteToken = await adminToken(sqliteServer.url, PASSWORD, 'SQLite server', 10);
    const calls = ourCalls(token, WORDS, artworkIds);
    const liteCalls = ourCalls(liteToken, WORDS, artworkIds);
    const rows: string[][] = [];
    const figure = (r: { rps: number; p99: number }) => `${r.rps.toFixed(0)} req/s, p99 ${r.p99} ms`;
    /** One row: `call` with `conns` connections on SQLite, on one PostgreSQL instance and spread over three. */
    const compare = async (call: string, conns: number) => {
      const lite1 = await spread([sqliteServer.url], liteCalls[call], conns, duration);
      const one = await spread(urls.slice(0, 1), calls[call], conns, duration);
      const three = await spread(urls, calls[call], conns, duration);
      rows.push([
        `${call} (${conns} connections, ${duration} s)`,
        figure(lite1),
        figure(one),
        figure(three),
        `${Math.round((100 * one.rps) / lite1.rps)}%`,
        `${(three.rps / one.rps).toFixed(2)}×`,
        String(lite1.bad + one.bad + three.bad),
      ]);
    };
    for (const call of ['list', 'search', 'detail']) await compare(call, connections);
    // Latency under a light load: with 30 connections as fast as the server answers, p99 is mostly
    // queueing (about twice connections / req/s, Little's law). autocannon's overallRate sends each
    // second's requests in one burst, so a fixed offered rate measured the burst, not the search.
    // (spread() gives each of the three instances at least one connection.)
    const light = Number(process.env.BENCH_LIGHT_CONNECTIONS ?? 4);
    if (light > 0) await compare('search', light);
    if (nPuts > 0) {
      const oneP = await puts(urls.slice(0, 1), token, ids.slice(0, nPuts), 64);
      const threeP = await puts(urls, token, ids.slice(nPuts), 64);
      rows.push([
        `put on chain (64 callers, batch 100, ${nPuts} calls)`,
        '—',
        `${oneP.tps.toFixed(0)} tx/s, p99 ${oneP.p99.toFixed(0)} ms`,
        `${threeP.tps.toFixed(0)} tx/s, p99 ${threeP.p99.toFixed(0)} ms`,
        '—',
        `${(threeP.tps / oneP.tps).toFixed(2)}×`,
        String(oneP.errors + threeP.errors),
      ]);
    }
    const head = [
      'call',
      'SQLite, one',
      'PostgreSQL, one',
      'PostgreSQL, three',
      'PG one / SQLite',
      'three / one',
      'errors',
    ];
    const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)) + 2);
    console.log(head.map((h, i) => h.padEnd(w[i])).join(''));
    for (const r of rows) console.log(r.map((c, i) => c.padEnd(w[i])).join(''));
    console.log(
      '(three instances: the bench client sends a third of the connections / callers to each; one PostgreSQL; ' +
        'the elected orderer cuts every block. On a 2-core machine the three processes share the same two cores.' +
        ' SQLite: one instance on the same files imported into its own DATA_DIR.)',
    );
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, run);

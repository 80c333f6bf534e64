/**
 * `npm run bench`: the registry's speed on the full Tate collection, printed (never asserted).
 *
 * 1. Builds the server bundle (scripts/build-server.ts), then imports the full Tate file (69,202 artworks,
 *    3,538 artists; gzipped JSON from the team data folder) into a fresh SQLite database in a temp
 *    DATA_DIR with the bundled `npm run import` command, in its own process, and prints the import time,
 *    its CPU time and the counts.
 * 2. Exports the stored artworks (in the API's record shape, with authorName) and authors to a JSON file.
 * 3. Starts, on loopback and free ports, the real server as `npm start` runs it (`node
 *    server/dist/server.mjs`, DATA_DIR pointed at the temp dir) and json-server 0.17 serving that JSON file (read-only), i.e. the same records.
 * 4. Loads each with autocannon (bounded: BENCH_DURATION s per case after a 2 s warm-up,
 *    BENCH_CONNECTIONS connections) on three calls: list (page 1 of 20), free-text search (rotating
 *    words, 20 per page) and detail (random ids), and prints requests/s, p50 and p99 latency side by side.
 *    The floor (bench/floor.ts: bare node:http + better-sqlite3 on the same file) answers the same three
 *    calls in the same run; a last table gives ours, floor, json-server, ours/floor and ours/json-server,
 *    and the CPU time each server spent per answered request (/proc/<pid>/stat, every thread): on a
 *    shared machine, where req/s follow the other loads, that ratio is the steadier one.
 * 5. Calls `run(context)` of bench/ledger.ts when that module exists (the ledger's own benchmark).
 * 6. bench/multiInstance.ts: list, search, detail and put on chain against one and three server processes
 *    on one PostgreSQL, beside one SQLite instance on the same data (needs BENCH_DATABASE_URL or
 *    TEST_DATABASE_URL; BENCH_MULTI=0 skips it; `npm run bench:pg` runs this section alone).
 *
 * With `BENCH_BASELINE=<git revision>` (e.g. the commit before a refactoring), the same run also checks
 * that revision out (`git worktree add --detach` in the temp dir, sharing this node_modules), imports the
 * same file with its own `scripts/import.ts` into its own DATA_DIR, starts its server, and loads it with
 * the same calls, so the figures of both versions come side by side from one run on one machine (req/s,
 * latency and CPU time per request of each).
 *
 * `npm run bench -- --scale 10` runs the scale bench instead (bench/scale.ts: 1×, 3× and 10× the data).
 *
 * Environment: TATE_DIR (default ../shared/data/tate from the repo root), BENCH_DURATION (seconds,
 * default 10), BENCH_CONNECTIONS (default 20), BENCH_IMPORT_RUNS (default 3), BENCH_KEEP=1 to keep the temp dir, BENCH_BASELINE (above), BENCH_LEDGER=0 to skip step 5.
 * Calls compared (ours → json-server):
 *   list:   POST /artmanager/artwork/searchArtworkList {page:1,pageSize:20} → GET /artworks?_page=1&_limit=20
 *   search: same with {q}                                                 → GET /artworks?q=…&_page=1&_limit=20
 *   detail: GET /artmanager/artwork/ArtInfoByArtId?artId=N                 → GET /artworks/N
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  createWriteStream,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon, { type RequestSpec } from 'autocannon';
import { connect } from '../server/db/connect';
import { parseJson } from '../server/db/database';
import { resourceModels } from '../kernel/server/model';
import { summaryLine, type ImportSummary } from '../server/import/importer';
import { SERVER_BUNDLE, SERVER_ENV } from '../scripts/build-server';
import { ensureBuilt } from '../scripts/build';
import { FLOOR, floorCalls, loadRow, ourCalls, printApiTable, type LoadRow } from './apiTable';
import { adminToken, benchServerEnv, waitFor, tateFiles } from './benchServer';
import { freePort } from '../tests/support/serverProcess';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tateDir = resolve(process.env.TATE_DIR || join(root, '../shared/data/tate'));
const duration = Number(process.env.BENCH_DURATION || 10);
const connections = Number(process.env.BENCH_CONNECTIONS || 20);
const SEARCH_WORDS = [
  'sunset',
  'bridge',
  'river',
  'portrait',
  'venice',
  'head',
  'study',
  'sea',
  'church',
  'tree',
];

const children: ChildProcess[] = [];
/** Git worktrees made for BENCH_BASELINE, removed at the end. */
const worktrees: string[] = [];

function start(
  name: string,
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
  cwd = root,
): ChildProcess {
  const log = createWriteStream(logFile);
  const child = spawn(cmd, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  child.once('exit', (code) => {
    if (code) console.error(`${name} exited with ${code}; see ${logFile}`);
  });
  children.push(child);
  return child;
}

function stopAll(): void {
  for (const c of children)
    if (c.pid && c.exitCode === null)
      try {
        process.kill(-c.pid, 'SIGTERM'); // the process group we created (detached)
      } catch {
        /* already gone */
      }
}

type Row = LoadRow;

/** CPU time (user + system, every thread) a process has used, in ms, from /proc/<pid>/stat; NaN when unreadable. */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
/** USER_HZ of /proc/<pid>/stat times (100 on Linux). */
const CLOCK_TICKS = 100;

async function load(url: string, request: RequestSpec, seconds: number) {
  return autocannon({ url, connections, duration: seconds, requests: [request], timeout: 30 });
}

/**
 * Waits until `probeUrl` answers twice in a row within 250 ms: a server still working through requests
 * queued by the previous run (json-server's search takes about a second each) must not slow the next.
 */
async function drain(probeUrl: string, headers: Record<string, string>): Promise<void> {
  let quick = 0;
  const until = Date.now() + 180_000;
  while (quick < 2 && Date.now() < until) {
    const t0 = performance.now();
    await fetch(probeUrl, { headers }).then((r) => r.arrayBuffer());
    quick = performance.now() - t0 < 250 ? quick + 1 : 0;
  }
}

async function main(): Promise<void> {
  const { artworksFile, artistsFile } = tateFiles(tateDir);
  const tmp = mkdtempSync(join(tmpdir(), 'baas-bench-'));
  const dataDir = join(tmp, 'data');
  console.log(
    `bench: node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; temp dir ${tmp}`,
  );

  try {
    // 1. import, as `npm run import` runs it: the bundled command (scripts/build-server.ts) in its own
    // process, so the figures include its worker's start and nothing of this process's loader.
    await ensureBuilt({ serverOnly: true });
    /** One run of the bundled import into `dir`; its summary and CPU time. */
    const importInto = (dir: string, run: number) => {
      const summaryFile = join(tmp, `import-summary-${run}.json`);
      execFileSync(
        process.execPath,
        [
          join(root, 'server/dist/import.mjs'),
          artworksFile,
          '--artists',
          artistsFile,
          '--report',
          join(tmp, `import-report-${run}.jsonl`),
          '--summary',
          summaryFile,
        ],
        { cwd: root, env: { ...process.env, DATA_DIR: dir }, stdio: ['ignore', 'ignore', 'inherit'] },
      );
      return JSON.parse(readFileSync(summaryFile, 'utf8')) as ImportSummary & { cpuSeconds: number };
    };
    // The first run fills the data the load below uses; the others go to throw-away folders. On a shared
    // machine one run's wall time varies by a second or more, so each is printed with the median.
    const runs = Math.max(1, Number(process.env.BENCH_IMPORT_RUNS ?? 3));
    const summaries = [importInto(dataDir, 1)];
    for (let i = 2; i <= runs; i++) {
      const dir = join(tmp, `import-${i}`);
      summaries.push(importInto(dir, i));
      rmSync(dir, { recursive: true, force: true });
    }
    const summary = summaries[0];
    const rowsRead = summary.artworks.read + summary.artists.read;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
    const { db } = connect({ dataDir });
    console.log(`\nimport of the full Tate file (${artworksFile}), \`npm run import\`, ${runs} runs:`);
    console.log(`  artists:  ${summaryLine(summary.artists)} (of ${summary.artists.read})`);
    console.log(`  artworks: ${summaryLine(summary.artworks)} (of ${summary.artworks.read})`);
    const seconds = summaries.map((s) => s.seconds);
    console.log(
      `  import time: median ${median(seconds).toFixed(1)} s (${Math.round(rowsRead / median(seconds))} rows/s, artists and artworks read); runs ${seconds.map((x) => x.toFixed(1)).join(', ')} s`,
    );
    // On a shared machine the wall time follows the other loads; the CPU time (every thread) does less.
    const cpuSeconds = summaries.map((s) => s.cpuSeconds);
    console.log(
      `  import CPU time: median ${median(cpuSeconds).toFixed(1)} s (user and system, the whole command: writer and worker threads); runs ${cpuSeconds.map((x) => x.toFixed(1)).join(', ')} s`,
    );

    // 2. export the same records for json-server
    const artworks = (
      await db
        .selectFrom('artworks')
        .leftJoin('authors', 'authors.id', 'artworks.author')
        .selectAll('artworks')
        .select('authors.authorName')
        .orderBy('artworks.id')
        .execute()
    ).map((r) => {
      const rec: Record<string, unknown> = { ...r };
      delete rec.chainDigest;
      delete rec.chainVersion;
      delete rec.updateTime;
      delete rec.sourceDigest;
      // The JSON columns, by the artwork schema's storage model, with their empty value ('[]' or '{}').
      for (const [c, empty] of Object.entries(resourceModels().get('artworks')!.json))
        rec[c] = parseJson(rec[c] as string | null, JSON.parse(empty ?? 'null') as unknown);
      return rec;
    });
    const authors = await db.selectFrom('authors').selectAll().orderBy('id').execute();
    await db.destroy();
    const jsonFile = join(tmp, 'db.json');
    writeFileSync(jsonFile, JSON.stringify({ artworks, authors }));
    const ids = artworks.map((a) => a.id as number);
    console.log(
      `  exported ${artworks.length} artworks and ${authors.length} authors to ${jsonFile} for json-server`,
    );

    // 3. start both servers (and the baseline revision's, when asked)
    const [ourPort, jsPort, floorPort] = [await freePort(), await freePort(), await freePort()];
    const password = randomBytes(12).toString('hex');
    const baselineRev = process.env.BENCH_BASELINE;
    let baseline: string | undefined;
    /** The baseline server's process, for its CPU time per request. */
    let baselinePid: number | undefined;
    if (baselineRev) {
      const dir = join(tmp, 'baseline');
      execFileSync('git', ['worktree', 'add', '--detach', '--quiet', dir, baselineRev], { cwd: root });
      worktrees.push(dir);
      symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
      const rev = execFileSync('git', ['rev-parse', '--short', baselineRev], { cwd: root }).toString().trim();
      const baseData = join(tmp, 'baseline-data');
      const t0 = performance.now();
      execFileSync(
        'npx',
        [
          'tsx',
          'scripts/import.ts',
          artworksFile,
          '--artists',
          artistsFile,
          '--report',
          join(tmp, 'baseline-report.jsonl'),
        ],
        { cwd: dir, env: { ...process.env, DATA_DIR: baseData }, stdio: ['ignore', 'ignore', 'inherit'] },
      );
      console.log(
        `  baseline ${baselineRev} (${rev}): imported into its own DATA_DIR in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
      const port = await freePort();
      baselinePid = start(
        'baseline server',
        process.execPath,
        ['--import', 'tsx', 'server/server.ts'],
        benchServerEnv(baseData, port, password),
        join(tmp, 'baseline-server.log'),
        dir,
      ).pid;
      baseline = `http://127.0.0.1:${port}`;
    }
    const server = start(
      'server',
      process.execPath,
      [SERVER_BUNDLE],
      { ...benchServerEnv(dataDir, ourPort, password), ...SERVER_ENV },
      join(tmp, 'server.log'),
    );
    const jsonServer = start(
      'json-server',
      join(root, 'node_modules/.bin/json-server'),
      [jsonFile, '--port', String(jsPort), '--host', '127.0.0.1', '--read-only', '--quiet'],
      process.env,
      join(tmp, 'json-server.log'),
    );
    const floorProcess = start(
      'floor',
      process.execPath,
      ['--import', 'tsx', 'bench/floor.ts', join(dataDir, 'baas.sqlite'), String(floorPort)],
      process.env,
      join(tmp, 'floor.log'),
    );
    const floor = `http://127.0.0.1:${floorPort}`;
    const ours = `http://127.0.0.1:${ourPort}`;
    const theirs = `http://127.0.0.1:${jsPort}`;
    const login = (base: string, what: string) => adminToken(base, password, what, 120);
    const token = await login(ours, 'server');
    const baseToken = baseline ? await login(baseline, 'baseline server') : '';
    await waitFor('json-server', async () => (await fetch(`${theirs}/artworks/${ids[0]}`)).ok, 120);
    await waitFor('floor', async () => (await fetch(`${floor}/detail?artId=${ids[0]}`)).ok, 120);

    // 4. load
    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
    /** Our three calls, signed with `tok` (the same calls for this version and the baseline). */
    const calls = (tok: string) => ourCalls(tok, SEARCH_WORDS, ids);
    const theirCalls: Record<string, RequestSpec> = {
      list: { method: 'GET', path: '/artworks?_page=1&_limit=20' },
      search: {
        method: 'GET',
        setupRequest: (req) => ({ ...req, path: `/artworks?q=${pick(SEARCH_WORDS)}&_page=1&_limit=20` }),
      },
      detail: { method: 'GET', setupRequest: (req) => ({ ...req, path: `/artworks/${pick(ids)}` }) },
    };
    const targets: {
      name: string;
      url: string;
      calls: Record<string, RequestSpec>;
      token?: string;
      pid?: number;
    }[] = [
      { name: 'baas-admin server', url: ours, calls: calls(token), token, pid: server.pid },
      ...(baseline
        ? [
            {
              name: `baseline ${baselineRev}`.slice(0, 19),
              url: baseline,
              calls: calls(baseToken),
              token: baseToken,
              pid: baselinePid,
            },
          ]
        : []),
      { name: FLOOR, url: floor, calls: floorCalls(SEARCH_WORDS, ids), pid: floorProcess.pid },
      { name: 'json-server 0.17', url: theirs, calls: theirCalls, pid: jsonServer.pid },
    ];

    // One checked call per case and target before loading, so the figures are of correct answers.
    for (const name of ['list', 'search', 'detail'])
      for (const t of targets) {
        const spec = t.calls[name];
        const o = spec.setupRequest ? spec.setupRequest({ ...spec }, {}) : spec;
        const res = await fetch(t.url + o.path, { method: o.method, headers: o.headers, body: o.body });
        const body = (await res.json()) as { code?: number };
        if (!res.ok || (t.token && body.code !== 0))
          throw new Error(`${t.name} ${name}: HTTP ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      }

    console.log(
      `\nload: autocannon, ${connections} connections, ${duration} s per case after a 2 s warm-up, loopback`,
    );
    const rows: Row[] = [];
    const probe = (t: (typeof targets)[number]): [string, Record<string, string>] =>
      t.token
        ? [`${t.url}/artmanager/artwork/ArtInfoByArtId?artId=${ids[0]}`, { 'X-Token': t.token }]
        : t.url === floor
          ? [`${floor}/detail?artId=${ids[0]}`, {}]
          : [`${t.url}/artworks/${ids[0]}`, {}];
    for (const name of ['list', 'search', 'detail'])
      for (const t of targets) {
        const req = t.calls[name];
        await load(t.url, req, 2);
        await drain(...probe(t));
        const cpu0 = t.pid ? cpuMs(t.pid) : NaN;
        const r = await load(t.url, req, duration);
        const cpu = t.pid ? cpuMs(t.pid) - cpu0 : NaN;
        await drain(...probe(t));
        rows.push(loadRow(name, t.name, r, (cpu * 1000) / Math.max(r.requests.total, 1)));
        process.stdout.write(`  ${name} / ${t.name}: ${Math.round(r.requests.average)} req/s\n`);
      }

    const pad = (s: string, n: number) => s.padEnd(n);
    const lpad = (s: string, n: number) => s.padStart(n);
    console.log(
      `\n${pad('call', 8)}${pad('target', 20)}${lpad('req/s', 9)}${lpad('p50 ms', 9)}${lpad('p99 ms', 9)}${lpad('answered', 10)}${lpad('errors', 8)}${lpad('CPU µs/req', 12)}`,
    );
    for (const r of rows)
      console.log(
        `${pad(r.case, 8)}${pad(r.target, 20)}${lpad(r.rps.toFixed(0), 9)}${lpad(String(r.p50), 9)}${lpad(String(r.p99), 9)}${lpad(String(r.ok), 10)}${lpad(String(r.bad), 8)}${lpad(Number.isFinite(r.cpuUs) ? String(Math.round(r.cpuUs!)) : '—', 12)}`,
      );
    console.log(
      `\n(answered: 2xx responses within the ${duration} s; errors: non-2xx, socket errors and timeouts)` +
        '\n(our search: substring over name, texture, category, owner and author name through the FTS5 trigram' +
        ' index (LIKE under 3 characters), with a total count;' +
        ' json-server q: substring over every field of every record)',
    );
    printApiTable(rows, 'baas-admin server', 'json-server 0.17');

    // 5. the ledger helper's benchmark, when present
    const ledgerBench = join(root, 'bench/ledger.ts');
    if (existsSync(ledgerBench) && process.env.BENCH_LEDGER !== '0') {
      const mod = (await import(pathToFileURL(ledgerBench).href)) as {
        run?: (ctx: { dataDir: string; baseUrl: string; token: string; tmpDir: string }) => Promise<unknown>;
      };
      if (typeof mod.run === 'function') {
        console.log('\nledger benchmark (bench/ledger.ts):');
        await mod.run({ dataDir, baseUrl: ours, token, tmpDir: tmp });
      }
    }

    // 6. one instance against three on PostgreSQL (bench/multiInstance.ts)
    if (process.env.BENCH_MULTI !== '0') {
      console.log('\none instance against three on PostgreSQL (bench/multiInstance.ts):');
      await (await import('./multiInstance')).run({ tmpDir: tmp });
    }
    // 7. the console's first load in Chromium (bench/firstLoad.ts; BENCH_FIRST_LOAD=0 skips it)
    if (process.env.BENCH_FIRST_LOAD !== '0') await (await import('./firstLoad')).run();
  } finally {
    stopAll();
    for (const w of worktrees)
      try {
        execFileSync('git', ['worktree', 'remove', '--force', w], { cwd: root, stdio: 'ignore' });
      } catch {
        /* removed with the temp dir below; `git worktree prune` forgets it */
      }
    if (process.env.BENCH_KEEP === '1') console.log(`kept ${tmp}`);
    else {
      await new Promise((r) => setTimeout(r, 500));
      rmSync(tmp, { recursive: true, force: true });
    }
  }
}

process.once('SIGINT', () => {
  stopAll();
  process.exit(130);
});

// `npm run bench -- --scale N`: the scale bench instead (bench/scale.ts); `npm run bench -- --ledger`:
// the ledger's section alone (bench/ledger.ts; BENCH_LEDGER_PARTS chooses its parts); `--transfer`:
// export and import (bench/transfer.ts); `--conflicts`: many operators editing the same records
// (bench/conflicts.ts); `--evolution`: the eight artwork schema edits on the full Tate import
// (bench/evolution.ts).
(process.argv.includes('--scale')
  ? import('./scale').then((m) => m.main(process.argv))
  : process.argv.includes('--ledger')
    ? import('./ledger').then((m) => m.run())
    : process.argv.includes('--transfer')
      ? import('./transfer').then((m) => m.main())
      : process.argv.includes('--conflicts')
        ? import('./conflicts').then((m) => m.main())
        : process.argv.includes('--evolution')
          ? import('./evolution').then((m) => m.main())
          : main()
).then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    stopAll();
    process.exit(1);
  },
);

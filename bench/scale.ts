/**
 * `npm run bench -- --scale 10`: the API at 1×, 3× and 10× the Tate data (51,840 → 155,520 → 518,400
 * artworks), printed (never asserted).
 *
 * 1. Imports the full Tate file into a fresh SQLite database (temp DATA_DIR) with `importTate`, as the
 *    bench does: 1× = the 51,840 artworks the registry accepts.
 * 2. For each larger scale, synthesises Tate-format rows from the stored ones ({@link synthesise}: the
 *    same source row with a new accession number and Tate id, and a varied title made of its own words
 *    and another record's, within the 60-wide limit; the real author, medium, sizes and images) into a
 *    JSON file, and imports that file through the same pipeline (same validation and report), printing
 *    rows/s.
 * 3. At each scale, starts the server as `npm start` does (`node server/dist/server.mjs`, the bundle
 *    scripts/build-server.ts makes, built first) and the floor
 *    (bench/floor.ts) on the database and loads list, search and detail with autocannon
 *    (BENCH_CONNECTIONS, default 20; BENCH_DURATION s, default 10, after a 2 s warm-up), reading the
 *    server's peak RSS (VmHWM of /proc/<pid>/status) after the load.
 * 4. Prints, per call, req/s, p99 and the peak RSS at each scale, and the change from 1×.
 *
 * The largest scale is the `--scale` argument (default 10); the steps are 1, 3 and that (e.g. `--scale 3`:
 * 1 and 3). Environment: TATE_DIR, BENCH_DURATION, BENCH_CONNECTIONS, BENCH_KEEP=1 (keep the temp dir).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { displayWidth } from '../common/displayWidth';
import { importTate, summaryLine, type ImportSummary } from '../server/import/importer';
import { readRows } from '../server/import/readRows';
import tateArtworkSchema from '../schemas/import/tateArtwork.schema.json' with { type: 'json' };
import { SERVER_BUNDLE, SERVER_ENV } from '../scripts/build-server';
import { freePort, loaderArgs } from '../tests/support/serverProcess';
import { FLOOR, floorCalls, loadRow, ourCalls, type LoadRow } from './apiTable';
import { adminToken, benchServerEnv, importedTateDb, waitFor, tateFiles } from './benchServer';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tateDir = resolve(process.env.TATE_DIR || join(root, '../shared/data/tate'));
const duration = Number(process.env.BENCH_DURATION || 10);
const connections = Number(process.env.BENCH_CONNECTIONS || 20);
const WORDS = ['sunset', 'bridge', 'river', 'portrait', 'venice', 'head', 'study', 'sea', 'church', 'tree'];
const JOINERS = ['after', 'with', 'and', 'study for', 'near', 'from', 'by', 'under', 'beyond'];
const SOURCE_KEYS = Object.keys(tateArtworkSchema.properties);
const children: ChildProcess[] = [];

type Row = Record<string, unknown>;

/** A title of at most 60 wide: words of `own`, a joiner, words of `other` (dropping words from the end). */
export function variedTitle(own: string, other: string, k: number): string {
  const a = own.split(/\s+/).filter(Boolean).slice(0, 4);
  const b = other.split(/\s+/).filter(Boolean).slice(-3);
  let words = [...a, JOINERS[k % JOINERS.length], ...b];
  while (words.length > 1 && displayWidth(words.join(' ')) > 60) words = words.slice(0, -1);
  const title = words.join(' ');
  return displayWidth(title) <= 60 ? title : own;
}

/**
 * Writes, as a JSON array one row per line, copies `from`..`to` (1-based copy numbers) of every source
 * row in `rows`: copy k of row i gets acno `Z<letter k><i, 5 digits>`, Tate id `k·10⁷ + id` and a varied
 * title. @returns the number of rows written
 */
async function synthesise(rows: Row[], from: number, to: number, file: string): Promise<number> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('[\n');
  let n = 0;
  for (let k = from; k <= to; k++)
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const other = rows[(i * 7919 + k * 104729) % rows.length];
      const copy = {
        ...row,
        id: k * 10_000_000 + (row.id as number),
        acno: `Z${String.fromCharCode(64 + k)}${String(i).padStart(5, '0')}`,
        title: variedTitle(String(row.title), String(other.title), k),
      };
      await write(`${n ? ',\n' : ''}${JSON.stringify(copy)}`);
      n++;
    }
  await write('\n]\n');
  out.end();
  await once(out, 'finish');
  return n;
}

/** Starts `node <args>` (serverProcess.ts `loaderArgs`: tsx's loader for a `.ts` entry, none for the bundle). */
function start(args: string[], env: NodeJS.ProcessEnv, log: string): ChildProcess {
  const child = spawn(process.execPath, [...loaderArgs(args[0]), ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = createWriteStream(log);
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  children.push(child);
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await Promise.race([once(child, 'exit'), new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** Peak resident set of a process in MB (VmHWM), or NaN when unreadable. */
function peakRssMb(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

interface ScaleResult {
  scale: number;
  artworks: number;
  rows: LoadRow[];
  rssMb: number;
}

/** Starts the server and the floor on `dataDir`, loads the three calls on each, stops them. */
async function measure(scale: number, dataDir: string, tmp: string, ids: number[]): Promise<ScaleResult> {
  const [ourPort, floorPort] = [await freePort(), await freePort()];
  const password = randomBytes(12).toString('hex');
  const server = start(
    [SERVER_BUNDLE],
    { ...benchServerEnv(dataDir, ourPort, password), ...SERVER_ENV },
    join(tmp, `server-${scale}x.log`),
  );
  const floor = start(
    ['bench/floor.ts', join(dataDir, 'baas.sqlite'), String(floorPort)],
    process.env,
    join(tmp, `floor-${scale}x.log`),
  );
  const ours = `http://127.0.0.1:${ourPort}`;
  const floorUrl = `http://127.0.0.1:${floorPort}`;
  try {
    const token = await adminToken(ours, password, 'server', 180);
    await waitFor('floor', async () => (await fetch(`${floorUrl}/detail?artId=${ids[0]}`)).ok, 180);
    const targets = [
      { name: 'ours', url: ours, calls: ourCalls(token, WORDS, ids) },
      { name: FLOOR, url: floorUrl, calls: floorCalls(WORDS, ids) },
    ];
    const rows: LoadRow[] = [];
    for (const call of ['list', 'search', 'detail'])
      for (const t of targets) {
        const req = t.calls[call];
        await autocannon({ url: t.url, connections, duration: 2, requests: [req], timeout: 30 });
        const r = await autocannon({ url: t.url, connections, duration, requests: [req], timeout: 30 });
        rows.push(loadRow(call, t.name, r));
        console.log(
          `  ${scale}× ${call} / ${t.name}: ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms` +
            (r.non2xx + r.errors + r.timeouts ? `, ${r.non2xx + r.errors + r.timeouts} errors` : ''),
        );
      }
    return { scale, artworks: ids.length, rows, rssMb: peakRssMb(server.pid!) };
  } finally {
    await stop(server);
    await stop(floor);
  }
}

function printImport(what: string, s: ImportSummary): void {
  const rows = s.artists.read + s.artworks.read;
  console.log(
    `  ${what}: artworks ${summaryLine(s.artworks)}; ${s.seconds.toFixed(1)} s, ${Math.round(rows / s.seconds)} rows/s`,
  );
}

/** Runs the scale bench (see the module doc); `argv` holds `--scale N`. */
export async function main(argv: string[]): Promise<void> {
  const max = Number(argv[argv.indexOf('--scale') + 1] ?? 10);
  if (!Number.isInteger(max) || max < 1) throw new Error('--scale takes a whole number ≥ 1, e.g. --scale 10');
  const scales = [...new Set([1, 3, max].filter((s) => s <= max))].sort((a, b) => a - b);
  const { artworksFile, artistsFile } = tateFiles(tateDir);
  const tmp = mkdtempSync(join(tmpdir(), 'baas-scale-'));
  const dataDir = join(tmp, 'data');
  console.log(
    `bench --scale ${max}: node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; temp dir ${tmp}`,
  );
  try {
    const { db, summary: first } = await importedTateDb(
      dataDir,
      { artistsFile, artworksFile },
      join(tmp, 'import-1x.jsonl'),
    );
    console.log('\nimports (the same pipeline and validation as npm run import):');
    printImport('1× (the Tate file)', first);
    // The source rows the registry accepted, in file order: the material of every copy.
    const stored = new Set(
      (await db.selectFrom('artworks').select('sourceId').execute()).map((r) => r.sourceId),
    );
    const rows: Row[] = [];
    for await (const r of readRows(artworksFile)) {
      const row = r.row as Row | undefined;
      if (row && stored.has(row.acno as string))
        rows.push(Object.fromEntries(SOURCE_KEYS.filter((k) => k in row).map((k) => [k, row[k]])));
    }
    const results: ScaleResult[] = [];
    let copies = 1;
    for (const scale of scales) {
      if (scale > copies) {
        const file = join(tmp, `synthetic-${scale}x.json`);
        const n = await synthesise(rows, copies, scale - 1, file);
        const s = await importTate(db, {
          artworksFile: file,
          reportFile: join(tmp, `import-${scale}x.jsonl`),
        });
        printImport(`${copies}× → ${scale}× (${n} synthesised rows)`, s);
        rmSync(file);
        copies = scale;
      }
      const ids = (await db.selectFrom('artworks').select('id').execute()).map((r) => r.id);
      console.log(`\nload at ${scale}× (${ids.length} artworks):`);
      results.push(await measure(scale, dataDir, tmp, ids));
    }
    await db.destroy();
    printScaleTable(results);
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    if (process.env.BENCH_KEEP === '1') console.log(`kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  }
}

/** Prints req/s, p99 and peak RSS per call and scale, with the change from the first scale. */
function printScaleTable(results: ScaleResult[]): void {
  const base = results[0];
  const pct = (v: number, b: number) => `${v >= b ? '+' : ''}${Math.round(((v - b) / b) * 100)}%`;
  console.log(`\nscale (req/s, p99 ms; ours and the floor; change from ${base.scale}×; server peak RSS):`);
  const header = ['call', 'scale', 'artworks', 'ours req/s', 'p99', 'Δ req/s', 'floor req/s', 'ours/floor'];
  const w = [8, 7, 10, 12, 7, 10, 13, 12];
  const line = (cells: string[]) =>
    console.log(cells.map((c, i) => (i < 2 ? c.padEnd(w[i]) : c.padStart(w[i]))).join(''));
  line(header);
  for (const call of ['list', 'search', 'detail'])
    for (const r of results) {
      const o = r.rows.find((x) => x.case === call && x.target === 'ours')!;
      const f = r.rows.find((x) => x.case === call && x.target === FLOOR)!;
      const b = base.rows.find((x) => x.case === call && x.target === 'ours')!;
      line([
        call,
        `${r.scale}×`,
        String(r.artworks),
        o.rps.toFixed(0),
        String(o.p99),
        r === base ? '' : pct(o.rps, b.rps),
        f.rps.toFixed(0),
        `${Math.round((o.rps / f.rps) * 100)}%`,
      ]);
    }
  console.log(`\nserver peak RSS: ${results.map((r) => `${r.scale}× ${r.rssMb.toFixed(0)} MB`).join(', ')}`);
  console.log(
    '(goals: list and detail flat within 20% from 1× to 10×, search p99 ≤ 100 ms at 10×, RSS ≤ 250 MB)',
  );
}

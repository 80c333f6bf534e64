/**
 * `npx tsx bench/transfer.ts` (also `npm run bench -- --transfer`): export and import through the server's
 * calls, printed (never asserted).
 * 1. Imports the full Tate file into a fresh SQLite database (temp DATA_DIR) with `importTate` (51,840
 *    artworks), starts the server as `npm start` does (the bundle, built first) on 127.0.0.1.
 * 2. Export: `GET /artmanager/artwork/searchArtworkList/export?format=csv` (every artwork, streamed),
 *    read to the end: rows/s, MB, and the server's peak RSS (VmHWM of /proc/<pid>/status) after it; the
 *    same for XLSX.
 * 3. Import: a 10,000-row XLSX of new artworks (name, author, category, medium) through the console's
 *    calls: `POST /dev-api/import/dryRun` then `POST /dev-api/import/commit` until done: rows/s of each
 *    step and overall.
 * Environment: TATE_DIR (default ../shared/data/tate), BENCH_KEEP=1 (keep the temp dir).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { SERVER_BUNDLE, SERVER_ENV } from '../scripts/build-server';
import { freePort } from '../tests/support/serverProcess';
import { adminToken, benchServerEnv, importedTateDb, runIfMain, tateFiles } from './benchServer';

const tateDir = resolve(process.env.TATE_DIR ?? '../shared/data/tate');

/** Peak resident set of a process in MB (VmHWM). */
const peakRssMb = (pid: number) =>
  Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/** Reads a streamed answer to its end; resolves bytes and line ends. */
async function drain(res: Response): Promise<{ bytes: number; lines: number }> {
  let [bytes, lines] = [0, 0];
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const b of chunk) if (b === 0x0a) lines++;
  }
  return { bytes, lines };
}

/** Runs the bench (see the module doc). */
export async function main(): Promise<void> {
  const { artworksFile, artistsFile } = tateFiles(tateDir);
  const tmp = mkdtempSync(join(tmpdir(), 'baas-transfer-'));
  const dataDir = join(tmp, 'data');
  try {
    const { db, summary: imported } = await importedTateDb(
      dataDir,
      { artistsFile, artworksFile },
      join(tmp, 'report.jsonl'),
    );
    const authors = (await db.selectFrom('authors').select('id').limit(50).execute()).map((r) =>
      Number(r.id),
    );
    await db.destroy();
    console.log(`Tate import: ${imported.artworks.imported} artworks stored`);

    const port = await freePort();
    const password = randomBytes(12).toString('hex');
    const server = spawn(process.execPath, [SERVER_BUNDLE], {
      env: { ...benchServerEnv(dataDir, port, password), ...SERVER_ENV },
      stdio: 'ignore',
    });
    const base = `http://127.0.0.1:${port}`;
    try {
      const token = await adminToken(base, password, 'server', 60);
      const headers = { 'x-token': token, 'accept-language': 'en' };
      for (const format of ['csv', 'xlsx']) {
        const t0 = performance.now();
        const res = await fetch(`${base}/artmanager/artwork/searchArtworkList/export?format=${format}`, {
          headers,
        });
        const { bytes, lines } = await drain(res);
        const s = (performance.now() - t0) / 1000;
        const rows = Number(res.headers.get('x-total-count'));
        console.log(
          `export ${format}: ${rows} rows${format === 'csv' ? ` (${lines - 1} lines)` : ''}, ${(bytes / 1e6).toFixed(1)} MB in ${s.toFixed(1)} s = ${Math.round(rows / s)} rows/s; server peak RSS ${peakRssMb(server.pid!).toFixed(0)} MB`,
        );
      }

      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('artworks');
      ws.addRow(['Artwork name', 'Author', 'Category', 'Texture / medium']);
      for (let i = 0; i < 10_000; i++)
        ws.addRow([`Bench import ${i}`, authors[i % authors.length], 'painting', 'oil']);
      const file = Buffer.from(await wb.xlsx.writeBuffer());
      const form = new FormData();
      form.append('file', new Blob([file]), 'bench.xlsx');
      const t0 = performance.now();
      const dry = (await (
        await fetch(`${base}/dev-api/import/dryRun?resource=artworks`, {
          method: 'POST',
          headers,
          body: form,
        })
      ).json()) as { data: { id: string; counts: Record<string, number>; status: string } };
      const t1 = performance.now();
      let job = dry.data;
      while (job.status !== 'done')
        job = (
          (await (
            await fetch(`${base}/dev-api/import/commit`, {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/json' },
              body: JSON.stringify({ id: job.id }),
            })
          ).json()) as { data: typeof job }
        ).data;
      const t2 = performance.now();
      const rate = (ms: number) => Math.round(10_000 / (ms / 1000));
      console.log(
        `import xlsx 10,000 rows (${JSON.stringify(dry.data.counts)}): dry run ${((t1 - t0) / 1000).toFixed(1)} s (${rate(t1 - t0)} rows/s), commit ${((t2 - t1) / 1000).toFixed(1)} s (${rate(t2 - t1)} rows/s), overall ${rate(t2 - t0)} rows/s; server peak RSS ${peakRssMb(server.pid!).toFixed(0)} MB`,
      );
    } finally {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
  } finally {
    if (process.env.BENCH_KEEP !== '1') rmSync(tmp, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, main);

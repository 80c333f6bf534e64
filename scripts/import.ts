/**
 * `npm run import -- <artworks file> [--artists <file>] [--report <file>] [--batch <rows>]`
 *
 * Imports Tate-format JSON (plain or gzipped; e.g. ../shared/data/tate/artworks.json.gz
 * from the repository root, with --artists artists.json.gz) into the registry database: artists first, then artworks, validated with
 * the schemas, in batches of one transaction each (server/import/importer.ts). Rejected rows go to the
 * report file (JSON Lines: kind, sourceId, line, reasons), by default `<DATA_DIR>/import-<time>.jsonl`.
 * Ends with one summary line per phase: `imported N, rejected N, skipped N`. Idempotent by source id.
 *
 * Database: `DATABASE_URL` (postgres://…) or the SQLite file in `DATA_DIR` (default ./data), as the server.
 * `--summary <file>` also writes the summary as JSON (`ImportSummary` and `cpuSeconds`, the process's
 * user and system CPU time over every thread) for tools such as `npm run bench`.
 * Every imported record gets its audit row, actor `cli:<OS user>`, call `CLI import` (importer.ts).
 * Exit status: 0 done (rejections are not failures), 1 a batch failed (rolled back), 2 bad arguments.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { connect } from '../server/db/connect';
import { migrateToLatest } from '../server/db/migrator';
import { ImportBatchError, importTate, summaryLine, type ImportSummary } from '../server/import/importer';
import { cliAccount } from '../server/ops/admin';

const usage =
  'usage: npm run import -- <artworks file> [--artists <file>] [--report <file>] [--batch <rows>] [--summary <file>]\n' +
  '       npm run import -- --artists <file>            (artists only)';

function fail(msg: string): never {
  console.error(`${msg}\n${usage}`);
  process.exit(2);
}

function printSummary(s: ImportSummary): void {
  if (s.artists.read) console.log(`artists: ${summaryLine(s.artists)}`);
  if (s.artworks.read) console.log(`artworks: ${summaryLine(s.artworks)}`);
  if (s.categoriesAdded.length)
    console.log(`categories added: ${s.categoriesAdded.map((c) => JSON.stringify(c)).join(', ')}`);
  if (s.reportFile && s.artists.rejected + s.artworks.rejected > 0)
    console.log(`rejected rows: ${s.reportFile}`);
  const rows = s.artists.read + s.artworks.read;
  console.log(
    `time: ${s.seconds.toFixed(1)} s (${Math.round(rows / s.seconds)} rows/s, ${rows} rows read${s.worker ? '; parsed and validated in a worker thread' : ''})`,
  );
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        artists: { type: 'string' },
        report: { type: 'string' },
        batch: { type: 'string' },
        summary: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    fail((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(usage);
    return;
  }
  if (positionals.length > 1) fail(`one artworks file expected, got ${positionals.length}`);
  const artworksFile = positionals[0] ? resolve(positionals[0]) : undefined;
  const artistsFile = values.artists ? resolve(values.artists) : undefined;
  if (!artworksFile && !artistsFile) fail('nothing to import');
  for (const f of [artworksFile, artistsFile]) if (f && !existsSync(f)) fail(`no such file: ${f}`);
  const batchSize = values.batch === undefined ? 2000 : Number(values.batch);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 2000)
    fail('--batch must be an integer 1..2000');

  const dataDir = resolve(process.env.DATA_DIR || './data');
  mkdirSync(dataDir, { recursive: true });
  const reportFile = resolve(
    values.report ?? join(dataDir, `import-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`),
  );
  const { db } = connect({ dataDir, databaseUrl: process.env.DATABASE_URL });
  await migrateToLatest(db);

  const bar = new cliProgress.SingleBar(
    {
      format:
        '{phase} |{bar}| {percentage}% | {rows} rows | imported {imported}, rejected {rejected}, skipped {skipped}',
      hideCursor: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let barPhase = '';
  try {
    const summary = await importTate(db, {
      artistsFile,
      artworksFile,
      reportFile,
      batchSize,
      // Every imported row's audit entry names the command line (one door, issue 32).
      actor: { accountId: null, account: cliAccount(), call: 'CLI import' },
      onProgress: (p) => {
        const payload = { phase: p.phase.padEnd(8), rows: p.summary.read, ...p.summary };
        if (barPhase !== p.phase) {
          if (barPhase) bar.stop();
          barPhase = p.phase;
          bar.start(Math.max(p.bytesTotal, 1), p.bytesRead, payload);
        } else bar.update(p.bytesRead, payload);
      },
    });
    if (barPhase) bar.stop();
    printSummary(summary);
    if (values.summary) {
      const cpu = process.cpuUsage();
      const cpuSeconds = (cpu.user + cpu.system) / 1e6;
      writeFileSync(resolve(values.summary), JSON.stringify({ ...summary, cpuSeconds }, null, 2));
    }
  } catch (e) {
    if (barPhase) bar.stop();
    if (e instanceof ImportBatchError) {
      console.error(e.message);
      printSummary(e.summary);
      process.exitCode = 1;
    } else throw e;
  } finally {
    await db.destroy();
  }
}

await main();

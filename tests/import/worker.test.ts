/**
 * The import parses and validates in a worker thread (server/import/prepare.ts) with the same outcome
 * as in the importing thread: the shipped seed (artists then artworks) and then the bad-input rows give
 * the same summaries, the same report lines and the same stored rows (except the import time stamps) both ways.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importTate, type ImportSummary } from '../../server/import/importer';
import { SEED_FILES } from '../../server/import/seed';
import { INVALID_FILE, tempDb, type TempDb } from './helpers';

const dbs: TempDb[] = [];
afterAll(async () => {
  for (const d of dbs) await d.close();
});

async function run(worker: boolean) {
  const t = await tempDb();
  dbs.push(t);
  const summaries: ImportSummary[] = [];
  const reports: string[] = [];
  for (const [i, opts] of [
    { artistsFile: SEED_FILES.artists, artworksFile: SEED_FILES.artworks },
    { artworksFile: INVALID_FILE },
  ].entries()) {
    const reportFile = join(t.dir, `report-${i}.jsonl`);
    summaries.push(await importTate(t.db, { ...opts, reportFile, worker, batchSize: 97 }));
    reports.push(readFileSync(reportFile, 'utf8'));
  }
  const rows = await t.db
    .selectFrom('artworks')
    .select([
      'id',
      'artWorkName',
      'author',
      'classify',
      'texture',
      'images',
      'baseInfo',
      'dealInfo',
      'sourceId',
      'sourceDigest',
    ])
    .orderBy('id')
    .execute();
  const authors = await t.db
    .selectFrom('authors')
    .select(['id', 'authorName', 'introduction', 'sourceId'])
    .orderBy('id')
    .execute();
  return { summaries, reports, rows, authors };
}

describe('import in a worker thread', () => {
  it('gives the same summaries, report and stored rows as in the importing thread', async () => {
    const inWorker = await run(true);
    const inThread = await run(false);
    expect(inWorker.summaries.every((s) => s.worker)).toBe(true);
    expect(inThread.summaries.some((s) => s.worker)).toBe(false);
    const counts = (s: ImportSummary[]) =>
      s.map(({ artists, artworks, categoriesAdded }) => ({ artists, artworks, categoriesAdded }));
    expect(counts(inWorker.summaries)).toEqual(counts(inThread.summaries));
    expect(inWorker.summaries[0].artworks.imported).toBeGreaterThan(1000);
    expect(inWorker.summaries[1].artworks.rejected).toBeGreaterThan(10);
    expect(inWorker.reports).toEqual(inThread.reports);
    expect(inWorker.rows).toEqual(inThread.rows);
    expect(inWorker.authors).toEqual(inThread.authors);
  });
});

/**
 * The console's import of a Tate-format JSON file (server/import/tateTable.ts, `/dev-api/import/*`), on
 * SQLite and, with TEST_DATABASE_URL, on PostgreSQL: its rows go through the command line's mapping and
 * key (one pipeline). Authors come from the shipped Tate artists (the command line's import); the file holds
 * 3 real rows of the shipped sample and 2 broken ones of ../shared/data/tate/artworks.invalid.json's kinds
 * (a title wider than 60, an unknown artist):
 * - the dry run counts 3 new and 2 rejected, naming the registry field (label) and reason per language;
 * - the commit stores the 3 with the command line's key (sourceId = acno), so the command-line import of
 *   the same rows then skips them, and a second console import finds them unchanged.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTate } from '../../server/import/importer';
import { SEED_FILES } from '../../server/import/seed';
import { createTestApp, multipart, type TestApp } from './helpers';

let t: TestApp;
let dir: string;
let rows: Record<string, unknown>[];

/** The sample's artworks (Tate's layout, one object per line). */
const sample = (): Record<string, any>[] =>
  JSON.parse(gunzipSync(readFileSync(SEED_FILES.artworks)).toString());

beforeAll(async () => {
  t = await createTestApp();
  dir = mkdtempSync(join(tmpdir(), 'baas-tate-import-'));
  await importTate(t.app.db as never, { artistsFile: SEED_FILES.artists, worker: false });
  const valid = sample().filter(
    (r) =>
      typeof r.title === 'string' &&
      r.title.length <= 40 &&
      typeof r.medium === 'string' &&
      r.medium.length <= 40 &&
      typeof r.dimensions === 'string' &&
      r.dimensions.length <= 40 &&
      !r.additionalImages,
  );
  const wide = { ...valid[3], acno: 'ZZ00001', id: 99_000_001, title: 'T'.repeat(70) };
  const unknown = {
    ...valid[4],
    acno: 'ZZ00002',
    id: 99_000_002,
    contributors: [{ ...(valid[4].contributors as object[])[0], id: 99_999_999 }],
  };
  rows = [valid[0], valid[1], valid[2], wide, unknown];
}, 120_000);
afterAll(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function dryRun(lang = 'en') {
  const body = multipart({}, { bytes: Buffer.from(JSON.stringify(rows)), filename: 'tate.json' });
  const res = await t.call({
    method: 'POST',
    url: '/dev-api/import/dryRun?resource=artworks',
    headers: { ...body.headers, 'accept-language': lang },
    payload: body.payload,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

describe('console import of Tate JSON', () => {
  it('maps through the command line: 3 new, 2 rejected, then stored under their acno; the CLI and a second import skip them', async () => {
    const first = await dryRun();
    expect(first.counts).toEqual({ new: 3, changed: 0, unchanged: 0, rejected: 2 });
    expect(first.sample[0].after).toMatchObject({ artWorkName: rows[0].title, possessor: 'Tate' });
    expect(first.rejects.map((r: { row: number; field: string }) => [r.row, r.field])).toEqual([
      [5, 'Artwork name'],
      [6, 'Author'],
    ]);
    const zh = await dryRun('zh');
    expect(zh.rejects.map((r: { field: string }) => r.field)).toEqual(['作品名称', '作者']);
    expect(zh.rejects[0].reason).toMatch(/[\u4e00-\u9fff]/);

    let job = first;
    while (job.status !== 'done') job = (await t.post('/dev-api/import/commit', { id: job.id })).body.data;
    const stored = await t.app.db
      .selectFrom('artworks')
      .select(['sourceId', 'artWorkName'])
      .where('sourceId', 'in', [rows[0].acno, rows[1].acno, rows[2].acno] as string[])
      .execute();
    expect(stored).toHaveLength(3);

    // The command line finds them as its own: same acno, same source digest.
    const file = join(dir, 'rows.json');
    writeFileSync(file, JSON.stringify(rows.slice(0, 3)));
    const cli = await importTate(t.app.db as never, { artworksFile: file, worker: false });
    expect(cli.artworks).toMatchObject({ imported: 0, skipped: 3 });

    const again = await dryRun();
    expect(again.counts).toEqual({ new: 0, changed: 0, unchanged: 3, rejected: 2 });
  });
});

/**
 * Running the same import twice adds nothing the second time (idempotent by source id): the second
 * run imports 0 rows, skips every row the first run stored, and rejects the same rows again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTate, type ImportSummary } from '../../server/import/importer';
import { SEED_FILES } from '../../server/import/seed';
import { snapshot, tempDb, type TempDb } from './helpers';

describe('importing the Tate sample (the shipped seed files) twice', () => {
  let t: TempDb;
  let first: ImportSummary;
  let second: ImportSummary;
  let afterFirst: Awaited<ReturnType<typeof snapshot>>;

  beforeAll(async () => {
    t = await tempDb();
    const opts = {
      artistsFile: SEED_FILES.artists,
      artworksFile: SEED_FILES.artworks,
    };
    first = await importTate(t.db, opts);
    afterFirst = await snapshot(t.db);
    second = await importTate(t.db, { ...opts, batchSize: 137 });
  });
  afterAll(() => t?.close());

  it('first run stores every valid row', () => {
    expect(first.artists.read).toBe(948);
    expect(first.artworks.read).toBe(2000);
    expect(first.artists.imported + first.artists.rejected).toBe(948);
    expect(first.artworks.imported + first.artworks.rejected).toBe(2000);
    expect(first.artworks.skipped).toBe(0);
    expect(afterFirst.artworks.rows).toBe(first.artworks.imported);
    expect(afterFirst.authors.rows).toBe(first.artists.imported);
  });

  it('second run imports 0 and skips all that the first stored', () => {
    expect(second.artists).toEqual({
      read: 948,
      imported: 0,
      skipped: first.artists.imported,
      rejected: first.artists.rejected,
    });
    expect(second.artworks).toEqual({
      read: 2000,
      imported: 0,
      skipped: first.artworks.imported,
      rejected: first.artworks.rejected,
    });
    expect(second.categoriesAdded).toEqual([]);
  });

  it('leaves the database exactly as the first run did', async () => {
    expect(await snapshot(t.db)).toEqual(afterFirst);
  });

  it('stored one category per classification seen, in order of appearance', async () => {
    const names = (await t.db.selectFrom('art_categories').select('name').orderBy('id').execute()).map(
      (c) => c.name,
    );
    expect(names).toEqual(first.categoriesAdded);
    expect(new Set(names)).toEqual(
      new Set(['on paper, print', 'painting', 'on paper, unique', 'sculpture', 'installation', 'relief']),
    );
  });
});

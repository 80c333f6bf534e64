/**
 * A failure in the middle of an import leaves the database as it was before the failing batch: the
 * batches before it stay committed, nothing of the failing batch (artworks, new categories) remains,
 * and a re-run resumes. The failure is injected with an SQLite trigger that aborts the insert of one
 * chosen accession number, i.e. a real database error inside the batch's transaction.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportBatchError, importTate } from '../../server/import/importer';
import { checkArtwork } from '../../server/import/validate';
import { SEED_FILES } from '../../server/import/seed';
import { readGzJson, snapshot, tempDb, type TempDb } from './helpers';

type Row = Record<string, any>;
const sample = readGzJson<Row[]>(SEED_FILES.artworks).rows;

describe('a batch that fails in the middle of an import', () => {
  let t: TempDb;
  const BATCH = 10;
  let file: string;
  let rows: Row[];
  let failing: Row;

  beforeAll(async () => {
    t = await tempDb();
    await importTate(t.db, { artistsFile: SEED_FILES.artists });
    // 30 valid rows: batch 1 = 10 paintings, batch 2 = 9 paintings + 1 sculpture (a new category) and the
    // row the trigger refuses, batch 3 = 10 paintings.
    const valid = (cls: string) =>
      sample.filter((r) => r.classification === cls && checkArtwork(r, 1).reasons.length === 0);
    const paintings = valid('painting');
    const sculpture = valid('sculpture')[0];
    rows = [
      ...paintings.slice(0, 10),
      ...paintings.slice(10, 18),
      sculpture,
      paintings[18],
      ...paintings.slice(19, 29),
    ];
    failing = rows[15];
    file = join(t.dir, 'rows.json');
    writeFileSync(file, '[\n' + rows.map((r) => JSON.stringify(r)).join(',\n') + '\n]\n');
    await sql
      .raw(
        `CREATE TRIGGER inject_failure BEFORE INSERT ON artworks WHEN NEW.sourceId = '${failing.acno}' ` +
          `BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
      )
      .execute(t.db);
  });
  afterAll(() => t?.close());

  it('throws, keeps the batches before it, and rolls the failing batch back', async () => {
    const error = await importTate(t.db, { artworksFile: file, batchSize: BATCH }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportBatchError);
    const e = error as ImportBatchError;
    expect(e.message).toContain('injected failure');
    expect([e.firstLine, e.lastLine]).toEqual([12, 21]);
    expect(e.summary.artworks.imported).toBe(BATCH);
    const stored = (await t.db.selectFrom('artworks').select('sourceId').orderBy('id').execute()).map(
      (r) => r.sourceId,
    );
    expect(stored).toEqual(rows.slice(0, BATCH).map((r) => r.acno));
    const categories = (await t.db.selectFrom('art_categories').select('name').execute()).map((c) => c.name);
    expect(categories).toEqual(['painting']);
  });

  it('resumes on a re-run once the cause is gone', async () => {
    await sql`DROP TRIGGER inject_failure`.execute(t.db);
    const before = await snapshot(t.db);
    const summary = await importTate(t.db, { artworksFile: file, batchSize: BATCH });
    expect(summary.artworks).toEqual({ read: 30, imported: 20, rejected: 0, skipped: 10 });
    expect(summary.categoriesAdded).toEqual(['sculpture']);
    const after = await snapshot(t.db);
    expect(after.artworks.rows).toBe(before.artworks.rows + 20);
  });
});

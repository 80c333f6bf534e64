/**
 * The bad-input file `artworks.invalid.json` (26 real Tate rows, each broken in one documented way, see
 * the "bad-input rows" table of the data README): after the shipped seed, importing it must reject every
 * row with exactly the reason that names its break (field + rule), and change nothing in the database.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTate, type ImportSummary, type ReportEntry } from '../../server/import/importer';
import { seedIfEmpty } from '../../server/import/seed';
import { INVALID_FILE, readGzJson, snapshot, tempDb, type TempDb } from './helpers';

/** Break code (`_breaks` prefix) → the one reason expected: Tate field and rule. */
const EXPECTED: Record<string, { field: string; keyword: string }> = {
  title_too_long_real: { field: 'title', keyword: 'x-maxWidth' },
  title_too_long_boundary: { field: 'title', keyword: 'x-maxWidth' },
  title_empty: { field: 'title', keyword: 'minLength' },
  title_whitespace_only: { field: 'title', keyword: 'x-plainText' },
  title_null: { field: 'title', keyword: 'type' },
  title_missing: { field: 'title', keyword: 'required' },
  title_wrong_type: { field: 'title', keyword: 'type' },
  title_control_char: { field: 'title', keyword: 'x-plainText' },
  title_markup_injection: { field: 'title', keyword: 'x-plainText' },
  artist_unknown_id: { field: 'contributors.0.id', keyword: 'reference' },
  artist_unknown_id_real: { field: 'contributors.0.id', keyword: 'reference' },
  artist_none: { field: 'contributors', keyword: 'minItems' },
  contributors_wrong_type: { field: 'contributors', keyword: 'type' },
  too_many_images: { field: 'images', keyword: 'maxItems' },
  id_wrong_type: { field: 'id', keyword: 'type' },
  id_duplicate: { field: 'acno', keyword: 'conflict' },
  acquisitionYear_wrong_type: { field: 'acquisitionYear', keyword: 'type' },
  acquisitionYear_future: { field: 'acquisitionYear', keyword: 'x-notFuture' },
  dateRange_inverted: { field: 'dateRange.endYear', keyword: 'x-ordered' },
  classification_empty: { field: 'classification', keyword: 'minLength' },
  medium_null: { field: 'medium', keyword: 'type' },
  dimensions_empty: { field: 'dimensions', keyword: 'minLength' },
  medium_too_long_real: { field: 'medium', keyword: 'x-maxWidth' },
  dimensions_too_long_real: { field: 'dimensions', keyword: 'x-maxWidth' },
  width_not_numeric: { field: 'width', keyword: 'pattern' },
  creditLine_null: { field: 'creditLine', keyword: 'type' },
};

const invalid = readGzJson(INVALID_FILE);
const invalidRows = invalid.rows;

describe('import of artworks.invalid.json after the seed', () => {
  let t: TempDb;
  let before: Awaited<ReturnType<typeof snapshot>>;
  let summary: ImportSummary;
  let report: ReportEntry[];
  const seedLog: string[] = [];

  beforeAll(async () => {
    t = await tempDb();
    const seeded = await seedIfEmpty(t.db, { info: (m) => seedLog.push(m) });
    expect(seeded?.artworks.imported).toBeGreaterThan(1500);
    before = await snapshot(t.db);
    const reportFile = join(t.dir, 'invalid.jsonl');
    summary = await importTate(t.db, { artworksFile: INVALID_FILE, reportFile });
    report = readFileSync(reportFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ReportEntry);
  });
  afterAll(() => t?.close());

  it('reads the unmodified bad-input file, and knows every break code in it', () => {
    expect(invalid.sha256).toBe('0f7ce6d91cbcdb68afe93603d1c132ce08381a361cea735b910cdfaa3ea52765');
    const codes = invalidRows.map((r) => String(r._breaks).split(':')[0]);
    expect(codes).toHaveLength(26);
    expect(new Set(codes)).toEqual(new Set(Object.keys(EXPECTED)));
  });

  it('rejects all 26 rows, imports and skips none', () => {
    expect(summary.artworks).toEqual({ read: 26, imported: 0, rejected: 26, skipped: 0 });
    expect(report).toHaveLength(26);
  });

  it.each(invalidRows.map((row, i) => [String(row._breaks).split(':')[0], i, row] as const))(
    '%s: rejected with its reason',
    (code, i, row) => {
      const entry = report[i];
      expect(entry.kind).toBe('artwork');
      expect(entry.line).toBe(i + 2); // "[" is line 1, one row per line
      expect(entry.sourceId).toBe(row.acno);
      const { field, keyword } = EXPECTED[code];
      expect(entry.reasons.map((r) => ({ field: r.field, keyword: r.keyword }))).toEqual([
        { field, keyword },
      ]);
      expect(entry.reasons[0].message.startsWith(field)).toBe(true);
    },
  );

  it('explains the unknown artist and the conflicting accession number', () => {
    const byCode = (code: string) => report[invalidRows.findIndex((r) => String(r._breaks).startsWith(code))];
    expect(byCode('artist_unknown_id').reasons[0].message).toContain('artist 99999999 is unknown');
    expect(byCode('artist_unknown_id_real').reasons[0].message).toContain('artist 19232 is unknown');
    expect(byCode('id_duplicate').reasons[0].message).toContain('A00006 is already imported');
    expect(byCode('title_too_long_real').reasons[0].message).toMatch(/at most 60 wide.*got 64/);
  });

  it('changes nothing in the database', async () => {
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('logged the seed with its rejected count, and does not seed twice', async () => {
    expect(seedLog).toHaveLength(1);
    expect(seedLog[0]).toMatch(/artists imported 945, rejected 3, skipped 0/);
    expect(seedLog[0]).toMatch(/artworks imported \d+, rejected \d+, skipped 0/);
    expect(await seedIfEmpty(t.db, (m) => seedLog.push(m))).toBeNull();
    expect(seedLog).toHaveLength(1);
  });
});

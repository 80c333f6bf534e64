/**
 * The artworks list's free-text `q` finds the same rows, with the same total, on PostgreSQL
 * (`artworks_search` + pg_trgm, kernel/server/searchIndex.ts) as on SQLite (FTS5 trigram, LIKE under 3
 * characters): the same records are written through the API into one app on each database, then the
 * same queries are compared, fixed ones (CJK, substrings, case, `%` `_` `\`, under 3 characters) and
 * generated ones (fast-check: random strings over a small alphabet, and substrings of the stored names),
 * before and after writes that change what matches (an author renamed, a record deleted, one added).
 * Needs TEST_DATABASE_URL (PostgreSQL); without it there is nothing to compare and the file is skipped.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageCondition, walkPays } from '../../kernel/server/freeText';
import { resourceModels } from '../../kernel/server/model';
import { SEARCH_BUCKET } from '../../kernel/server/searchIndex';
import { addArtwork, addAuthor, createTestApp, type TestApp } from './helpers';

/** Letters of the generated names and queries: ASCII both cases, CJK, space and LIKE's special characters. */
const ALPHABET = ['a', 'b', 'A', 'B', 'c', ' ', '%', '_', '\\', '-', '山', '水', '画', '石'];
const text = (min: number, max: number) =>
  fc.array(fc.constantFrom(...ALPHABET), { minLength: min, maxLength: max }).map((cs) => cs.join(''));

const AUTHORS = ['齐白石', 'Gwen John', 'J.M.W. Turner', 'ab_c 山水'];
const ARTWORKS: [number, string, Record<string, unknown>][] = [
  [0, '山水画', { texture: '水墨 on paper' }],
  [0, '荷花与蜻蜓', { possessor: '北京画院' }],
  [1, 'Self-Portrait', {}],
  [1, 'Girl with a Cat', { possessor: 'Tate' }],
  [2, 'Sunset over the River', { texture: '100% pure_cotton\\linen' }],
  [2, 'The Fighting Temeraire', { classify: 'Oil Painting' }],
  [3, 'Ab%c', { texture: 'a_b' }],
  [3, 'aB 画石', {}],
];
const FIXED = [
  '山水',
  '水',
  '画院',
  '白石',
  '齐白石',
  'sun',
  'SUNSET',
  'er t',
  'gwen',
  'TURNER',
  'oil',
  'a',
  'ab',
  'b%',
  '%',
  '_',
  '\\',
  '100%',
  'e_c',
  'n\\l',
  'tate',
  'zz',
  '蜻蜓',
];

const describePg = process.env.TEST_DATABASE_URL ? describe : describe.skip;

let pg: TestApp;
let lite: TestApp;
const authors: Record<'pg' | 'lite', number[]> = { pg: [], lite: [] };

/** Writes `records` to both apps; resolves the pair of ids. */
async function addBoth(author: number, name: string, extra: Record<string, unknown>): Promise<number[]> {
  return [
    await addArtwork(pg, authors.pg[author], name, extra),
    await addArtwork(lite, authors.lite[author], name, extra),
  ];
}

/** The list answer's (name, total) for `q` on `t`: names, not ids (the two databases number alike, but names say more). */
async function search(t: TestApp, q: string) {
  const res = await t.post('/artmanager/artwork/searchArtworkList', { q, page: 1, pageSize: 100 });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const data = res.body.data as { list: { artWorkName: string }[]; total: number };
  return { names: data.list.map((r) => r.artWorkName), total: data.total };
}

async function same(q: string): Promise<{ names: string[]; total: number }> {
  const [a, b] = [await search(pg, q), await search(lite, q)];
  expect(a, `q=${JSON.stringify(q)}`).toEqual(b);
  expect(a.total, `q=${JSON.stringify(q)}`).toBe(a.names.length);
  return a;
}

/**
 * Once per file: 80 records named `walk <bucket>-<i>` (author 3, possessor Walker) on both apps.
 * PostgreSQL's ids jump ahead between the batches (sequence moved), so the matches lie in buckets 2, 3
 * and 6 of freeText.ts' walk (1, 4 and 5 hold none; the first records are in 0); SQLite numbers on. The
 * names come back in the same order on both, which is id order on both.
 */
let buckets: Promise<void> | undefined;
function bucketRecords(): Promise<void> {
  return (buckets ??= (async () => {
    const seq = sql.raw(`pg_get_serial_sequence('artworks', 'id')`);
    for (const [bucket, count] of [
      [2, 30],
      [3, 10],
      [6, 40],
    ]) {
      await sql`select setval(${seq}, ${bucket * SEARCH_BUCKET + 5})`.execute(pg.app.db);
      for (let i = 0; i < count; i++) await addBoth(3, `walk ${bucket}-${i}`, { possessor: 'Walker' });
    }
  })());
}

describePg('free-text search, PostgreSQL against SQLite', () => {
  beforeAll(async () => {
    pg = await createTestApp();
    lite = await createTestApp({ databaseUrl: undefined });
    expect([pg.app.dialect, lite.app.dialect]).toEqual(['postgres', 'sqlite']);
    for (const name of AUTHORS) {
      authors.pg.push(await addAuthor(pg, name));
      authors.lite.push(await addAuthor(lite, name));
    }
    for (const [author, name, extra] of ARTWORKS) await addBoth(author, name, extra);
    // Generated names over the alphabet, the same on both (a fixed seed).
    for (const name of fc.sample(text(3, 8), { numRuns: 30, seed: 20 }))
      await addBoth(0, name.trim() || 'blank', { texture: name.split('').reverse().join('').trim() || 'x' });
  }, 120_000);
  afterAll(async () => {
    await pg?.close();
    await lite?.close();
  });

  it('finds the same rows for fixed queries: CJK, substrings, case, LIKE characters, short texts', async () => {
    const found = await Promise.all(FIXED.map((q) => same(q)));
    // What the queries find (so that an empty answer on both sides cannot pass unnoticed).
    expect(found[0].names).toContain('山水画'); // CJK substring
    expect(found[4].names).toEqual(expect.arrayContaining(['山水画', '荷花与蜻蜓'])); // the author's name
    expect(found[6].names).toContain('Sunset over the River'); // case-insensitive
    expect(found[7].names).toContain('Sunset over the River'); // across words
    expect(found[17].names).toEqual(['Sunset over the River']); // `%` literal
    expect(found[21].total).toBe(0);
  });

  it('finds the same rows for generated queries and for substrings of stored names', async () => {
    await fc.assert(
      fc.asyncProperty(text(1, 4), async (q) => {
        await same(q);
      }),
      { numRuns: 60 },
    );
    const names = ARTWORKS.map(([, name]) => name);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...names),
        fc.nat(),
        fc.integer({ min: 1, max: 5 }),
        async (name, at, n) => {
          const chars = [...name];
          const start = at % chars.length;
          const q = chars.slice(start, start + n).join('');
          if (!q.trim()) return;
          const { names: found } = await same(q);
          expect(found).toContain(name);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('pages the same rows in both orders: each page as on SQLite, the pages together the whole list', async () => {
    for (const q of ['画', 'ab', 'a', '齐白石']) {
      const whole = { pg: await search(pg, q), lite: await search(lite, q) };
      expect(whole.pg.total, `q=${q}`).toBeGreaterThan(3);
      for (const order of ['ASC', 'DESC']) {
        const pages: string[] = [];
        for (let page = 1; (page - 1) * 3 < whole.pg.total + 3; page++) {
          const body = { q, page, pageSize: 3, sort: 'id', order };
          const [a, b] = await Promise.all(
            [pg, lite].map(async (t) => {
              const res = await t.post('/artmanager/artwork/searchArtworkList', body);
              expect(res.status, JSON.stringify(res.body)).toBe(200);
              return res.body.data as { list: { id: number; artWorkName: string }[]; total: number };
            }),
          );
          expect(
            a.list.map((r) => r.artWorkName),
            JSON.stringify(body),
          ).toEqual(b.list.map((r) => r.artWorkName));
          expect(a.total).toBe(whole.pg.total);
          const ids = a.list.map((r) => r.id);
          expect(ids, JSON.stringify(body)).toEqual(
            [...ids].sort((x, y) => (order === 'ASC' ? x - y : y - x)),
          );
          pages.push(...a.list.map((r) => r.artWorkName));
        }
        expect(pages).toEqual(order === 'DESC' ? whole.pg.names : [...whole.pg.names].reverse());
      }
    }
  });

  it('pages the same rows when the ids span several buckets, with empty ones between (the bucket walk)', async () => {
    await bucketRecords();
    const span = await sql<{ span: number }>`select max(id) - min(id) as span from artworks_search`.execute(
      pg.app.db,
    );
    const q = 'walk';
    const whole = { pg: await search(pg, q), lite: await search(lite, q) };
    expect(whole.pg).toEqual(whole.lite);
    expect(whole.pg.total).toBe(80);
    // The first pages take the walk, the deep ones every match: both ways are compared below.
    expect(walkPays(whole.pg.total, 3, Number(span.rows[0].span))).toBe(true);
    expect(walkPays(whole.pg.total, 80, Number(span.rows[0].span))).toBe(false);
    for (const order of ['ASC', 'DESC']) {
      const pages: string[] = [];
      for (let page = 1; page <= 27; page++) {
        const body = { q, page, pageSize: 3, sort: 'id', order };
        const [a, b] = await Promise.all(
          [pg, lite].map(
            async (t) => (await t.post('/artmanager/artwork/searchArtworkList', body)).body.data,
          ),
        );
        expect(a, JSON.stringify(body)).toMatchObject({ total: 80 });
        expect(
          a.list.map((r: { artWorkName: string }) => r.artWorkName),
          JSON.stringify(body),
        ).toEqual(b.list.map((r: { artWorkName: string }) => r.artWorkName));
        pages.push(...a.list.map((r: { artWorkName: string }) => r.artWorkName));
      }
      expect(pages).toEqual(order === 'DESC' ? whole.pg.names : [...whole.pg.names].reverse());
    }
  });

  it('the bucket walk and the visit of every match give the same page, for any offset, limit and order', async () => {
    // Straight on pageCondition (freeText.ts), over ids in buckets 0, 2, 3 and 6: the API walks only where
    // walkPays says it pays.
    await bucketRecords();
    const model = resourceModels().get('artworks')!;
    const page = (q: string, order: 'asc' | 'desc', limit: number, offset: number, walk: boolean) =>
      pg.app.db
        .selectFrom('artworks')
        .where(pageCondition(model, 'postgres', q, { order, limit, offset }, walk))
        .select('artworks.id')
        .orderBy('artworks.id', order)
        .execute()
        .then((rows) => rows.map((r) => r.id));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('walk', 'wal', 'alk 6', 'k 2-1', 'walker', '山水', 'a', 'zz'),
        fc.constantFrom('asc' as const, 'desc' as const),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 120 }),
        async (q, order, limit, offset) => {
          const plain = await page(q, order, limit, offset, false);
          expect(
            await page(q, order, limit, offset, true),
            JSON.stringify({ q, order, limit, offset }),
          ).toEqual(plain);
        },
      ),
      { numRuns: 120 },
    );
    expect((await page('walk', 'desc', 200, 0, true)).length).toBe(80);
  });

  it('follows writes: an author renamed, a record deleted, one added (rows and totals)', async () => {
    expect((await same('齐白石')).total).toBe(2 + 30);
    for (const t of [pg, lite]) {
      const id = t === pg ? authors.pg[0] : authors.lite[0];
      const r = await t.post('/artmanager/authors/updateInfo', { id, authorName: '吴昌硕' });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    expect((await same('齐白石')).total).toBe(0);
    expect((await same('昌硕')).total).toBe(2 + 30);
    const gone = (await search(pg, 'Temeraire')).names;
    expect(gone).toEqual(['The Fighting Temeraire']);
    for (const t of [pg, lite]) {
      const list = await t.post('/artmanager/artwork/searchArtworkList', { q: 'Temeraire' });
      const r = await t.post('/artmanager/artwork/deleteArt', { id: list.body.data.list[0].id });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    expect((await same('temeraire')).total).toBe(0);
    expect((await same('the')).names).not.toContain('The Fighting Temeraire');
    await addBoth(1, '山水 Study', {});
    expect((await same('山水')).names).toContain('山水 Study');
  });
});

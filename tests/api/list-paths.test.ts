/**
 * The kernel's read paths of issue 10 (kernel/server/repository.ts, server/db/connect.ts `readQuery`),
 * on SQLite and, with TEST_DATABASE_URL, on PostgreSQL:
 * - a list call answers the same records whichever way its SQL is made: free text alone is paged by the
 *   FTS5 table (SQLite), free text with a filter by the general query, each shape's SQL compiled once
 *   and bound to every later call's values; checked against the records matched by hand;
 * - a read never sees the rows of a write transaction still open on the connection (SQLite reads run as
 *   prepared statements outside Kysely only while no transaction is open).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addArtwork, addAuthor, createTestApp, type TestApp } from './helpers';

let t: TestApp;
let author: number;
const names: { id: number; name: string; classify: string }[] = [];

const list = async (body: Record<string, unknown>) => {
  const res = await t.post('/artmanager/artwork/searchArtworkList', body);
  expect(res.status).toBe(200);
  return res.body.data as { list: { id: number; artWorkName: string; authorName: string }[]; total: number };
};

beforeAll(async () => {
  t = await createTestApp();
  author = await addAuthor(t, 'Winifred Nicholson');
  const words = [
    'Harbour at dusk',
    'Sunset over the river',
    'River bridge',
    'Portrait of a sitter',
    'Riverbank',
  ];
  for (let i = 0; i < 25; i++) {
    const name = `${words[i % words.length]} ${i}`;
    const classify = i % 2 ? 'painting' : 'sculpture';
    const id = await addArtwork(t, author, name, { classify, texture: i % 3 ? 'Oil on canvas' : 'Bronze' });
    names.push({ id, name, classify });
  }
});
afterAll(async () => t?.close());

/** The ids a substring search of `q` over the artworks' names and classifications gives, by hand. */
const matching = (q: string, classify?: string) =>
  names
    .filter((n) => (n.name + ' ' + n.classify).toLowerCase().includes(q.toLowerCase()))
    .filter((n) => !classify || n.classify === classify)
    .map((n) => n.id);

describe('list calls answer the same records on every read path', () => {
  it('free text alone, page by page and in both orders, twice (the second call on the compiled SQL)', async () => {
    for (let round = 0; round < 2; round++)
      for (const order of ['DESC', 'ASC'])
        for (const page of [1, 2, 3]) {
          const want = matching('river').sort((x, y) => (order === 'ASC' ? x - y : y - x));
          const got = await list({ q: 'river', page, pageSize: 4, order });
          expect(got.total).toBe(want.length);
          expect(got.list.map((r) => r.id)).toEqual(want.slice((page - 1) * 4, page * 4));
          expect(got.list.every((r) => r.authorName === 'Winifred Nicholson')).toBe(true);
        }
  });

  it('free text with a filter, a short text (LIKE) and no text give what the hand count gives', async () => {
    for (const body of [
      { q: 'river', classify: 'painting' },
      { q: 'Ri' },
      { q: 'Ri', classify: 'sculpture' },
      { classify: 'painting' },
      {},
    ]) {
      const q = (body as { q?: string }).q ?? '';
      const want = matching(q, (body as { classify?: string }).classify).sort((x, y) => y - x);
      for (let round = 0; round < 2; round++) {
        const got = await list({ ...body, page: 1, pageSize: 100 });
        expect(got.total, JSON.stringify(body)).toBe(want.length);
        expect(got.list.map((r) => r.id)).toEqual(want);
      }
    }
  });

  it("values bound to a compiled shape are the call's own (ids, another word, another filter value)", async () => {
    const [a, b, c] = names;
    expect((await list({ ids: [a.id, b.id] })).list.map((r) => r.id)).toEqual([b.id, a.id]);
    expect((await list({ ids: [c.id, b.id] })).list.map((r) => r.id)).toEqual([c.id, b.id]);
    expect((await list({ q: 'harbour' })).total).toBe(matching('harbour').length);
    expect((await list({ q: 'portrait' })).total).toBe(matching('portrait').length);
    expect((await list({ q: 'portrait', classify: 'painting' })).total).toBe(
      matching('portrait', 'painting').length,
    );
  });
});

describe('reads and open write transactions', () => {
  it('a read made while a write transaction is open does not see its rows, and sees none after a rollback', async () => {
    const repo = t.app.resources.artworks;
    const before = (await repo.list(t.app.db, { q: 'uncommitted' })).total;
    let inside: Promise<unknown> | undefined;
    let listed: Promise<{ total: number }> | undefined;
    await t.app.db
      .transaction()
      .execute(async (trx) => {
        const { id } = await trx
          .insertInto('artworks')
          .values({
            artWorkName: 'Uncommitted work',
            author,
            classify: 'painting',
            texture: 'Oil',
            createTime: '2026-01-01 00:00:00',
            updateTime: '2026-01-01 00:00:00',
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        // Started while the transaction is open (not awaited here: they wait for it to end).
        inside = repo.getOne(t.app.db, Number(id)).catch((e: { status?: number }) => e.status);
        listed = repo.list(t.app.db, { q: 'uncommitted' });
        await new Promise((r) => setTimeout(r, 20));
        throw new Error('roll back');
      })
      .catch((e: Error) => expect(e.message).toBe('roll back'));
    expect(await inside).toBe(404);
    expect((await listed!).total).toBe(before);
  });
});

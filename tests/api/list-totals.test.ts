/**
 * List totals are remembered per query (kernel/server/countCache.ts) and never go stale, on SQLite and,
 * with TEST_DATABASE_URL, on PostgreSQL: the `total` of the artworks list call follows
 * - a create and a delete through the API (the repository's own writes);
 * - a write the repository does not make, on the same connection (the ledger marking a record on chain:
 *   the `isBlock` filter's total);
 * - a write on another connection (another process or server instance on the same database).
 */
import SQLite from 'better-sqlite3';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPgStatement } from '../support/pgAdmin';
import { addArtwork, addAuthor, createTestApp, type TestApp } from './helpers';

let t: TestApp;
let author: number;

const list = async (body: Record<string, unknown> = {}) => {
  const res = await t.post('/artmanager/artwork/searchArtworkList', body);
  expect(res.status).toBe(200);
  return res.body.data as { list: { id: number }[]; total: number };
};
const add = (name: string) => addArtwork(t, author, name, { texture: 'Oil on canvas' });

/** Runs `text` on a second connection to the app's database, as another process would. */
async function onAnotherConnection(text: string): Promise<void> {
  if (t.app.dialect === 'postgres') {
    await runPgStatement(t.app.config.databaseUrl!, text);
    return;
  }
  const other = new SQLite(join(t.dataDir, 'baas.sqlite'));
  try {
    other.exec(text);
  } finally {
    other.close();
  }
}

beforeAll(async () => {
  t = await createTestApp();
  author = await addAuthor(t, 'Gwen John');
  for (const name of ['Interior', 'Self-Portrait', 'Girl with a Cat']) await add(name);
});
afterAll(() => t?.close());

describe('list totals', () => {
  it('are remembered per query and answered unchanged while nothing is written', async () => {
    const repo = t.app.resources.artworks;
    repo.totals.clear();
    expect((await list()).total).toBe(3);
    expect((await list({ q: 'portrait' })).total).toBe(1);
    expect(repo.totals.size).toBe(2);
    expect((await list()).total).toBe(3);
    expect((await list({ page: 2, pageSize: 2 })).total).toBe(3); // same query, another page: same entry
    expect(repo.totals.size).toBe(2);
  });

  it('follow creates and deletes through the API', async () => {
    const before = (await list()).total;
    const id = await add('Portrait of a Nun');
    expect((await list()).total).toBe(before + 1);
    expect((await list({ q: 'portrait' })).total).toBe(2);
    const del = await t.post('/artmanager/artwork/deleteArt', { id });
    expect(del.status).toBe(200);
    expect((await list()).total).toBe(before);
    expect((await list({ q: 'portrait' })).total).toBe(1);
  });

  it('follow a write the repository does not make (the ledger marking a record on chain)', async () => {
    expect((await list({ isBlock: 1 })).total).toBe(0);
    const [first] = (await list()).list;
    await sql`update artworks set "isBlock" = 1 where id = ${first.id}`.execute(t.app.db);
    expect((await list({ isBlock: 1 })).total).toBe(1);
    await sql`update artworks set "isBlock" = 0 where id = ${first.id}`.execute(t.app.db);
    expect((await list({ isBlock: 1 })).total).toBe(0);
  });

  it('follow a write on another connection (another process or server instance)', async () => {
    const { list: page, total } = await list();
    expect((await list()).total).toBe(total); // remembered
    await onAnotherConnection(`DELETE FROM artworks WHERE id = ${page[0].id}`);
    expect((await list()).total).toBe(total - 1);
    expect((await list({ author })).total).toBe(total - 1);
  });
});

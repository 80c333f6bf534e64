/**
 * No lost update, with no lock (issue 32 item 4): every stored record carries a revision (kernel/dialect/
 * revision.ts), one more at each update of its row whoever writes it (the trigger the storage codegen adds);
 * getOne and update answer it as the `ETag`; an update or one record's delete naming a stale revision
 * (`If-Match`, or the update body's `revision`) is 409 with the current record, and changes nothing.
 * Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addArtwork, addAuthor, createTestApp, type TestApp } from './helpers';

let t: TestApp;
let author: number;
beforeAll(async () => {
  t = await createTestApp();
  author = await addAuthor(t, 'Revision Author');
});
afterAll(async () => {
  await t?.close();
});

const GET_ONE = '/artmanager/artwork/ArtInfoByArtId';
const UPDATE = '/artmanager/artwork/baseInfo';
const DELETE = '/artmanager/artwork/deleteArt';

/** The artwork and its ETag, as getOne answers them. */
async function read(id: number) {
  const r = await t.app.inject({
    method: 'GET',
    url: `${GET_ONE}?artId=${id}`,
    headers: { 'x-token': t.adminToken },
  });
  expect(r.statusCode, r.body).toBe(200);
  return { record: r.json().data, etag: r.headers.etag as string };
}

/** An update of `body` with `If-Match: ifMatch` (none when undefined), in `lang`. */
async function update(body: Record<string, unknown>, ifMatch?: string, lang = 'en', path = UPDATE) {
  const r = await t.app.inject({
    method: 'POST',
    url: path,
    payload: body,
    headers: {
      'x-token': t.adminToken,
      'accept-language': lang,
      ...(ifMatch !== undefined ? { 'if-match': ifMatch } : {}),
    },
  });
  return { status: r.statusCode, body: r.json(), etag: r.headers.etag as string | undefined };
}

describe('revisions', () => {
  it('a new record is revision 1, each update one more, answered in the record and the ETag', async () => {
    const id = await addArtwork(t, author, 'Rev one');
    const first = await read(id);
    expect(first.record.revision).toBe(1);
    expect(first.etag).toBe('"1"');
    const saved = await update({ id, artWorkName: 'Rev one, edited' }, '"1"');
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject({ artWorkName: 'Rev one, edited', revision: 2 });
    expect(saved.etag).toBe('"2"');
    // A narrowed alias of the update takes it too.
    const alias = await update(
      { id, securityInfo: { rfid: 'RF-1' } },
      '"2"',
      'en',
      '/artmanager/artwork/ArtSecurity',
    );
    expect(alias.status, JSON.stringify(alias.body)).toBe(200);
    expect(alias.body.data.revision).toBe(3);
  });

  it('a stale If-Match is 409 with the current record, who changed it, and nothing changes', async () => {
    const id = await addArtwork(t, author, 'Base name');
    expect((await update({ id, artWorkName: 'Theirs' }, '"1"')).status).toBe(200);
    const mine = await update({ id, artWorkName: 'Mine', texture: 'ink' }, '"1"');
    expect(mine.status).toBe(409);
    expect(mine.body.code).not.toBe(200);
    expect(mine.body.msg).toBe(
      'Artwork ' +
        id +
        ' was changed by admin since you loaded it (revision 2; yours is 1): review the changes and try again',
    );
    expect(mine.body.data).toMatchObject({ field: 'revision', revision: 2, yours: 1, changedBy: 'admin' });
    expect(mine.body.data.current).toMatchObject({
      id,
      artWorkName: 'Theirs',
      texture: 'oil on canvas',
      revision: 2,
    });
    const now = await read(id);
    expect(now.record).toMatchObject({ artWorkName: 'Theirs', texture: 'oil on canvas', revision: 2 });
    // In Chinese, and with the body's `revision` instead of the header.
    const zh = await update({ id, artWorkName: 'Mine', revision: 1 }, undefined, 'zh-CN');
    expect(zh.status).toBe(409);
    expect(zh.body.msg).toBe(
      `作品 ${id} 在您打开后已被 admin 修改（当前版本 2，您的版本 1）：请核对修改后重试`,
    );
    // Started from the current revision: saved.
    const again = await update({ id, artWorkName: 'Mine' }, now.etag);
    expect(again.status).toBe(200);
    expect(again.body.data.revision).toBe(3);
  });

  it('a write outside the kernel moves the revision too (the trigger), so an edit from before it is stale', async () => {
    const id = await addArtwork(t, author, 'Outside');
    await t.app.db.updateTable('artworks').set({ texture: 'tempera' }).where('id', '=', id).execute();
    await sql`update artworks set texture = 'gouache' where id = ${id}`.execute(t.app.db);
    const now = await read(id);
    expect(now.record).toMatchObject({ texture: 'gouache', revision: 3 });
    const stale = await update({ id, artWorkName: 'Late' }, '"1"');
    expect(stale.status).toBe(409);
    expect(stale.body.data.current.texture).toBe('gouache');
  });

  it('without If-Match the update is taken (older clients) and the revision still moves', async () => {
    const id = await addArtwork(t, author, 'No header');
    const r = await update({ id, artWorkName: 'No header, edited' });
    expect(r.status).toBe(200);
    expect(r.body.data.revision).toBe(2);
    const star = await update({ id, artWorkName: 'Any' }, '*');
    expect(star.status).toBe(200);
  });

  it('refuses an If-Match that is no revision, or that disagrees with the body, naming If-Match', async () => {
    const id = await addArtwork(t, author, 'Bad header');
    for (const bad of ['abc', '"0"', '"1", "2"', '"99999999999"']) {
      const r = await update({ id, artWorkName: 'x' }, bad);
      expect(r.status, bad).toBe(400);
      expect(r.body.data.errors[0].field).toBe('If-Match');
    }
    const both = await update({ id, artWorkName: 'x', revision: 2 }, '"1"');
    expect(both.status).toBe(400);
    expect(both.body.data.errors[0].field).toBe('If-Match');
    const body = await update({ id, artWorkName: 'x', revision: 0 });
    expect(body.status).toBe(400);
    expect(body.body.data.errors[0].field).toBe('revision');
    expect((await read(id)).record).toMatchObject({ artWorkName: 'Bad header', revision: 1 });
  });

  it('a delete naming a stale revision keeps the record; the current one deletes it', async () => {
    const id = await addArtwork(t, author, 'To delete');
    expect((await update({ id, artWorkName: 'To delete, edited' })).status).toBe(200);
    const del = (ifMatch: string, payload: Record<string, unknown> = { id }) =>
      t.app.inject({
        method: 'POST',
        url: DELETE,
        payload,
        headers: { 'x-token': t.adminToken, 'if-match': ifMatch },
      });
    const stale = await del('"1"');
    expect(stale.statusCode).toBe(409);
    expect(stale.json().data.current).toMatchObject({ id, artWorkName: 'To delete, edited', revision: 2 });
    expect((await read(id)).record.id).toBe(id);
    const ok = await del('"2"');
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await t.get(`${GET_ONE}?artId=${id}`)).status).toBe(404);
  });

  it('of many writers starting from one revision, exactly one saves', async () => {
    const id = await addArtwork(t, author, 'Race');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => update({ id, artWorkName: `Writer ${i}` }, '"1"')),
    );
    const saved = results.filter((r) => r.status === 200);
    expect(saved).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
    const now = await read(id);
    expect(now.record).toMatchObject({ artWorkName: saved[0].body.data.artWorkName, revision: 2 });
    // History holds the base and the one saved edit, nothing of the refused ones.
    const history = await t.get(`/dev-api/history/revisions?resource=artworks&id=${id}`);
    expect(history.body.data.total).toBe(2);
  });
});

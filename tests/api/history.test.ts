/**
 * Record history and revert (issue 21 item 3; kernel/server/history.ts, server/routes/dev-api/history):
 * the revisions of a record from the audit trail with their field-by-field changes, one revision, a
 * revert as a new audited update, and its refusals (another record's revision, a unique or reference
 * rule it would break: 409 and nothing changed), role gates, and the put-on-chain revision's
 * transaction. Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addArtwork, addAuthor, createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const revisions = (resource: string, id: number, token?: string) =>
  t.get(`/dev-api/history/revisions?resource=${resource}&id=${id}`, token);
const revert = (resource: string, id: number, revision: number, token?: string) =>
  t.post('/dev-api/history/revert', { resource, id, revision }, token);
const artwork = async (id: number) =>
  (await t.get(`/artmanager/artwork/ArtInfoByArtId?artId=${id}`)).body.data;
const editArtwork = async (body: Record<string, unknown>) => {
  const r = await t.post('/artmanager/artwork/baseInfo', body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
};

describe('revisions of a record', () => {
  it('lists each write newest first with who, when and the changed fields before and after', async () => {
    const author = await addAuthor(t, 'History Author');
    const id = await addArtwork(t, author, 'First name');
    await editArtwork({ id, artWorkName: 'Second name' });
    await editArtwork({ id, artWorkName: 'Third name', texture: 'ink on paper' });
    const r = await revisions('artworks', id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const list = r.body.data.list;
    expect(r.body.data.total).toBe(3);
    expect(list.map((x: { operation: string }) => x.operation)).toEqual(['update', 'update', 'create']);
    expect(list[0]).toMatchObject({
      account: 'admin',
      call: 'POST /artmanager/artwork/baseInfo',
      recorded: true,
    });
    expect(list[0].time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const fields = (rev: { changes: { field: string }[] }) => rev.changes.map((c) => c.field).sort();
    expect(fields(list[0])).toEqual(['artWorkName', 'texture']);
    expect(list[0].changes.find((c: { field: string }) => c.field === 'artWorkName')).toEqual({
      field: 'artWorkName',
      before: 'Second name',
      after: 'Third name',
    });
    expect(list[1].changes).toContainEqual({
      field: 'artWorkName',
      before: 'First name',
      after: 'Second name',
    });
    expect(list[2].state).toMatchObject({ artWorkName: 'First name', author });

    const one = await t.get(`/dev-api/history/revision?resource=artworks&id=${id}&revision=${list[1].id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(list[1]);
  });

  it('answers 404 for an unknown record and 400 for a revision of another record', async () => {
    expect((await revisions('artworks', 999999)).status).toBe(404);
    const author = await addAuthor(t, 'Other Author');
    const a = await addArtwork(t, author, 'Mine');
    const b = await addArtwork(t, author, 'Theirs');
    const theirs = (await revisions('artworks', b)).body.data.list[0].id;
    const get = await t.get(`/dev-api/history/revision?resource=artworks&id=${a}&revision=${theirs}`);
    expect(get.status).toBe(400);
    expect(get.body.data.errors[0]).toMatchObject({ field: 'revision', keyword: 'revision' });
    const before = await artwork(a);
    const r = await revert('artworks', a, theirs);
    expect(r.status).toBe(400);
    expect(r.body.data.errors[0].field).toBe('revision');
    expect(await artwork(a)).toEqual(before);
    expect((await revert('artworks', a, 99999999)).status).toBe(404);
    expect((await revisions('artworks', a)).body.data.total).toBe(1);
  });

  it('answers in the caller language', async () => {
    const author = await addAuthor(t, 'Lang Author');
    const a = await addArtwork(t, author, 'A');
    const b = await addArtwork(t, author, 'B');
    const theirs = (await revisions('artworks', b)).body.data.list[0].id;
    const r = await t.call({
      method: 'POST',
      url: '/dev-api/history/revert',
      payload: { resource: 'artworks', id: a, revision: theirs },
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(r.body.msg).toMatch(/另一条记录/);
  });
});

describe('revert', () => {
  it('restores a revision as a new audited update: three revisions, the third equal to the first', async () => {
    const author = await addAuthor(t, 'Revert Author');
    const id = await addArtwork(t, author, 'Original', { possessor: 'Museum A' });
    await editArtwork({ id, artWorkName: 'Edited', possessor: 'Museum B' });
    const [edit, create] = (await revisions('artworks', id)).body.data.list;
    const r = await revert('artworks', id, create.id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ artWorkName: 'Original', possessor: 'Museum A' });
    expect(await artwork(id)).toMatchObject({ artWorkName: 'Original', possessor: 'Museum A' });
    const list = (await revisions('artworks', id)).body.data.list;
    expect(list).toHaveLength(3);
    expect(list[0]).toMatchObject({ call: 'POST /dev-api/history/revert', operation: 'update' });
    expect(list[0].changes).toContainEqual({ field: 'artWorkName', before: 'Edited', after: 'Original' });
    expect(list[1].id).toBe(edit.id);
    // The audit trail has it too (Audit > System).
    const audit = await t.get(`/dev-api/audit/list?resource=artworks&recordId=${id}`);
    expect(audit.body.data.total).toBe(3);
  });

  it('answers 409 and changes nothing when a restored reference no longer exists', async () => {
    const a1 = await addAuthor(t, 'Ref Author One');
    const a2 = await addAuthor(t, 'Ref Author Two');
    const id = await addArtwork(t, a1, 'Moved');
    await editArtwork({ id, author: a2 });
    await editArtwork({ id, author: a1 });
    const withA2 = (await revisions('artworks', id)).body.data.list[1];
    expect(withA2.state.author).toBe(a2);
    const del = await t.post('/artmanager/authors/deleteAuthors', { id: a2 });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    const before = await artwork(id);
    const r = await revert('artworks', id, withA2.id);
    expect(r.status).toBe(409);
    expect(r.body.data.errors[0]).toMatchObject({ field: 'author', keyword: 'reference' });
    expect(await artwork(id)).toEqual(before);
    expect((await revisions('artworks', id)).body.data.total).toBe(3);
  });

  it('answers 409 and changes nothing when a restored unique value is now held by another record', async () => {
    const list = (await t.get('/medicine-api/smContract/templateList?page=1&pageSize=10')).body.data.list;
    expect(list.length).toBeGreaterThanOrEqual(2);
    const [t1, t2] = list;
    const rename = async (id: number, name: string) => {
      const r = await t.post('/medicine-api/smContract/updateTemplate', { id, name });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    };
    await rename(t1.id, 'History unique A');
    await rename(t1.id, 'History unique B');
    await rename(t2.id, 'History unique A');
    const first = (await revisions('contractTemplates', t1.id)).body.data.list[1];
    expect(first.state.name).toBe('History unique A');
    const r = await revert('contractTemplates', t1.id, first.id);
    expect(r.status).toBe(409);
    expect(r.body.data.errors[0]).toMatchObject({ field: 'name', keyword: 'unique' });
    const now = (await t.get(`/medicine-api/smContract/templateInfo?id=${t1.id}`)).body.data;
    expect(now.name).toBe('History unique B');
    // The seeded template's base revision (issue 32), then its two renames: the refused revert adds none.
    expect((await revisions('contractTemplates', t1.id)).body.data.total).toBe(3);
  });
});

describe('history from the first edit (issue 32)', () => {
  it('a record stored without an audit row (seed, import) gets a base revision at its first edit; Revert restores it', async () => {
    const author = await addAuthor(t, 'Seeded Author');
    const id = await addArtwork(t, author, 'Seeded name');
    // As the seed and the importer store it: no audit row.
    await (t.app.db as Kysely<any>)
      .deleteFrom('audit_log')
      .where('resource', '=', 'artworks')
      .where('recordId', '=', String(id))
      .execute();
    expect((await revisions('artworks', id)).body.data.total).toBe(0);
    await editArtwork({ id, artWorkName: 'Edited name' });
    const list = (await revisions('artworks', id)).body.data.list;
    expect(list.map((x: { operation: string }) => x.operation)).toEqual(['update', 'create']);
    expect(list[1]).toMatchObject({ account: 'system', accountId: null });
    expect(list[1].call).toMatch(/^base revision/);
    expect(list[0].changes).toContainEqual({
      field: 'artWorkName',
      before: 'Seeded name',
      after: 'Edited name',
    });
    expect((await revert('artworks', id, list[1].id)).status).toBe(200);
    expect((await artwork(id)).artWorkName).toBe('Seeded name');
    // The base revision is written once: the next edit adds only its own.
    await editArtwork({ id, artWorkName: 'Third name' });
    expect((await revisions('artworks', id)).body.data.total).toBe(4);
  });
});

describe('roles', () => {
  it('401 without a session; 403 for a role the resource does not admit', async () => {
    const author = await addAuthor(t, 'Role Author');
    const id = await addArtwork(t, author, 'Guarded');
    const rev = (await revisions('artworks', id)).body.data.list[0].id;
    expect((await revisions('artworks', id, null as unknown as string)).status).toBe(401);
    expect((await revisions('artworks', id, t.userToken)).status).toBe(403);
    const r = await revert('artworks', id, rev, t.userToken);
    expect(r.status).toBe(403);
    expect((await revisions('artworks', id)).body.data.total).toBe(1);
  });

  it('a role may read a history yet not revert it when the update call is narrower', async () => {
    const [tpl] = (await t.get('/medicine-api/smContract/templateList?page=1&pageSize=10')).body.data.list;
    await t.post('/medicine-api/smContract/updateTemplate', { id: tpl.id, name: 'Role template' });
    const list = await revisions('contractTemplates', tpl.id, t.userToken);
    expect(list.status).toBe(200);
    expect(list.body.data.total).toBeGreaterThan(0);
    const oldest = list.body.data.list[list.body.data.total - 1].id;
    const r = await revert('contractTemplates', tpl.id, oldest, t.userToken);
    expect(r.status).toBe(403);
    // Refused before anything is written: no new revision, the template as it was.
    expect((await revisions('contractTemplates', tpl.id)).body.data.total).toBe(list.body.data.total);
    const now = (await t.get(`/medicine-api/smContract/templateInfo?id=${tpl.id}`)).body.data;
    expect(now.name).toBe('Role template');
  });

  it('refuses an unknown resource name as the request schema says', async () => {
    expect((await t.get('/dev-api/history/revisions?resource=nothing&id=1')).status).toBe(400);
  });
});

describe('on chain', () => {
  it('a put-on-chain revision links to its ledger transaction', async () => {
    const author = await addAuthor(t, 'Chain Author');
    const put = await t.post('/artmanager/authors/blockChain', { id: author });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const res = await revisions('authors', author);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = res.body.data.list;
    const chain = list.find((x: { operation: string }) => x.operation === 'chain');
    expect(chain.txId).toBe(put.body.data.txId);
    expect(chain.changes.map((c: { field: string }) => c.field)).toContain('isBlock');
    const stored = (await t.get(`/artmanager/authors/getInfo?id=${author}`)).body.data;
    expect(stored.chain).toBe(chain.txId);
  });
});

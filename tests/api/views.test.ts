/**
 * Saved views of lists (issue 21 item 4; server/routes/dev-api/views): per account, named filter, sort
 * and column sets, shared with other accounts on request, the owner alone changing them; each list's
 * last view kept on the server across sessions; role gates of the list resource. Runs on SQLite, and on
 * PostgreSQL when TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, USER_PASSWORD, type TestApp } from './helpers';

let t: TestApp;
let other: string;
beforeAll(async () => {
  t = await createTestApp();
  const add = await t.post('/dev-api/user/add', {
    username: 'viewer2',
    name: 'Second admin',
    password: USER_PASSWORD,
    roles: ['admin'],
  });
  expect(add.status, JSON.stringify(add.body)).toBe(200);
  other = await t.login('viewer2', USER_PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

const list = async (resource: string, token?: string) => {
  const r = await t.get(`/dev-api/views/list?resource=${resource}`, token);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.list as { id: number; name: string; mine: boolean; shared: boolean; account: string }[];
};

const view = {
  resource: 'artworks',
  name: 'Paintings by date',
  filter: { classify: 'painting' },
  sort: { field: 'createTime', order: 'DESC' },
  columns: ['id', 'artWorkName', 'createTime'],
};

describe('saved views', () => {
  it('adds, lists, renames and deletes a view of the caller only', async () => {
    const add = await t.post('/dev-api/views/add', view);
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    expect(add.body.data).toMatchObject({ ...view, mine: true, shared: false, account: 'admin' });
    expect((await list('artworks')).map((v) => v.name)).toEqual(['Paintings by date']);
    // Another account does not see an unshared view, nor may it change it.
    expect(await list('artworks', other)).toEqual([]);
    const id = add.body.data.id;
    expect((await t.post('/dev-api/views/update', { id, name: 'Stolen' }, other)).status).toBe(404);
    const upd = await t.post('/dev-api/views/update', { id, name: 'Oil paintings', columns: ['id'] });
    expect(upd.body.data).toMatchObject({ name: 'Oil paintings', columns: ['id'], filter: view.filter });
    // Views are per list.
    expect(await list('authors')).toEqual([]);
    expect((await t.post('/dev-api/views/delete', { id })).status).toBe(200);
    expect(await list('artworks')).toEqual([]);
  });

  it('refuses a second view of the same name for the same list (409), not for another list', async () => {
    const a = { ...view, name: 'Twice' };
    expect((await t.post('/dev-api/views/add', a)).status).toBe(200);
    const again = await t.post('/dev-api/views/add', a);
    expect(again.status).toBe(409);
    expect(again.body.data.errors[0]).toMatchObject({ field: 'name', keyword: 'unique' });
    expect((await t.post('/dev-api/views/add', { ...a, resource: 'authors', filter: {} })).status).toBe(200);
    // Another account may use the same name.
    expect((await t.post('/dev-api/views/add', a, other)).status).toBe(200);
  });

  it('a shared view is listed for other accounts, which may not change or delete it', async () => {
    const add = await t.post('/dev-api/views/add', { ...view, name: 'Team view', shared: true });
    const id = add.body.data.id;
    const theirs = (await list('artworks', other)).find((v) => v.id === id);
    expect(theirs).toMatchObject({ name: 'Team view', mine: false, shared: true, account: 'admin' });
    const upd = await t.post('/dev-api/views/update', { id, name: 'Mine now' }, other);
    expect(upd.status).toBe(403);
    expect((await t.post('/dev-api/views/delete', { id }, other)).status).toBe(403);
    expect((await list('artworks')).find((v) => v.id === id)?.name).toBe('Team view');
    // Unshared again: gone from the other account's list.
    await t.post('/dev-api/views/update', { id, shared: false });
    expect((await list('artworks', other)).some((v) => v.id === id)).toBe(false);
  });

  it('keeps the last view of a list per account across sessions', async () => {
    expect((await t.get('/dev-api/views/last?resource=authors')).body.data).toBeNull();
    const last = {
      resource: 'authors',
      filter: { q: 'van' },
      sort: { field: 'id', order: 'ASC' },
      columns: null,
    };
    expect((await t.post('/dev-api/views/last', last)).status).toBe(200);
    await t.post('/dev-api/views/last', { ...last, filter: { q: 'gogh' } });
    // A new session of the same account gets it back; another account does not.
    const again = await t.login('admin', 'admin-test-password');
    const r = await t.get('/dev-api/views/last?resource=authors', again);
    expect(r.body.data).toEqual({
      filter: { q: 'gogh' },
      sort: { field: 'id', order: 'ASC' },
      columns: null,
    });
    expect((await t.get('/dev-api/views/last?resource=authors', other)).body.data).toBeNull();
    // The last view is not one of the named views.
    expect((await list('authors')).some((v) => v.name === '')).toBe(false);
  });

  it('validates the request: blank name, unknown list, bad sort', async () => {
    const blank = await t.post('/dev-api/views/add', { ...view, name: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.data.errors[0].field).toBe('name');
    expect((await t.post('/dev-api/views/add', { ...view, resource: 'nothing' })).status).toBe(400);
    const sort = await t.post('/dev-api/views/add', {
      ...view,
      name: 'S',
      sort: { field: 'id', order: 'UP' },
    });
    expect(sort.status).toBe(400);
  });

  it('follows the roles of the list: 401 without a session, 403 for a list the role may not read', async () => {
    expect((await t.get('/dev-api/views/list?resource=artworks', null)).status).toBe(401);
    const r = await t.get('/dev-api/views/list?resource=artworks', t.userToken);
    expect(r.status).toBe(403);
    expect((await t.post('/dev-api/views/add', view, t.userToken)).status).toBe(403);
    // A list the user role reads (contracts: x-roles admin, user).
    expect(
      (await t.post('/dev-api/views/add', { ...view, resource: 'contracts', filter: {} }, t.userToken))
        .status,
    ).toBe(200);
  });
});

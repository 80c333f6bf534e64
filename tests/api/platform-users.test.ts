/**
 * Platform users on the product's paths: `POST /artmanager/admin/user/selectPageUser` (list, page, search,
 * sort, ids) and `POST /artmanager/admin/user/getUerById {id}` (one), with the console's former GET paths
 * (`/artmanager/user/getList|getInfo`) answering the same from the same implementation. Admin only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectAdminOnly, type TestApp } from './helpers';

let t: TestApp;
const ids: number[] = [];
beforeAll(async () => {
  t = await createTestApp();
  for (const [i, nickname] of ['Alice', 'Bob', '张三'].entries()) {
    const row = await t.app.db
      .insertInto('platform_users')
      .values({
        uid: `u-${i}`,
        account: `1380000000${i}`,
        nickname,
        avatar: null,
        registerTime: `2026-01-0${i + 1} 08:00:00`,
        chainId: null,
        bidNumber: i,
        loginCount: i * 2,
        lastLoginTime: i ? `2026-02-0${i} 09:00:00` : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
});
afterAll(() => t.close());

describe('POST /artmanager/admin/user/selectPageUser', () => {
  it('answers a page of platform users with the total, sorted as asked', async () => {
    const res = await t.post('/artmanager/admin/user/selectPageUser', {
      page: 1,
      pageSize: 2,
      sort: 'loginCount',
      order: 'DESC',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(3);
    expect(res.body.data.list.map((u: { nickname: string }) => u.nickname)).toEqual(['张三', 'Bob']);
    expect(res.body.data.list[0]).toMatchObject({ loginCount: 4, lastLoginTime: '2026-02-02 09:00:00' });
  });

  it('searches (q) and selects by ids', async () => {
    const q = await t.post('/artmanager/admin/user/selectPageUser', { q: 'Ali' });
    expect(q.body.data.list.map((u: { nickname: string }) => u.nickname)).toEqual(['Alice']);
    const some = await t.post('/artmanager/admin/user/selectPageUser', { ids: [ids[0], ids[2]] });
    expect(some.body.data.total).toBe(2);
  });

  it('refuses invalid input naming the field', async () => {
    const res = await t.post('/artmanager/admin/user/selectPageUser', { pageSize: 1000 });
    expect(res.status).toBe(400);
    expect(res.body.data.errors[0].field).toBe('pageSize');
    const sort = await t.post('/artmanager/admin/user/selectPageUser', { sort: 'password' });
    expect(sort.body.data.errors[0].field).toBe('sort');
  });

  it('the former GET /artmanager/user/getList answers the same', async () => {
    const a = await t.post('/artmanager/admin/user/selectPageUser', {});
    const b = await t.get('/artmanager/user/getList');
    expect(b.body).toEqual(a.body);
  });
});

describe('POST /artmanager/admin/user/getUerById', () => {
  it('answers one platform user with its login count and last login', async () => {
    const res = await t.post('/artmanager/admin/user/getUerById', { id: ids[1] });
    expect(res.body.data).toMatchObject({ id: ids[1], nickname: 'Bob', loginCount: 2, bidNumber: 1 });
    const same = await t.get(`/artmanager/user/getInfo?id=${ids[1]}`);
    expect(same.body).toEqual(res.body);
  });

  it('404 for an unknown id, 400 naming id when it is missing or not an integer', async () => {
    const missing = await t.post('/artmanager/admin/user/getUerById', { id: 999999 });
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('Platform user 999999 does not exist');
    const none = await t.post('/artmanager/admin/user/getUerById', {});
    expect(none.body.data.errors[0]).toMatchObject({ field: 'id', keyword: 'required' });
    const text = await t.post('/artmanager/admin/user/getUerById', { id: 'one' });
    expect(text.body.data.errors[0].field).toBe('id');
  });
});

describe('roles', () => {
  it.each([
    ['POST', '/artmanager/admin/user/selectPageUser', {}],
    ['POST', '/artmanager/admin/user/getUerById', { id: 1 }],
    ['GET', '/artmanager/user/getList', undefined],
  ] as const)('%s %s: 401 without a token, 403 for role user', async (method, url, payload) => {
    await expectAdminOnly(t, { method, url: () => url, payload: payload && (() => payload) });
  });
});

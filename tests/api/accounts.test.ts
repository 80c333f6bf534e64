/**
 * Console accounts (Permission > User): `GET /dev-api/user/list|detail`, `POST /dev-api/user/add|update|
 * delete|addAuth|delAuth`, `POST /dev-api/user/password`, `GET /dev-api/user/roles`. Each call: success,
 * invalid input, each role, unknown id; the last admin cannot be removed; a demoted or deleted account's
 * token stops working at once. Runs on PostgreSQL too (TEST_DATABASE_URL, see helpers.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, expectAdminOnly, type GuardedCall, type TestApp } from './helpers';
import { scryptCost } from '../../server/plugins/app/password';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ loginRateLimit: 10_000 });
});
afterAll(() => t.close());

let seq = 0;
/** A fresh, unique username. */
const uname = (prefix = 'acct') => `${prefix}${Date.now().toString(36)}${++seq}`;

async function login(username: string, password: string) {
  return t.post('/dev-api/user/login', { username, password }, null);
}

/** POST /dev-api/user/add of `username`, password "a long password", role `user`; `fields` add or override. */
const postAdd = (username: string, fields: Record<string, unknown>) =>
  t.post('/dev-api/user/add', { username, password: 'a long password', roles: ['user'], ...fields });

/** Adds an account through the API; answers the record and a token of its own. */
async function addAccount(roles: string[], password = 'correct horse 1') {
  const username = uname();
  const res = await t.post('/dev-api/user/add', { username, password, roles, name: `Name of ${username}` });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const token = (await login(username, password)).body.data.token as string;
  return { record: res.body.data as { id: number; username: string; roles: string[] }, token, password };
}

const adminId = async () =>
  (await t.get('/dev-api/user/list?q=admin')).body.data.list.find(
    (a: { username: string }) => a.username === 'admin',
  ).id as number;

/** Deletes every admin account but `admin`, so that `admin` is the last one (tests may run in any order). */
async function onlyAdminLeft() {
  const list = (await t.get('/dev-api/user/list?pageSize=100')).body.data.list as {
    id: number;
    username: string;
    roles: string[];
  }[];
  const others = list.filter((a) => a.username !== 'admin' && a.roles.includes('admin')).map((a) => a.id);
  if (others.length) expect((await t.post('/dev-api/user/delete', { ids: others })).status).toBe(200);
}

describe('GET /dev-api/user/list and detail', () => {
  it('lists the accounts with their roles, never a password or its hash', async () => {
    const res = await t.get('/dev-api/user/list?sort=username&order=ASC');
    expect(res.status).toBe(200);
    const names = res.body.data.list.map((a: { username: string }) => a.username);
    expect(names).toEqual(expect.arrayContaining(['admin', 'user']));
    const admin = res.body.data.list.find((a: { username: string }) => a.username === 'admin');
    expect(admin).toMatchObject({ name: 'Administrator', roles: ['admin'] });
    for (const a of res.body.data.list) {
      expect(a).not.toHaveProperty('password');
      expect(a).not.toHaveProperty('passwordHash');
    }
  });

  it('searches by username and name (q)', async () => {
    const { record } = await addAccount(['user']);
    const res = await t.get(`/dev-api/user/list?q=${record.username}`);
    expect(res.body.data.list.map((a: { id: number }) => a.id)).toEqual([record.id]);
    expect(res.body.data.total).toBe(1);
  });

  it('answers one account by id, and 404 for an unknown id', async () => {
    const id = await adminId();
    const one = await t.get(`/dev-api/user/detail?id=${id}`);
    expect(one.body.data).toMatchObject({ id, username: 'admin', roles: ['admin'] });
    expect(one.body.data).not.toHaveProperty('passwordHash');
    const missing = await t.get('/dev-api/user/detail?id=999999');
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('Account 999999 does not exist');
  });

  it('refuses an unknown sort field, naming it', async () => {
    const res = await t.get('/dev-api/user/list?sort=passwordHash');
    expect(res.status).toBe(400);
    expect(res.body.data.errors[0].field).toBe('sort');
  });
});

describe('POST /dev-api/user/add', () => {
  it('adds an account that can log in with the password given; the answer has no password', async () => {
    const username = uname('new');
    const res = await postAdd(username, { name: 'New operator' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ username, name: 'New operator', roles: ['user'] });
    expect(res.body.data).not.toHaveProperty('password');
    expect(res.body.data).not.toHaveProperty('passwordHash');
    const stored = await t.app.db
      .selectFrom('accounts')
      .select('passwordHash')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    // the cost of this run (SCRYPT_COST, vitest.config.ts; 16384 outside tests), r=8, p=1
    expect(stored.passwordHash.startsWith(`scrypt$${scryptCost()}$8$1$`)).toBe(true);
    const ok = await login(username, 'a long password');
    expect(ok.body.code).toBe(0);
    const info = await t.get('/dev-api/user/info', ok.body.data.token);
    expect(info.body.data).toMatchObject({ roles: ['user'], account: username, name: 'New operator' });
    expect((await login(username, 'wrong password')).status).toBe(401);
  });

  it.each([
    [{ roles: [] }, 'roles', 'minItems'],
    [{ roles: ['root'] }, 'roles.0', 'enum'],
    [{ roles: 'admin' }, 'roles', 'type'],
    [{ roles: ['user', 'user'] }, 'roles', 'uniqueItems'],
    [{ password: 'short' }, 'password', 'minLength'],
    [{ username: '1abc' }, 'username', 'pattern'],
    [{ name: '' }, 'name', 'minLength'],
    [{ passwordHash: 'scrypt$1' }, 'passwordHash', 'additionalProperties'],
    [{ id: 5 }, 'id', 'false schema'],
  ])('refuses %j, naming the field', async (patch, field, keyword) => {
    const username = uname('bad');
    const res = await postAdd(username, { name: 'X', ...patch });
    expect(res.status).toBe(400);
    expect(res.body.data.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ field, keyword })]),
    );
    const none = await t.get(`/dev-api/user/list?q=${username}`);
    expect(none.body.data.total).toBe(0);
  });

  it('refuses a missing password and a taken username (409 naming username)', async () => {
    const missing = await t.post('/dev-api/user/add', { username: uname(), roles: ['user'], name: 'X' });
    expect(missing.status).toBe(400);
    expect(missing.body.data.errors[0]).toMatchObject({ field: 'password', keyword: 'required' });
    const taken = await postAdd('admin', { name: 'X' });
    expect(taken.status).toBe(409);
    expect(taken.body.data.errors[0]).toMatchObject({ field: 'username', keyword: 'unique' });
  });
});

describe('POST /dev-api/user/update and delete', () => {
  it('updates the name; 404 for an unknown id', async () => {
    const { record, token } = await addAccount(['user']);
    const res = await t.post('/dev-api/user/update', { id: record.id, name: 'Renamed' });
    expect(res.body.data).toMatchObject({ id: record.id, name: 'Renamed', roles: ['user'] });
    // A change of name only keeps the account's sessions.
    expect((await t.get('/dev-api/user/info', token)).body.data.name).toBe('Renamed');
    const missing = await t.post('/dev-api/user/update', { id: 999999, name: 'X' });
    expect(missing.status).toBe(404);
  });

  it('sets a new password: the old one and the account sessions stop working', async () => {
    const { record, token, password } = await addAccount(['user']);
    const res = await t.post('/dev-api/user/update', { id: record.id, password: 'another password' });
    expect(res.status).toBe(200);
    expect((await t.get('/dev-api/user/info', token)).body.code).toBe(2);
    expect((await login(record.username, password)).status).toBe(401);
    expect((await login(record.username, 'another password')).body.code).toBe(0);
  });

  it('deletes an account: it can no longer log in and its token answers code 2; 404 for an unknown id', async () => {
    const { record, token, password } = await addAccount(['user']);
    const res = await t.post('/dev-api/user/delete', { id: record.id });
    expect(res.body).toMatchObject({ code: 0, data: { ids: [record.id] } });
    const after = await t.get('/dev-api/user/info', token);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe(2);
    expect((await login(record.username, password)).status).toBe(401);
    const missing = await t.post('/dev-api/user/delete', { id: record.id });
    expect(missing.status).toBe(404);
  });

  it('refuses to delete the last admin, naming the field; the admin can still work', async () => {
    await onlyAdminLeft();
    const id = await adminId();
    const res = await t.post('/dev-api/user/delete', { id });
    expect(res.status).toBe(409);
    expect(res.body.msg).toMatch(/"admin" is the last account with the admin role/);
    expect(res.body.data.errors[0]).toMatchObject({ field: 'id', keyword: 'lastAdmin' });
    expect((await t.get('/dev-api/user/list')).status).toBe(200);
  });

  it('refuses to demote the last admin through update, naming roles', async () => {
    await onlyAdminLeft();
    const id = await adminId();
    const res = await t.post('/dev-api/user/update', { id, roles: ['user'] });
    expect(res.status).toBe(409);
    expect(res.body.data.errors[0]).toMatchObject({ field: 'roles', keyword: 'lastAdmin' });
    const one = await t.get(`/dev-api/user/detail?id=${id}`);
    expect(one.body.data.roles).toEqual(['admin']);
  });

  it('allows removing an admin while another remains, and refuses deleting every admin at once', async () => {
    const second = await addAccount(['admin']);
    const id = await adminId();
    const both = await t.post('/dev-api/user/delete', { ids: [id, second.record.id] });
    expect(both.status).toBe(409);
    expect(both.body.data.errors[0].field).toBe('id');
    // Nothing was deleted (all-or-nothing).
    expect((await t.get(`/dev-api/user/detail?id=${second.record.id}`)).status).toBe(200);
    const one = await t.post('/dev-api/user/delete', { id: second.record.id });
    expect(one.status).toBe(200);
  });
});

describe('POST /dev-api/user/addAuth and delAuth', () => {
  it('grants a role: after logging in again the account has it', async () => {
    const { record, token, password } = await addAccount(['user']);
    const res = await t.post('/dev-api/user/addAuth', { id: record.id, role: 'admin' });
    expect(res.body.data.roles).toEqual(['user', 'admin']);
    // The roles changed: the old session ended.
    expect((await t.get('/dev-api/user/info', token)).body.code).toBe(2);
    const fresh = (await login(record.username, password)).body.data.token;
    expect((await t.get('/dev-api/user/list', fresh)).status).toBe(200);
  });

  it("a demoted account's token loses the admin calls at once", async () => {
    const { record, token } = await addAccount(['admin', 'user']);
    expect((await t.get('/dev-api/user/list', token)).status).toBe(200);
    const res = await t.post('/dev-api/user/delAuth', { id: record.id, role: 'admin' });
    expect(res.body.data.roles).toEqual(['user']);
    const refused = await t.get('/dev-api/user/list', token);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe(2);
    const write = await t.call({
      method: 'POST',
      url: '/artmanager/authors/addAuthors',
      payload: { authorName: 'Not by a demoted admin' },
      token,
    });
    expect(write.status).toBe(401);
  });

  it('demoting through update ends the sessions too', async () => {
    const { record, token } = await addAccount(['admin']);
    await t.post('/dev-api/user/update', { id: record.id, roles: ['user'] });
    expect((await t.get('/dev-api/user/list', token)).body.code).toBe(2);
  });

  it('refuses to revoke admin from the last admin, and an account keeps one role', async () => {
    await onlyAdminLeft();
    const id = await adminId();
    const last = await t.post('/dev-api/user/delAuth', { id, role: 'admin' });
    expect(last.status).toBe(409);
    expect(last.body.data.errors[0]).toMatchObject({ field: 'roles', keyword: 'lastAdmin' });
    const { record } = await addAccount(['user']);
    const only = await t.post('/dev-api/user/delAuth', { id: record.id, role: 'user' });
    expect(only.status).toBe(400);
    expect(only.body.data.errors[0]).toMatchObject({ field: 'role', keyword: 'minItems' });
  });

  it.each(['/dev-api/user/addAuth', '/dev-api/user/delAuth'])(
    '%s: unknown role and missing id are refused naming the field; unknown id is 404',
    async (url) => {
      const bad = await t.call({ method: 'POST', url, payload: { id: 1, role: 'root' } });
      expect(bad.status).toBe(400);
      expect(bad.body.data.errors[0].field).toBe('role');
      const noId = await t.call({ method: 'POST', url, payload: { role: 'user' } });
      expect(noId.body.data.errors[0]).toMatchObject({ field: 'id', keyword: 'required' });
      const missing = await t.call({ method: 'POST', url, payload: { id: 999999, role: 'user' } });
      expect(missing.status).toBe(404);
    },
  );
});

describe('POST /dev-api/user/password (own password)', () => {
  it('changes the password with the current one; ends the other sessions, keeps this one', async () => {
    const { record, token, password } = await addAccount(['user']);
    const other = (await login(record.username, password)).body.data.token;
    const res = await t.call({
      method: 'POST',
      url: '/dev-api/user/password',
      payload: { oldPassword: password, newPassword: 'my new password' },
      token,
    });
    expect(res.body).toMatchObject({ code: 0, msg: 'password changed' });
    expect((await t.get('/dev-api/user/info', token)).body.code).toBe(0);
    expect((await t.get('/dev-api/user/info', other)).body.code).toBe(2);
    expect((await login(record.username, password)).status).toBe(401);
    expect((await login(record.username, 'my new password')).body.code).toBe(0);
  });

  it('refuses a wrong current password (naming oldPassword) and a short new one (naming newPassword)', async () => {
    const { token, password, record } = await addAccount(['user']);
    const wrong = await t.call({
      method: 'POST',
      url: '/dev-api/user/password',
      payload: { oldPassword: 'not it', newPassword: 'my new password' },
      token,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.data.errors[0]).toMatchObject({ field: 'oldPassword' });
    const short = await t.call({
      method: 'POST',
      url: '/dev-api/user/password',
      payload: { oldPassword: password, newPassword: 'short' },
      token,
    });
    expect(short.status).toBe(400);
    expect(short.body.data.errors[0]).toMatchObject({ field: 'newPassword', keyword: 'minLength' });
    expect((await login(record.username, password)).body.code).toBe(0);
  });

  it('needs a signed-in account (401 without a token) and works for the admin too', async () => {
    const none = await t.post(
      '/dev-api/user/password',
      { oldPassword: 'x', newPassword: 'my new password' },
      null,
    );
    expect(none.status).toBe(401);
    const second = await addAccount(['admin']);
    const res = await t.post(
      '/dev-api/user/password',
      { oldPassword: second.password, newPassword: 'admin new password' },
      second.token,
    );
    expect(res.body.code).toBe(0);
    expect(ADMIN_PASSWORD).not.toBe('admin new password');
  });
});

describe('GET /dev-api/user/roles (the role matrix)', () => {
  it('lists the calls each role opens, from the routes role gates', async () => {
    const res = await t.get('/dev-api/user/roles');
    expect(res.status).toBe(200);
    const byRole = Object.fromEntries(
      res.body.data.roles.map((r: { role: string; calls: { method: string; path: string }[] }) => [
        r.role,
        r.calls.map((c) => `${c.method} ${c.path}`),
      ]),
    );
    expect(Object.keys(byRole)).toEqual(['admin', 'user', 'company']);
    // A company's administrators: their inbox, not the operators' calls.
    expect(byRole.company).toContain('GET /medicine-api/message/getList');
    expect(byRole.company).not.toContain('GET /medicine-api/company/getList');
    expect(byRole.admin).toEqual(
      expect.arrayContaining(['GET /dev-api/user/list', 'POST /dev-api/user/add']),
    );
    expect(byRole.user).not.toContain('GET /dev-api/user/list');
    expect(byRole.user).toContain('GET /baas-api/channels');
    // Calls open to any signed-in account are in both.
    expect(byRole.user).toContain('POST /dev-api/user/password');
    expect(byRole.admin).toContain('POST /dev-api/user/password');
    // Every call the user role opens, admin opens too.
    for (const c of byRole.user) expect(byRole.admin).toContain(c);
  });
});

describe('roles: every account call is for admins only', () => {
  const calls: GuardedCall[] = [
    { method: 'GET', url: () => '/dev-api/user/list' },
    { method: 'GET', url: () => '/dev-api/user/detail?id=1' },
    { method: 'GET', url: () => '/dev-api/user/roles' },
    {
      method: 'POST',
      url: () => '/dev-api/user/add',
      payload: () => ({ username: uname(), password: 'a long password', roles: ['admin'], name: 'X' }),
    },
    { method: 'POST', url: () => '/dev-api/user/update', payload: () => ({ id: 1, roles: ['user'] }) },
    { method: 'POST', url: () => '/dev-api/user/delete', payload: () => ({ id: 1 }) },
    { method: 'POST', url: () => '/dev-api/user/addAuth', payload: () => ({ id: 2, role: 'admin' }) },
    { method: 'POST', url: () => '/dev-api/user/delAuth', payload: () => ({ id: 1, role: 'admin' }) },
  ];
  it.each(calls.map((c) => [`${c.method} ${c.url().split('?')[0]}`, c] as const))(
    '%s: 401 without a token, 403 for role user',
    async (_name, c) => {
      await expectAdminOnly(t, c);
      // Nothing changed: the user account still has only its role, admin still admin.
      const list = await t.get('/dev-api/user/list?q=user');
      expect(list.body.data.list.find((a: { username: string }) => a.username === 'user').roles).toEqual([
        'user',
      ]);
    },
  );
});

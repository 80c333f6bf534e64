import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenHash } from '../../server/plugins/app/auth';
import { ADMIN_PASSWORD, createTestApp, USER_PASSWORD, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ loginRateLimit: 1000 });
});
afterAll(() => t.close());

describe('/dev-api/user', () => {
  it('logs in with a trimmed username and answers a 256-bit token', async () => {
    const res = await t.post('/dev-api/user/login', { username: '  user ', password: USER_PASSWORD }, null);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(Buffer.from(res.body.data.token, 'base64url').length).toBeGreaterThanOrEqual(16);
  });

  it('refuses a wrong password with 401 and no token', async () => {
    const res = await t.post('/dev-api/user/login', { username: 'admin', password: 'nope' }, null);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 401, msg: 'Incorrect username or password', data: null });
  });

  it('refuses a login body with an unknown field, naming it', async () => {
    const res = await t.post(
      '/dev-api/user/login',
      { username: 'admin', password: 'x', remember: true },
      null,
    );
    expect(res.status).toBe(400);
    expect(res.body.data.errors[0]).toMatchObject({ field: 'remember', keyword: 'additionalProperties' });
  });

  it('answers info for the token in the query, as the product calls it', async () => {
    const res = await t.get(`/dev-api/user/info?token=${t.userToken}`, null);
    expect(res.body).toMatchObject({ code: 0, data: { roles: ['user'], account: 'user', name: 'Operator' } });
  });

  it('answers 401 without a token and code 2 for an unknown token', async () => {
    expect((await t.get('/dev-api/user/info', null)).body.code).toBe(401);
    const res = await t.get('/dev-api/user/info', 'not-a-token');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(2);
  });

  it('revokes the token on logout: the next call answers code 2', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD);
    expect((await t.post('/dev-api/user/logout', undefined, token)).body.code).toBe(0);
    const after = await t.get('/artmanager/authors/getList', token);
    expect(after.body.code).toBe(2);
  });

  it('switches an admin to a user-scoped token that the registry then refuses, and revokes the old one', async () => {
    const old = await t.login('admin', ADMIN_PASSWORD);
    const sw = await t.post('/dev-api/user/switchRole', { role: 'user' }, old);
    expect(sw.body).toMatchObject({ code: 0, data: { roles: ['user'] } });
    expect((await t.get('/artmanager/authors/getList', sw.body.data.token)).status).toBe(403);
    expect((await t.get('/dev-api/user/info', old)).body.code).toBe(2);
  });

  it('refuses a user switching to admin, and a role-name token', async () => {
    const sw = await t.post('/dev-api/user/switchRole', { role: 'admin' }, t.userToken);
    expect(sw.status).toBe(403);
    const guess = await t.get('/artmanager/authors/getList', 'admin-token');
    expect(guess.body.code).toBe(2);
  });
});

describe('token expiry', () => {
  it('an expired token answers code 2, and is deleted when the next token is issued', async () => {
    const login = await t.post('/dev-api/user/login', { username: 'user', password: USER_PASSWORD }, null);
    const token = login.body.data.token as string;
    await t.app.db
      .updateTable('tokens')
      .set({ expireTime: '2000-01-01 00:00:00' })
      .where('tokenHash', '=', tokenHash(token))
      .execute();
    const res = await t.get('/dev-api/user/info', token);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(2);
    await t.post('/dev-api/user/login', { username: 'user', password: USER_PASSWORD }, null);
    const left = await t.app.db
      .selectFrom('tokens')
      .select('tokenHash')
      .where('tokenHash', '=', tokenHash(token))
      .execute();
    expect(left).toEqual([]);
  });
});

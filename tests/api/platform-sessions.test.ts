/**
 * The platform users' sign-in and sessions (`/app-api/user/login|info|password|logout`,
 * server/routes/app-api/user/index.ts), and what the console's Platform users calls
 * (`POST /artmanager/admin/user/selectPageUser|getUerById`) show of them: login count and last login
 * equal the count and the latest start of the user's sessions. A bid user's initial password is its
 * phone number and must be changed at first login. Each call: success, invalid input, each kind of
 * token (none, a console account's, a platform user's), unknown account. SQLite and, with
 * TEST_DATABASE_URL, PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ loginRateLimit: 10_000 });
});
afterAll(() => t?.close());

let seq = 0;
/** A new bid user (as the operator creates it: phone, nickname); answers its record. */
async function newBidUser(nickname = 'Collector') {
  const phone = `139${String(Date.now()).slice(-6)}${String(++seq).padStart(2, '0')}`;
  const r = await t.post('/artmanager/subjects/insertUser', { phone, nickname: `${nickname} ${seq}` });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as { id: number; phone: string; account: string; nickname: string; uid: string };
}

const appLogin = (account: string, password: string) =>
  t.post('/app-api/user/login', { account, password }, null);

const changePassword = (token: string, oldPassword: string, newPassword: string) =>
  t.call({ method: 'POST', url: '/app-api/user/password', payload: { oldPassword, newPassword }, token });

/** The platform user as the console lists and shows it. */
async function shown(account: string) {
  const list = await t.post('/artmanager/admin/user/selectPageUser', { q: account });
  expect(list.status).toBe(200);
  const row = (list.body.data.list as { id: number; account: string }[]).find((u) => u.account === account);
  if (!row) return undefined;
  const one = await t.post('/artmanager/admin/user/getUerById', { id: row.id });
  expect(one.body.data).toEqual(row);
  return one.body.data as { id: number; loginCount: number; lastLoginTime: string | null; uid: string };
}

/** The user's sessions, from the table itself. */
async function sessions(platformUserId: number) {
  return t.app.db
    .selectFrom('platform_sessions')
    .selectAll()
    .where('platformUserId', '=', platformUserId)
    .orderBy('createTime')
    .execute();
}

describe('POST /app-api/user/login', () => {
  it('a bid user signs in with the phone number as initial password, must change it, and becomes a platform user', async () => {
    const bid = await newBidUser();
    expect(await shown(bid.account)).toBeUndefined();
    const r = await appLogin(bid.account, bid.phone);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      mustChangePassword: 1,
      user: { account: bid.account, uid: bid.uid, nickname: bid.nickname, loginCount: 1 },
    });
    expect(r.body.data.user).not.toHaveProperty('passwordHash');
    const user = await shown(bid.account);
    expect(user).toMatchObject({ loginCount: 1, uid: bid.uid });
    const rows = await sessions(user!.id);
    expect(rows).toHaveLength(1);
    expect(user!.lastLoginTime).toBe(rows[0].createTime);
    expect(rows[0].tokenHash).not.toBe(r.body.data.token);
  });

  it('a wrong password and an unknown account are refused alike, and no session is recorded', async () => {
    const bid = await newBidUser();
    const wrong = await appLogin(bid.account, 'not the phone');
    const unknown = await appLogin('nobody-here', 'whatever');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.msg).toBe('Incorrect username or password');
    expect(await shown(bid.account)).toBeUndefined();
  });

  it.each([
    [{}, 'account'],
    [{ account: 'x' }, 'password'],
    [{ account: '', password: 'x' }, 'account'],
    [{ account: 'x', password: 'y', extra: 1 }, 'extra'],
  ])('refuses %j naming %s', async (payload, field) => {
    const r = await t.post('/app-api/user/login', payload, null);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body.data.errors)).toContain(field);
  });
});

describe('login count and last login are those of the sessions', () => {
  it('three sign-ins: count 3, last login the latest session; the console list sorts by them', async () => {
    const a = await newBidUser('Frequent');
    const b = await newBidUser('Rare');
    for (let i = 0; i < 3; i++) expect((await appLogin(a.account, a.phone)).status).toBe(200);
    expect((await appLogin(b.account, b.phone)).status).toBe(200);
    const ua = (await shown(a.account))!;
    const rows = await sessions(ua.id);
    expect(ua.loginCount).toBe(3);
    expect(rows).toHaveLength(3);
    expect(ua.lastLoginTime).toBe(rows.at(-1)!.createTime);
    // The bid user's own figures are the same sessions.
    const bidRow = await t.app.db
      .selectFrom('bid_users')
      .select(['loginCount', 'lastLoginTime'])
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(bidRow).toEqual({ loginCount: 3, lastLoginTime: ua.lastLoginTime });
    const sorted = await t.post('/artmanager/admin/user/selectPageUser', {
      ids: [ua.id, (await shown(b.account))!.id],
      sort: 'loginCount',
      order: 'DESC',
    });
    expect(sorted.body.data.list.map((u: { loginCount: number }) => u.loginCount)).toEqual([3, 1]);
  });

  it('concurrent sign-ins of one user are all counted', async () => {
    const bid = await newBidUser('Busy');
    const answers = await Promise.all(Array.from({ length: 6 }, () => appLogin(bid.account, bid.phone)));
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(200));
    const user = (await shown(bid.account))!;
    expect(user.loginCount).toBe(6);
    expect(await sessions(user.id)).toHaveLength(6);
  });
});

describe('GET /app-api/user/info, POST /app-api/user/password and logout', () => {
  it('info refuses until the initial password is changed; the change ends the other sessions and keeps this one', async () => {
    const bid = await newBidUser();
    const first = (await appLogin(bid.account, bid.phone)).body.data.token as string;
    const second = (await appLogin(bid.account, bid.phone)).body.data.token as string;
    const refused = await t.get('/app-api/user/info', first);
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('Change the initial password first (POST /app-api/user/password)');
    const changed = await changePassword(first, bid.phone, 'a new secret 1');
    expect(changed.body).toMatchObject({ code: 0, msg: 'password changed' });
    const info = await t.get('/app-api/user/info', first);
    expect(info.status).toBe(200);
    expect(info.body.data).toMatchObject({ account: bid.account, loginCount: 2 });
    expect((await t.get('/app-api/user/info', second)).body.code).toBe(2);
    // The phone number no longer signs in; the new password does, without the must-change flag.
    expect((await appLogin(bid.account, bid.phone)).status).toBe(401);
    const again = await appLogin(bid.account, 'a new secret 1');
    expect(again.body.data.mustChangePassword).toBe(0);
    const bidUser = await t.get(`/artmanager/bidUser/getInfo?id=${bid.id}`);
    expect(bidUser.body.data.mustChangePassword).toBe(0);
  });

  it('password: a wrong current password, a short one or the same one are refused naming the field; nothing changes', async () => {
    const bid = await newBidUser();
    const token = (await appLogin(bid.account, bid.phone)).body.data.token as string;
    // The phone number has 11 digits: as a new password it is long enough, but it is the current one.
    for (const [oldPassword, newPassword, field, keyword] of [
      ['wrong', 'a long new one', 'oldPassword', 'password'],
      [bid.phone, 'short', 'newPassword', 'minLength'],
      [bid.phone, bid.phone, 'newPassword', 'samePassword'],
    ] as const) {
      const r = await changePassword(token, oldPassword, newPassword);
      expect(r.status).toBe(400);
      expect(r.body.data.errors[0]).toMatchObject({ field, keyword });
    }
    expect((await appLogin(bid.account, bid.phone)).status).toBe(200);
  });

  it('logout ends the session: its token then answers code 2', async () => {
    const bid = await newBidUser();
    const token = (await appLogin(bid.account, bid.phone)).body.data.token as string;
    const out = await t.post('/app-api/user/logout', undefined, token);
    expect(out.body.code).toBe(0);
    const after = await changePassword(token, bid.phone, 'a long new one');
    expect(after.status).toBe(401);
    expect(after.body.code).toBe(2);
  });
});

describe('tokens: each kind opens its own calls only', () => {
  it.each([
    ['GET', '/app-api/user/info', undefined],
    ['POST', '/app-api/user/password', { oldPassword: 'x', newPassword: 'long enough' }],
    ['POST', '/app-api/user/logout', undefined],
  ] as const)(
    '%s %s: 401 without a token (before the input is read), code 2 with a console token',
    async (method, url, payload) => {
      const none = await t.call({
        method,
        url,
        payload: payload ?? (method === 'POST' ? {} : undefined),
        token: null,
      });
      expect(none.status).toBe(401);
      expect(none.body.code).toBe(401);
      for (const token of [t.adminToken, t.userToken]) {
        const r = await t.call({ method, url, payload, token });
        expect(r.status).toBe(401);
        expect(r.body.code).toBe(2);
      }
    },
  );

  it("a platform user's token opens no console call", async () => {
    const bid = await newBidUser();
    const token = (await appLogin(bid.account, bid.phone)).body.data.token as string;
    for (const [method, url] of [
      ['GET', '/dev-api/user/info'],
      ['POST', '/artmanager/admin/user/selectPageUser'],
      ['GET', '/baas-api/channels'],
    ] as const) {
      const r = await t.call({ method, url, payload: method === 'POST' ? {} : undefined, token });
      expect(r.status, url).toBe(401);
      expect(r.body.code).toBe(2);
    }
  });

  it('getUerById of an unknown platform user is 404', async () => {
    const r = await t.post('/artmanager/admin/user/getUerById', { id: 999999 });
    expect(r.status).toBe(404);
  });
});

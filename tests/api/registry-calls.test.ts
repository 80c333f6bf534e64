/**
 * The product's registry calls on the product's paths (issue 8, "Art registry"), each with success,
 * invalid input, each role (401 without a token, 403 for role user) and an unknown id, on SQLite and, with
 * TEST_DATABASE_URL, PostgreSQL: authors/createWx; artwork/ArtCertificate|ArtSecurity|ArtOther|
 * searchUserId; subjects/insertUser|getUserList|artworkListByCurrentUserId|searchUserList; the list
 * filters the console's filter button sends. The file calls (uploads, pictures, certificates, oss) are in
 * registry-files.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../../server/plugins/app/password';
import { expectAdminOnly, type GuardedCall } from './helpers';
import { artId, authorId, newArtwork, setUpRegistryApp, t } from './registryApp';

setUpRegistryApp();

describe('every call is admin-only (401 without a token, 403 for role user)', () => {
  const calls: GuardedCall[] = [
    { method: 'POST', url: () => '/artmanager/authors/addHeadPic' },
    { method: 'POST', url: () => '/artmanager/authors/createWx', payload: () => ({ id: authorId }) },
    { method: 'POST', url: () => '/artmanager/artwork/addPicture' },
    { method: 'POST', url: () => '/artmanager/artwork/deletePicture', payload: () => ({ artId, url: '/x' }) },
    { method: 'POST', url: () => '/artmanager/artwork/ArtCertificate', payload: () => ({ id: artId }) },
    { method: 'POST', url: () => '/artmanager/artwork/ArtSecurity', payload: () => ({ id: artId }) },
    { method: 'POST', url: () => '/artmanager/artwork/ArtOther', payload: () => ({ id: artId }) },
    { method: 'GET', url: () => '/artmanager/artwork/searchUserId?q=1' },
    {
      method: 'POST',
      url: () => '/artmanager/subjects/insertUser',
      payload: () => ({ phone: '13800000000' }),
    },
    { method: 'GET', url: () => '/artmanager/subjects/getUserList' },
    { method: 'GET', url: () => `/artmanager/subjects/artworkListByCurrentUserId?id=1` },
    { method: 'POST', url: () => '/artmanager/subjects/searchUserList', payload: () => ({ q: '1' }) },
    { method: 'POST', url: () => '/artmanager/traceability/addTraceabilityCert' },
    { method: 'GET', url: () => '/artmanager/oss/dir' },
    { method: 'GET', url: () => '/artmanager/oss/dir/artworks' },
    { method: 'POST', url: () => '/artmanager/oss/sign', payload: () => ({}) },
    { method: 'POST', url: () => '/artmanager/upload?resource=artworks&field=images' },
  ];
  it.each(calls.map((c) => [`${c.method} ${c.url().split('?')[0]}`, c] as const))('%s', async (_n, c) => {
    await expectAdminOnly(t, c);
  });
});

describe('POST /artmanager/authors/createWx', () => {
  it('generates wxCode and wxUrl (the public verification page) and enables it', async () => {
    const r = await t.post('/artmanager/authors/createWx', { id: authorId });
    expect(r.status).toBe(200);
    expect(r.body.data.wxCode).toMatch(/^WX[0-9A-F]{16}$/);
    expect(r.body.data.wxUrl).toMatch(new RegExp(`^http://[^/]+/#/verify/author/${authorId}$`));
    expect(r.body.data.wxIsEnable).toBe(1);
    expect(r.body.data.wxCreateTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const again = await t.post('/artmanager/authors/createWx', { id: authorId });
    expect(again.body.data.wxCode).not.toBe(r.body.data.wxCode);
  });

  it('wxIsEnable switches it off through updateInfo', async () => {
    const r = await t.post('/artmanager/authors/updateInfo', { id: authorId, wxIsEnable: 0 });
    expect(r.body.data.wxIsEnable).toBe(0);
    expect(r.body.data.wxUrl).toMatch(/#\/verify\/author\//);
  });

  it('an invalid id → 400; an unknown id → 404', async () => {
    const a = await t.post('/artmanager/authors/createWx', { id: 'x' });
    expect(a.status).toBe(400);
    expect(a.body.data.errors[0].field).toBe('id');
    const b = await t.post('/artmanager/authors/createWx', { id: 999999 });
    expect(b.status).toBe(404);
  });
});

describe('section calls: ArtCertificate, ArtSecurity, ArtOther (the update, narrowed)', () => {
  it.each([
    [
      'ArtCertificate',
      {
        certificateInfo: { certificateNo: 'C-1', issuer: 'Tate' },
        authenticity: { appraisalCertificate: '/uploads/a.pdf' },
      },
    ],
    ['ArtSecurity', { securityInfo: { level: 'restricted', rfid: 'RF-9' } }],
    ['ArtOther', { dealInfo: { price: 12.5, currency: 'GBP' }, ownership: { ownerIdentity: 'Museum' } }],
  ])('%s updates its sections only', async (call, body) => {
    const r = await t.post(`/artmanager/artwork/${call}`, { id: artId, ...body });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    for (const [k, v] of Object.entries(body)) expect(r.body.data[k]).toMatchObject(v);
    expect(r.body.data.artWorkName).toBe('Shrimps');
  });

  it.each([
    ['ArtCertificate', { artWorkName: 'renamed' }, 'artWorkName'],
    ['ArtSecurity', { certificateInfo: {} }, 'certificateInfo'],
    ['ArtOther', { securityInfo: {} }, 'securityInfo'],
  ])('%s refuses a field of another section (400 naming it)', async (call, body, field) => {
    const r = await t.post(`/artmanager/artwork/${call}`, { id: artId, ...body });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body.data.errors)).toContain(field);
  });

  it('invalid value → 400 naming the nested field; unknown id → 404', async () => {
    const r = await t.post('/artmanager/artwork/ArtSecurity', { id: artId, securityInfo: { level: 'top' } });
    expect(r.status).toBe(400);
    expect(r.body.data.errors[0].field).toBe('securityInfo.level');
    const u = await t.post('/artmanager/artwork/ArtSecurity', { id: 999999, securityInfo: {} });
    expect(u.status).toBe(404);
  });
});

describe('bid users: subjects/insertUser, getUserList, searchUserList, artwork/searchUserId, artworkListByCurrentUserId', () => {
  let bidId = 0;
  it('insertUser creates a bid user whose initial password is the phone number, hashed, to change at first login', async () => {
    const r = await t.post('/artmanager/subjects/insertUser', {
      phone: '13912345678',
      nickname: 'Collector Li',
      avatar: '/uploads/li.png',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    bidId = r.body.data.id;
    expect(r.body.data).toMatchObject({
      phone: '13912345678',
      account: '13912345678',
      nickname: 'Collector Li',
      mustChangePassword: 1,
    });
    expect(r.body.data.uid).toMatch(/^U[0-9a-f]{12}$/);
    expect(r.body.data).not.toHaveProperty('passwordHash');
    const row = await t.app.db
      .selectFrom('bid_users')
      .select(['passwordHash'])
      .where('id', '=', bidId)
      .executeTakeFirstOrThrow();
    expect(row.passwordHash).not.toContain('13912345678');
    expect(await verifyPassword('13912345678', row.passwordHash!)).toBe(true);
    expect(await verifyPassword('wrong', row.passwordHash!)).toBe(false);
  });

  it('insertUser: no phone, a bad phone or a read-only field → 400 naming it; a phone taken → 409', async () => {
    const none = await t.post('/artmanager/subjects/insertUser', { nickname: 'x' });
    expect(none.status).toBe(400);
    expect(none.body.data.errors[0].field).toBe('phone');
    const bad = await t.post('/artmanager/subjects/insertUser', { phone: '12ab' });
    expect(bad.status).toBe(400);
    expect(bad.body.data.errors[0]).toMatchObject({ field: 'phone', keyword: 'pattern' });
    const ro = await t.post('/artmanager/subjects/insertUser', {
      phone: '13900000001',
      mustChangePassword: 0,
    });
    expect(ro.status).toBe(400);
    const dup = await t.post('/artmanager/subjects/insertUser', { phone: '13912345678' });
    expect(dup.status).toBe(409);
  });

  it('getUserList (and the old bidUser/getList) list them; searchUserList and searchUserId find them', async () => {
    const list = await t.get('/artmanager/subjects/getUserList');
    expect(list.body.data.list.map((u: { id: number }) => u.id)).toContain(bidId);
    const old = await t.get('/artmanager/bidUser/getList');
    expect(old.body.data).toEqual(list.body.data);
    const s = await t.post('/artmanager/subjects/searchUserList', { q: 'Collector' });
    expect(s.body.data.list).toEqual([expect.objectContaining({ id: bidId })]);
    const s2 = await t.get('/artmanager/artwork/searchUserId?q=139123');
    expect(s2.body.data.list).toEqual([expect.objectContaining({ id: bidId })]);
  });

  it('list calls refuse invalid parameters (400 naming them)', async () => {
    for (const r of [
      await t.get('/artmanager/subjects/getUserList?pageSize=0'),
      await t.post('/artmanager/subjects/searchUserList', { page: 'x' }),
      await t.get('/artmanager/artwork/searchUserId?nope=1'),
    ]) {
      expect(r.status).toBe(400);
      expect(r.body.data.errors.length).toBeGreaterThan(0);
    }
  });

  it('artworkListByCurrentUserId lists the artworks whose bid user is the id; unknown → 404; none → 400', async () => {
    const mine = await newArtwork('Bought', { bid: bidId });
    const r = await t.get(`/artmanager/subjects/artworkListByCurrentUserId?id=${bidId}`);
    expect(r.status).toBe(200);
    expect(r.body.data.list.map((a: { id: number }) => a.id)).toEqual([mine]);
    expect((await t.get('/artmanager/subjects/artworkListByCurrentUserId?id=999999')).status).toBe(404);
    const none = await t.get('/artmanager/subjects/artworkListByCurrentUserId');
    expect(none.status).toBe(400);
    expect(none.body.data.errors[0].field).toBe('id');
  });

  it('getInfo of an unknown bid user → 404', async () => {
    expect((await t.get('/artmanager/bidUser/getInfo?id=999999')).status).toBe(404);
  });
});

describe('list filters the filter button sends', () => {
  it('artworks by status, author, category and on-chain state; authors by on-chain state and wx enabled', async () => {
    const q = (url: string) => t.post('/artmanager/artwork/searchArtworkList', JSON.parse(url));
    const all = (await q('{}')).body.data.total;
    expect((await q(`{"author":${authorId}}`)).body.data.total).toBe(all);
    expect((await q('{"classify":"Ink"}')).body.data.total).toBe(all);
    expect((await q('{"classify":"Oil"}')).body.data.total).toBe(0);
    expect((await q('{"status":0}')).body.data.total).toBe(all);
    expect((await q('{"status":2}')).body.data.total).toBe(0);
    expect((await q('{"isBlock":1}')).body.data.total).toBe(0);
    expect((await q('{"status":7}')).status).toBe(400);
    const other = await t.post('/artmanager/authors/addAuthors', { authorName: 'Other' });
    await t.post('/artmanager/authors/createWx', { id: other.body.data.id });
    const wx = await t.get('/artmanager/authors/getList?wxIsEnable=1');
    expect(wx.body.data.list.map((a: { id: number }) => a.id)).toEqual([other.body.data.id]);
    const off = await t.get('/artmanager/authors/getList?isBlock=0&wxIsEnable=0');
    expect(off.body.data.list.map((a: { id: number }) => a.id)).toContain(authorId);
    expect((await t.get('/artmanager/authors/getList?wxIsEnable=2')).status).toBe(400);
  });
});

describe('docs/registry-calls.md lists every call, and the server answers each', () => {
  it('no listed call (or alias) is missing from the server', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(new URL('../../docs/registry-calls.md', import.meta.url), 'utf8');
    const calls = [...doc.matchAll(/`(GET|POST) (\/artmanager\/[^`{]+)(\{suffix\})?`/g)].map(
      (m) => [m[1], m[2]] as const,
    );
    expect(calls.length).toBeGreaterThanOrEqual(15);
    for (const [method, path] of calls) {
      const r = await t.call({ method, url: path, token: t.userToken });
      // role user: 403 from the call's role gate; a path the server lacks would answer 404.
      expect(r.status, `${method} ${path}`).toBe(403);
    }
  });
});

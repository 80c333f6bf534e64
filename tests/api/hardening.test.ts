/**
 * Review findings, pinned: ids past the 32-bit id range are refused or find nothing (never a 500 on
 * PostgreSQL, whose id columns are 32-bit), a token in the query string works only for /dev-api/user/info,
 * and every guarded call checks the role before the body. (A start with another ADMIN_PASSWORD no longer
 * changes the account: tests/api/bootstrap.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ loginRateLimit: 1000 });
});
afterAll(() => t.close());

const BIG = 3_000_000_000;

describe('ids past the 32-bit range', () => {
  it.each([
    ['GET', `/artmanager/authors/getInfo?id=${BIG}`, undefined],
    ['GET', `/artmanager/artwork/ArtInfoByArtId?artId=${BIG}`, undefined],
    ['POST', '/artmanager/artwork/deleteArt', { ids: [BIG] }],
    ['POST', '/artmanager/authors/updateInfo', { id: BIG, introduction: 'x' }],
    [
      'POST',
      '/artmanager/artwork/addArtwork',
      { artWorkName: 'x', author: BIG, classify: 'x', texture: 'x' },
    ],
    ['POST', '/artmanager/artwork/searchArtworkList', { ids: [BIG] }],
    ['GET', `/artmanager/artwork/searchAuthor?keyword=x`, undefined],
    ['GET', `/baas-api/block?channelId=1&number=${BIG}`, undefined],
    ['GET', `/baas-api/blocks?channelId=${BIG}`, undefined],
    ['POST', '/artmanager/authors/blockChain', { id: BIG }],
  ] as const)(
    '%s %s is refused with 400 naming the field, or finds nothing',
    async (method, url, payload) => {
      const res = await t.call({ method, url, payload: payload as any });
      expect(res.status).not.toBe(500);
      if (res.status === 400) expect(res.body.data.errors[0].keyword).toBe('maximum');
      else expect([200, 404]).toContain(res.status);
    },
  );

  it('a GET list with such an id in `ids` is refused with 400 naming ids (docs/api.md)', async () => {
    const res = await t.get(`/artmanager/authors/getList?ids=${BIG}`);
    expect(res.status).toBe(400);
    expect(res.body.data.errors[0]).toMatchObject({ field: 'ids', keyword: 'pattern' });
  });

  it('searching a 10-digit number past the range finds no block and does not fail', async () => {
    const res = await t.get(`/baas-api/search?q=${BIG}`, t.userToken);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ list: [], total: 0 });
  });
});

describe('where the token may travel', () => {
  it('not in the query string of a write', async () => {
    const res = await t.post(
      `/artmanager/authors/addAuthors?token=${t.adminToken}`,
      { authorName: 'via query' },
      null,
    );
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(401);
  });

  it('in the query string of /dev-api/user/info, as the product calls it', async () => {
    const res = await t.get(`/dev-api/user/info?token=${t.adminToken}`, null);
    expect(res.body).toMatchObject({ code: 0, data: { account: 'admin' } });
  });
});

describe('role before body', () => {
  it.each([
    ['/baas-api/chaincode/approve', { bogus: 1 }],
    ['/artmanager/artwork/blockChain', { bogus: 1 }],
    ['/artmanager/authors/blockChain', { bogus: 1 }],
  ])('POST %s without a token answers 401, whatever the body', async (url, payload) => {
    const res = await t.call({ method: 'POST', url, payload, token: null });
    expect(res.status).toBe(401);
  });

  it('POST /baas-api/chaincode/approve as role user answers 403 before looking at the body', async () => {
    const res = await t.post('/baas-api/chaincode/approve', { bogus: 1 }, t.userToken);
    expect(res.status).toBe(403);
  });
});

describe('security headers', () => {
  it('every answer says nosniff and forbids framing; scripts only from the console itself, no eval', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/artmanager/authors/getList',
      headers: { 'x-token': t.adminToken },
    });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src'));
    expect(scriptSrc?.trim()).toBe("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
  });
});

describe('chaincode lifecycle stands on the ledger', () => {
  it('a chaincode row whose installation is not on the ledger cannot be approved', async () => {
    const channel = await t.app.db
      .selectFrom('ledger_channel' as any)
      .select('id' as any)
      .executeTakeFirst();
    const now = '2026-01-01 00:00:00';
    const { id } = (await t.app.db
      .insertInto('chaincode' as any)
      .values({
        channelId: (channel as any).id,
        name: 'orphan',
        version: '1.0',
        initArgs: '[]',
        args: '[]',
        policy: "OR('Org1MSP.member')",
        function: 'Init',
        functionType: 'invoke',
        fileName: 'orphan.go',
        code: 'package main\n',
        codeHash: '0'.repeat(64),
        status: 'installed',
        history: '[]',
        createdBy: 'admin',
        createTime: now,
        updateTime: now,
      } as any)
      .returning('id' as any)
      .executeTakeFirstOrThrow()) as any;
    const res = await t.post('/baas-api/chaincode/approve', { id });
    expect(res.status).toBe(409);
    expect(res.body.msg).toContain('not on the ledger yet');
  });
});

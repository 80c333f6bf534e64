/**
 * Server messages in the envelope: every refusal carries a message key and params (common/messages), and
 * `msg` follows `Accept-Language` (zh or en; anything else falls back to en).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ledgerBatchSize: 10, ledgerBatchTimeoutMs: 20 });
});
afterAll(async () => t?.close());

const zh = { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' };
const fr = { 'accept-language': 'fr-FR' };

describe('server messages follow Accept-Language', () => {
  it('wrong password', async () => {
    const payload = { username: 'admin', password: 'wrong' };
    const en = await t.post('/dev-api/user/login', payload, null);
    expect(en.body).toMatchObject({
      code: 401,
      msg: 'Incorrect username or password',
      key: 'auth.badCredentials',
    });
    const z = await t.call({ method: 'POST', url: '/dev-api/user/login', payload, token: null, headers: zh });
    expect(z.body).toMatchObject({
      code: 401,
      msg: '用户名或密码错误',
      key: 'auth.badCredentials',
      params: {},
    });
    const f = await t.call({ method: 'POST', url: '/dev-api/user/login', payload, token: null, headers: fr });
    expect(f.body.msg).toBe('Incorrect username or password');
  });

  it('a validation error names the field by its label', async () => {
    const payload = { artWorkName: 'x'.repeat(70), classify: 'painting' };
    const r = await t.call({ method: 'POST', url: '/artmanager/artwork/addArtwork', payload, headers: zh });
    expect(r.status).toBe(400);
    expect(r.body.key).toBe('request.invalid');
    expect(r.body.params).toMatchObject({ part: 'body' });
    expect(r.body.msg).toMatch(/^请求体无效：/);
    expect(r.body.msg).toContain('作品名称：最多 30 个汉字');
    expect(r.body.msg).toContain('作者：必填');
    expect(r.body.data.errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(['artWorkName', 'author']),
    );
  });

  it('author not on chain (409) and a delete refused while referenced (409)', async () => {
    const a = await t.post('/artmanager/authors/addAuthors', { authorName: '齐白石' });
    const w = await t.post('/artmanager/artwork/addArtwork', {
      artWorkName: '虾',
      author: a.body.data.id,
      classify: 'painting',
      texture: 'ink',
    });
    const put = await t.call({
      method: 'POST',
      url: '/artmanager/artwork/blockChain',
      payload: { id: w.body.data.id },
      headers: zh,
    });
    expect(put.status).toBe(409);
    expect(put.body).toMatchObject({ key: 'ledger.authorNotOnChain', params: { authorName: '齐白石' } });
    expect(put.body.msg).toBe(`作者“齐白石”（编号 ${a.body.data.id}）尚未上链：请先将作者上链，再上链其作品`);
    const del = await t.call({
      method: 'POST',
      url: '/artmanager/authors/deleteAuthors',
      payload: { ids: [a.body.data.id] },
      headers: zh,
    });
    expect(del.status).toBe(409);
    expect(del.body.key).toBe('record.deleteReferenced');
    expect(del.body.msg).toMatch(/^无法删除 “齐白石”（1 个作品）：该作者仍有作品/);
  });

  it.each([
    ['unknown record', '/artmanager/authors/getInfo?id=999999', 'record.notFound', '作者 999999 不存在'],
    ['unknown call', '/artmanager/nothing', 'request.noSuchCall', '没有这个接口：GET /artmanager/nothing'],
  ])('%s: 404, its key and the Chinese message', async (_what, url, key, msg) => {
    const r = await t.call({ method: 'GET', url, headers: zh });
    expect(r.body).toMatchObject({ code: 404, msg, key });
  });

  it('token refused, JSON refused', async () => {
    const tok = await t.call({
      method: 'GET',
      url: '/dev-api/user/info',
      token: 'no-such-token',
      headers: zh,
    });
    expect(tok.body).toMatchObject({
      code: 2,
      msg: '登录已过期或已被注销，请重新登录',
      key: 'auth.tokenInvalid',
    });
    const json = await t.call({
      method: 'POST',
      url: '/artmanager/authors/addAuthors',
      payload: '{"authorName": ',
      headers: { ...zh, 'content-type': 'application/json' },
    });
    expect(json.status).toBe(400);
    expect(json.body.msg).toBe('请求体无效：请求：请求体不是有效的 JSON');
  });
});

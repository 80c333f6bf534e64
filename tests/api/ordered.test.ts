/**
 * `x-ordered` (a pair of fields, the first not after the second) refused on create as on update: 400 naming
 * the second field (issue 18: create answered `field: ""`), the message in the caller's language, nothing
 * stored or changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
let authorId: number;
beforeAll(async () => {
  t = await createTestApp();
  authorId = (
    await t.call({ method: 'POST', url: '/artmanager/authors/addAuthors', payload: { authorName: '齐白石' } })
  ).body.data.id;
});
afterAll(async () => t?.close());

const zh = { 'accept-language': 'zh-CN,zh;q=0.9' };
const artwork = (baseInfo: object) => ({
  artWorkName: '墨虾',
  author: authorId,
  classify: 'painting',
  texture: 'ink',
  baseInfo,
});
const total = async () =>
  (await t.call({ method: 'POST', url: '/artmanager/artwork/searchArtworkList', payload: {} })).body.data
    .total;

describe('x-ordered', () => {
  it('create: 400 naming baseInfo.endYear, in English and Chinese, nothing stored', async () => {
    const before = await total();
    const payload = artwork({ startYear: 1950, endYear: 1900 });
    const en = await t.call({ method: 'POST', url: '/artmanager/artwork/addArtwork', payload });
    expect(en.status).toBe(400);
    expect(en.body.data.errors).toEqual([
      expect.objectContaining({
        field: 'baseInfo.endYear',
        keyword: 'x-ordered',
        params: { first: 'startYear', second: 'endYear' },
      }),
    ]);
    expect(en.body.msg).toBe('Invalid body: End year: Start year must not be after End year');
    const z = await t.call({ method: 'POST', url: '/artmanager/artwork/addArtwork', payload, headers: zh });
    expect(z.status).toBe(400);
    expect(z.body.data.errors.map((e: { field: string }) => e.field)).toEqual(['baseInfo.endYear']);
    expect(z.body.msg).toBe('请求体无效：结束年份：起始年份 不能晚于 结束年份');
    expect(await total()).toBe(before);
  });

  it('update: the same field, and the stored record unchanged', async () => {
    const created = await t.call({
      method: 'POST',
      url: '/artmanager/artwork/addArtwork',
      payload: artwork({ startYear: 1940, endYear: 1948 }),
    });
    expect(created.status).toBe(200);
    const id = created.body.data.id;
    const res = await t.call({
      method: 'POST',
      url: '/artmanager/artwork/baseInfo',
      payload: { id, baseInfo: { startYear: 1950, endYear: 1900 } },
      headers: zh,
    });
    expect(res.status).toBe(400);
    expect(res.body.data.errors.map((e: { field: string }) => e.field)).toEqual(['baseInfo.endYear']);
    const stored = await t.call({ method: 'GET', url: `/artmanager/artwork/ArtInfoByArtId?artId=${id}` });
    expect(stored.body.data.baseInfo).toMatchObject({ startYear: 1940, endYear: 1948 });
  });
});

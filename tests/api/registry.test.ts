/**
 * Every `/artmanager` call: success, invalid input, missing token, user-role refusal, unknown id; and that
 * a refused call leaves what is stored as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type GuardedCall,
  type TestApp,
  addArtwork,
  callName,
  createTestApp,
  expectAdminOnly,
} from './helpers';

let t: TestApp;
let authorId: number;
let artworkId: number;

beforeAll(async () => {
  t = await createTestApp();
  const a = await t.post('/artmanager/authors/addAuthors', {
    authorName: '齐白石',
    introduction: '1864–1957',
  });
  authorId = a.body.data.id;
  const w = await t.call({
    method: 'POST',
    url: '/artmanager/artwork/addArtwork',
    payload: {
      artWorkName: '墨虾',
      author: authorId,
      classify: 'painting',
      texture: 'Ink on paper',
      images: ['https://example.org/a.jpg'],
      baseInfo: { size: '100 x 34 cm', startYear: 1948, endYear: 1948 },
    },
  });
  artworkId = w.body.data.id;
});
afterAll(() => t.close());

const CALLS: GuardedCall[] = [
  { method: 'GET', url: () => '/artmanager/authors/getList' },
  { method: 'POST', url: () => '/artmanager/authors/authorSearch', payload: () => ({}) },
  { method: 'GET', url: () => `/artmanager/authors/getInfo?id=${authorId}` },
  { method: 'GET', url: () => `/artmanager/authors/getArtworkList?id=${authorId}` },
  { method: 'POST', url: () => '/artmanager/authors/addAuthors', payload: () => ({ authorName: 'x' }) },
  {
    method: 'POST',
    url: () => '/artmanager/authors/updateInfo',
    payload: () => ({ id: authorId, introduction: 'x' }),
  },
  { method: 'POST', url: () => '/artmanager/authors/deleteAuthors', payload: () => ({ id: authorId }) },
  { method: 'POST', url: () => '/artmanager/artwork/searchArtworkList', payload: () => ({}) },
  { method: 'GET', url: () => `/artmanager/artwork/ArtInfoByArtId?artId=${artworkId}` },
  {
    method: 'POST',
    url: () => '/artmanager/artwork/addArtwork',
    payload: () => ({ artWorkName: 'x', author: authorId, classify: 'x', texture: 'x' }),
  },
  {
    method: 'POST',
    url: () => '/artmanager/artwork/baseInfo',
    payload: () => ({ id: artworkId, possessor: 'x' }),
  },
  { method: 'POST', url: () => '/artmanager/artwork/deleteArt', payload: () => ({ id: artworkId }) },
  { method: 'GET', url: () => '/artmanager/artwork/searchAuthor?keyword=x' },
  { method: 'GET', url: () => '/artmanager/artSort/artcateList' },
  { method: 'GET', url: () => '/artmanager/bidUser/getList' },
  { method: 'GET', url: () => '/artmanager/user/getList' },
  { method: 'GET', url: () => '/artmanager/dashboard/stats' },
];

describe('roles are enforced by the server', () => {
  it.each(CALLS.map((c) => [callName(c), c] as const))(
    '%s: 401 without token, 403 for role user',
    (_name, c) => expectAdminOnly(t, c),
  );
});

describe('authors', () => {
  it('lists with paging, free text and sort', async () => {
    await t.post('/artmanager/authors/addAuthors', { authorName: 'Joseph Mallord William Turner' });
    const all = await t.get('/artmanager/authors/getList?page=1&pageSize=1&sort=authorName&order=ASC');
    expect(all.body.data.total).toBeGreaterThanOrEqual(2);
    expect(all.body.data.list).toHaveLength(1);
    expect(all.body.data.list[0].authorName).toBe('Joseph Mallord William Turner');
    const q = await t.get(`/artmanager/authors/getList?q=${encodeURIComponent('白石')}`);
    expect(q.body.data.list.map((a: any) => a.authorName)).toEqual(['齐白石']);
    expect(q.body.data.list[0].artWorks).toBe(1);
    const s = await t.post('/artmanager/authors/authorSearch', { q: 'turner', pageSize: 10 });
    expect(s.body.data.list.map((a: any) => a.authorName)).toEqual(['Joseph Mallord William Turner']);
  });

  it('matches % and _ in free text literally', async () => {
    const res = await t.get('/artmanager/authors/getList?q=%25');
    expect(res.body.data.total).toBe(0);
  });

  it('refuses pageSize over 100 and an unknown query parameter, naming them', async () => {
    const big = await t.get('/artmanager/authors/getList?pageSize=101');
    expect(big.status).toBe(400);
    expect(big.body.data.errors[0]).toMatchObject({ field: 'pageSize', keyword: 'maximum' });
    const unk = await t.get('/artmanager/authors/getList?colour=red');
    expect(unk.body.data.errors[0]).toMatchObject({ field: 'colour', keyword: 'additionalProperties' });
    const sort = await t.get('/artmanager/authors/getList?sort=passwordHash');
    expect(sort.body.data.errors[0]).toMatchObject({ field: 'sort', keyword: 'enum' });
  });

  it('gets one, and 404 for an unknown id', async () => {
    const one = await t.get(`/artmanager/authors/getInfo?id=${authorId}`);
    expect(one.body.data).toMatchObject({ id: authorId, authorName: '齐白石', isBlock: 0, artWorks: 1 });
    const none = await t.get('/artmanager/authors/getInfo?id=999999');
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ code: 404, msg: 'Author 999999 does not exist' });
  });

  it('creates with a Chinese name, and refuses 31 Chinese characters by display width', async () => {
    const ok = await t.post('/artmanager/authors/addAuthors', { authorName: '张'.repeat(30) });
    expect(ok.body.code).toBe(0);
    const bad = await t.post('/artmanager/authors/addAuthors', { authorName: '张'.repeat(31) });
    expect(bad.status).toBe(400);
    expect(bad.body.data.errors).toEqual([
      expect.objectContaining({
        field: 'authorName',
        keyword: 'x-maxWidth',
        params: { limit: 60, width: 62 },
      }),
    ]);
    expect(bad.body.msg).toContain('Author name:');
  });

  it('refuses a read-only field, a wrong type and markup on create', async () => {
    const res = await t.post('/artmanager/authors/addAuthors', {
      authorName: '<b>x</b>',
      isBlock: 1,
      wxIsEnable: 'yes',
    });
    expect(res.status).toBe(400);
    const fields = res.body.data.errors.map((e: any) => `${e.field}:${e.keyword}`).sort();
    expect(fields).toEqual(['authorName:x-plainText', 'isBlock:false schema', 'wxIsEnable:type']);
  });

  it('updates the fields sent; a refused update changes nothing; 404 for an unknown id', async () => {
    const up = await t.post('/artmanager/authors/updateInfo', {
      id: authorId,
      introduction: 'Chinese painter, 1864–1957',
      wxCode: 'wx-123',
    });
    expect(up.body.data).toMatchObject({
      authorName: '齐白石',
      introduction: 'Chinese painter, 1864–1957',
      wxCode: 'wx-123',
    });
    expect(up.body.data.wxCreateTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const bad = await t.post('/artmanager/authors/updateInfo', {
      id: authorId,
      introduction: 'changed',
      authorName: '',
    });
    expect(bad.status).toBe(400);
    const after = await t.get(`/artmanager/authors/getInfo?id=${authorId}`);
    expect(after.body.data.introduction).toBe('Chinese painter, 1864–1957');
    const none = await t.post('/artmanager/authors/updateInfo', { id: 999999, introduction: 'x' });
    expect(none.status).toBe(404);
  });

  it("lists an author's works, 404 for an unknown author", async () => {
    const res = await t.get(`/artmanager/authors/getArtworkList?id=${authorId}&pageSize=5`);
    expect(res.body.data.total).toBe(1);
    expect(res.body.data.list[0]).toMatchObject({ artWorkName: '墨虾', authorName: '齐白石' });
    expect((await t.get('/artmanager/authors/getArtworkList?id=999999')).status).toBe(404);
  });

  it('refuses to delete an author with works, deleting nothing; deletes an author without', async () => {
    const lone = await t.post('/artmanager/authors/addAuthors', { authorName: 'Lone' });
    const res = await t.post('/artmanager/authors/deleteAuthors', { ids: [lone.body.data.id, authorId] });
    expect(res.status).toBe(409);
    expect(res.body.msg).toMatch(/齐白石.*1 artworks.*first/);
    expect((await t.get(`/artmanager/authors/getInfo?id=${lone.body.data.id}`)).status).toBe(200);
    const del = await t.post('/artmanager/authors/deleteAuthors', { id: lone.body.data.id });
    expect(del.body).toMatchObject({ code: 0, data: { ids: [lone.body.data.id] } });
    expect((await t.post('/artmanager/authors/deleteAuthors', { id: 999999 })).status).toBe(404);
    expect((await t.post('/artmanager/authors/deleteAuthors', {})).status).toBe(400);
  });
});

describe('artworks', () => {
  it('searches by free text over the author name, filters and sorts', async () => {
    const res = await t.post('/artmanager/artwork/searchArtworkList', {
      q: '齐白',
      classify: 'painting',
      sort: 'createTime',
      order: 'DESC',
    });
    expect(res.body.data.total).toBe(1);
    expect(res.body.data.list[0]).toMatchObject({
      id: artworkId,
      images: ['https://example.org/a.jpg'],
      baseInfo: { size: '100 x 34 cm' },
    });
    const many = await t.post('/artmanager/artwork/searchArtworkList', { ids: [artworkId, 999999] });
    expect(many.body.data.list.map((a: any) => a.id)).toEqual([artworkId]);
    const bad = await t.post('/artmanager/artwork/searchArtworkList', { pageSize: '10' });
    expect(bad.body.data.errors[0]).toMatchObject({ field: 'pageSize', keyword: 'type' });
  });

  it('gets one; 404 for an unknown id; 400 for a non-numeric id', async () => {
    expect((await t.get(`/artmanager/artwork/ArtInfoByArtId?artId=${artworkId}`)).body.data.artWorkName).toBe(
      '墨虾',
    );
    expect((await t.get('/artmanager/artwork/ArtInfoByArtId?artId=999999')).status).toBe(404);
    const bad = await t.get('/artmanager/artwork/ArtInfoByArtId?artId=abc');
    expect(bad.body.data.errors[0]).toMatchObject({ field: 'artId', keyword: 'type' });
  });

  it('refuses invalid artworks with every field named', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/artmanager/artwork/addArtwork',
      payload: {
        artWorkName: '虾'.repeat(31),
        author: authorId,
        classify: 'painting',
        images: Array.from({ length: 10 }, (_, i) => `https://example.org/${i}.jpg`),
        baseInfo: { startYear: 1950, endYear: 1900, width: 'about 30 cm' },
        dealInfo: { acquisitionYear: 2999 },
      },
    });
    expect(res.status).toBe(400);
    const got = res.body.data.errors.map((e: any) => `${e.field}:${e.keyword}`).sort();
    expect(got).toEqual([
      'artWorkName:x-maxWidth',
      'baseInfo.endYear:x-ordered',
      'baseInfo.width:pattern',
      'dealInfo.acquisitionYear:x-notFuture',
      'images:maxItems',
      'texture:required',
    ]);
  });

  it('refuses an unknown author or bid user as a field error, storing nothing', async () => {
    const before = (await t.post('/artmanager/artwork/searchArtworkList', {})).body.data.total;
    const res = await t.post('/artmanager/artwork/addArtwork', {
      artWorkName: 'x',
      author: 999999,
      classify: 'new-category',
      texture: 'x',
    });
    expect(res.status).toBe(400);
    expect(res.body.data.errors[0]).toMatchObject({ field: 'author', keyword: 'reference' });
    const bid = await t.post('/artmanager/artwork/addArtwork', {
      artWorkName: 'x',
      author: authorId,
      classify: 'x',
      texture: 'x',
      bid: 12345,
    });
    expect(bid.body.data.errors[0]).toMatchObject({ field: 'bid', keyword: 'reference' });
    expect((await t.post('/artmanager/artwork/searchArtworkList', {})).body.data.total).toBe(before);
    const cats = await t.get('/artmanager/artSort/artcateList');
    expect(cats.body.data.list.map((c: any) => c.name)).not.toContain('new-category');
  });

  it('updates sections; a refused update changes nothing', async () => {
    const up = await t.call({
      method: 'POST',
      url: '/artmanager/artwork/baseInfo',
      payload: {
        id: artworkId,
        possessor: 'Tate',
        traceability: [{ step: 'expertAssessment', result: 'genuine' }],
      },
    });
    expect(up.body.data).toMatchObject({
      possessor: 'Tate',
      traceability: [{ step: 'expertAssessment', result: 'genuine' }],
      artWorkName: '墨虾',
    });
    const bad = await t.post('/artmanager/artwork/baseInfo', {
      id: artworkId,
      possessor: 'Someone',
      traceability: [{ step: 'guess' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.data.errors[0]).toMatchObject({ field: 'traceability.0.step', keyword: 'enum' });
    const after = await t.get(`/artmanager/artwork/ArtInfoByArtId?artId=${artworkId}`);
    expect(after.body.data.possessor).toBe('Tate');
    expect((await t.post('/artmanager/artwork/baseInfo', { id: 999999, possessor: 'x' })).status).toBe(404);
  });

  it('autocompletes author names', async () => {
    const res = await t.get(`/artmanager/artwork/searchAuthor?keyword=${encodeURIComponent('齐')}`);
    expect(res.body.data).toEqual([{ id: authorId, authorName: '齐白石', isBlock: 0 }]);
  });

  it('lists categories with counts', async () => {
    const res = await t.get('/artmanager/artSort/artcateList');
    expect(res.body.data.list).toContainEqual(expect.objectContaining({ name: 'painting', count: 1 }));
  });

  it('deletes all-or-nothing: an unknown id in the batch deletes none', async () => {
    const id = await addArtwork(t, authorId, 'tmp', { texture: 'x' });
    const res = await t.post('/artmanager/artwork/deleteArt', { ids: [id, 999999] });
    expect(res.status).toBe(404);
    expect((await t.get(`/artmanager/artwork/ArtInfoByArtId?artId=${id}`)).status).toBe(200);
    const ok = await t.post('/artmanager/artwork/deleteArt', { id: id });
    expect(ok.body.data).toEqual({ ids: [id] });
    expect((await t.get(`/artmanager/artwork/ArtInfoByArtId?artId=${id}`)).status).toBe(404);
  });
});

describe('users and misc', () => {
  it('lists bid users and platform users (empty registry), 404 for an unknown id', async () => {
    expect((await t.get('/artmanager/bidUser/getList')).body.data).toEqual({
      list: [],
      total: 0,
    });
    expect((await t.get('/artmanager/user/getList')).body.data).toEqual({
      list: [],
      total: 0,
    });
    expect((await t.get('/artmanager/user/getInfo?id=424242')).status).toBe(404);
  });

  it('answers malformed JSON and unknown paths in the envelope', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/artmanager/authors/addAuthors',
      headers: { 'x-token': t.adminToken, 'content-type': 'application/json' },
      payload: '{"authorName":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, data: { errors: [{ field: '', keyword: 'json' }] } });
    const unknown = await t.get('/artmanager/nothing');
    expect(unknown).toMatchObject({ status: 404, body: { code: 404 } });
  });

  it('counts the registry for the dashboard', async () => {
    const res = await t.get('/artmanager/dashboard/stats');
    expect(res.body.data).toMatchObject({ authorsOnChain: 0, artworksOnChain: 0 });
    expect(res.body.data.authors).toBeGreaterThanOrEqual(2);
    expect(res.body.data.recent[0]).toHaveProperty('artWorkName');
  });
});

/**
 * Issue 11's text and number policy (docs/api.md "Text" and "Numbers"), through the HTTP API, on SQLite
 * and (with TEST_DATABASE_URL) PostgreSQL: every class of the attacker's findings answers 400 naming the
 * field, never 500, 404 or a stored surprise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
let authorId: number;
beforeAll(async () => {
  t = await createTestApp({ loginRateLimit: 1000 });
  const res = await t.post('/artmanager/authors/addAuthors', { authorName: 'Policy Author' });
  expect(res.status).toBe(200);
  authorId = res.body.data.id;
  const art = await t.post('/artmanager/artwork/addArtwork', {
    artWorkName: 'Policy Work',
    author: authorId,
    classify: 'painting',
    texture: 'oil',
  });
  expect(art.status).toBe(200);
});
afterAll(() => t.close());

/** Expects a 400 whose field errors name `field` (with `keyword` when given). */
function expectRefused(res: { status: number; body: any }, field: string, keyword?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  const errors: { field: string; keyword: string }[] = res.body.data?.errors ?? [];
  const hit = errors.find((e) => e.field === field);
  expect(hit, JSON.stringify(res.body)).toBeDefined();
  if (keyword) expect(hit!.keyword).toBe(keyword);
}

const addAuthor = (payload: Record<string, unknown>) => t.post('/artmanager/authors/addAuthors', payload);
/** POST addArtwork of an artwork of the test author in category `x`; `fields` add or override. */
const postArtwork = (fields: Record<string, unknown>) =>
  t.post('/artmanager/artwork/addArtwork', { author: authorId, classify: 'x', ...fields });
const authorList = (query: string) => t.get(`/artmanager/authors/getList?${query}`);

describe('NUL and other control characters', () => {
  it.each([
    ['authorName', { authorName: 'Nul\u0000Name' }],
    ['introduction', { authorName: 'Ok', introduction: 'intro\u0000' }],
    ['introduction', { authorName: 'Ok', introduction: 'next\u0085line' }],
    ['wxUrl', { authorName: 'Ok', wxUrl: 'https://a.example/\u0000' }],
  ])('a body string (%s) is refused with 400', async (field, payload) => {
    expectRefused(await addAuthor(payload), field);
  });

  it('a filter, q and the login are refused with 400, not 500 or every row', async () => {
    expectRefused(await authorList('q=%00'), 'q', 'x-text');
    expectRefused(await authorList('q=ab%00cd'), 'q', 'x-text');
    const fts = await t.post('/artmanager/artwork/searchArtworkList', { q: 'pol\u0000icy' });
    expectRefused(fts, 'q', 'x-text');
    const login = await t.post('/dev-api/user/login', { username: 'ad\u0000min', password: 'x' }, null);
    expect(login.status).toBe(400);
  });

  it.each([
    ['/artmanager/authors/getArtworkList?id=1&q=%00', 'q'],
    ['/artmanager/artwork/searchAuthor?keyword=%00', 'keyword'],
    ['/baas-api/search?q=a%00b', 'q'],
  ])('hand-written and getManyReference routes apply it too: %s', async (url, field) => {
    expectRefused(
      await t.call({ method: 'GET', url, token: url.startsWith('/baas') ? t.userToken : undefined }),
      field,
      'x-text',
    );
  });

  it('line breaks pass where the field is multi-line (introduction) and are refused in names', async () => {
    const ok = await addAuthor({ authorName: 'Multi Line', introduction: 'one\ntwo\r\n\tthree' });
    expect(ok.status).toBe(200);
    expect(ok.body.data.introduction).toBe('one\ntwo\r\n\tthree');
    expectRefused(await addAuthor({ authorName: 'two\nlines' }), 'authorName', 'x-plainText');
    expectRefused(await addAuthor({ authorName: 'next\u0085line' }), 'authorName');
  });
});

describe('lone UTF-16 surrogates', () => {
  it('are refused in names and other text (JSON escapes reach the server as lone surrogates)', async () => {
    const body = (name: string) => `{"authorName":"${name}"}`;
    const res = await t.call({
      method: 'POST',
      url: '/artmanager/authors/addAuthors',
      payload: body('\\ud800'.repeat(60)),
      headers: { 'content-type': 'application/json' },
    });
    expectRefused(res, 'authorName', 'x-text');
    const intro = await t.call({
      method: 'POST',
      url: '/artmanager/authors/addAuthors',
      payload: '{"authorName":"Ok","introduction":"a\\udc00b"}',
      headers: { 'content-type': 'application/json' },
    });
    expectRefused(intro, 'introduction', 'x-text');
  });

  it('a well-formed pair (an emoji) is stored as sent', async () => {
    const res = await addAuthor({ authorName: 'Emoji 🎨' });
    expect(res.status).toBe(200);
    expect(res.body.data.authorName).toBe('Emoji 🎨');
  });
});

describe('names: bidi controls, invisible-only values, NFC', () => {
  it.each([
    ['a right-to-left override', 'abc\u202egnp.exe', 'bidi'],
    ['an isolate', '\u2066name\u2069', 'bidi'],
    ['a right-to-left mark', 'name\u200f', 'bidi'],
    ['only zero-width characters', '\u200b\u200c\u200d', 'invisible'],
    ['only a BOM and a word joiner', '\ufeff\u2060', 'invisible'],
  ])('refuses %s', async (_what, authorName, reason) => {
    const res = await addAuthor({ authorName });
    expectRefused(res, 'authorName', 'x-plainText');
    expect(res.body.data.errors[0].params.reason).toBe(reason);
  });

  it('stores names NFC-normalised, so two spellings of one name are one value', async () => {
    const res = await addAuthor({ authorName: 'Zoe\u0301 Nfc' });
    expect(res.status).toBe(200);
    expect(res.body.data.authorName).toBe('Zo\u00e9 Nfc');
    const list = await authorList(`q=${encodeURIComponent('Zo\u00e9 Nfc')}`);
    expect(list.body.data.list.map((a: any) => a.id)).toContain(res.body.data.id);
  });

  it('normalises names inside JSON fields too (artwork baseInfo.size)', async () => {
    const res = await postArtwork({
      artWorkName: 'Cafe\u0301 Nfc',
      texture: 'x',
      baseInfo: { size: '40 \u00d7 50 cm, Cafe\u0301' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.artWorkName).toBe('Caf\u00e9 Nfc');
    expect(res.body.data.baseInfo.size).toBe('40 \u00d7 50 cm, Caf\u00e9');
  });
});

describe('URLs', () => {
  it.each([
    ['portrait', 'javascript:alert(1)'],
    ['portrait', 'data:text/html,<script>alert(1)</script>'],
    ['wxUrl', 'javascript:alert(document.cookie)'],
    ['wxUrl', '//evil.example/'],
  ])('%s %j is refused', async (field, value) => {
    expectRefused(await addAuthor({ authorName: 'Url Author', [field]: value }), field, 'x-url');
  });

  it('http(s) URLs and /uploads/ paths are accepted', async () => {
    const res = await addAuthor({
      authorName: 'Url Ok',
      portrait: '/uploads/portrait.png',
      wxUrl: 'https://mp.weixin.qq.com/s/abc',
    });
    expect(res.status).toBe(200);
  });

  it('artwork image URLs are checked too', async () => {
    const res = await postArtwork({
      artWorkName: 'Img',
      texture: 'x',
      images: ['javascript:alert(1)'],
    });
    expectRefused(res, 'images.0', 'x-url');
  });
});

describe('numbers: finite, bounded page, the id range everywhere', () => {
  it.each([
    ['pageSize=Infinity', 'pageSize'],
    ['page=Infinity', 'page'],
    ['page=1e400', 'page'],
    ['page=-Infinity', 'page'],
    ['page=NaN', 'page'],
    ['page=1e300', 'page'],
    ['page=1000001', 'page'],
    ['ids=1,2147483648', 'ids'],
  ])('GET list ?%s answers 400 naming %s', async (query, field) => {
    expectRefused(await authorList(query), field);
  });

  it('the last allowed page answers an empty page', async () => {
    const res = await authorList('page=1000000');
    expect(res.status).toBe(200);
    expect(res.body.data.list).toEqual([]);
  });

  it('an id filter in a list body keeps the id range (400, not 500)', async () => {
    for (const author of [2147483648, 0, -1]) {
      const res = await t.post('/artmanager/artwork/searchArtworkList', { author });
      expectRefused(res, 'author');
    }
    const ok = await t.post('/artmanager/artwork/searchArtworkList', { author: authorId });
    expect(ok.status).toBe(200);
    expect(ok.body.data.total).toBeGreaterThan(0);
    expect(ok.body.data.list.every((a: any) => a.author === authorId)).toBe(true);
  });

  it('ids outside the range answer 400 naming the field, not 404', async () => {
    expectRefused(await authorList('ids=2147483648'), 'ids');
    expectRefused(await authorList('ids=0'), 'ids');
    expectRefused(await t.get('/artmanager/authors/getInfo?id=2147483648'), 'id');
    expectRefused(await t.get('/artmanager/authors/getInfo?id=Infinity'), 'id');
    const ref = await t.get('/artmanager/authors/getArtworkList?id=Infinity');
    expectRefused(ref, 'id', 'x-finite');
    const chain = await t.get('/baas-api/blocks?channelId=1e400', t.userToken);
    expectRefused(chain, 'channelId', 'x-finite');
  });
});

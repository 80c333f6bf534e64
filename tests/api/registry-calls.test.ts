/**
 * The product's registry calls on the product's paths (issue 8, "Art registry"), each with success,
 * invalid input, each role (401 without a token, 403 for role user) and an unknown id, on SQLite and, with
 * TEST_DATABASE_URL, PostgreSQL: authors/addHeadPic|createWx; artwork/addPicture|deletePicture|
 * ArtCertificate|ArtSecurity|ArtOther|searchUserId; subjects/insertUser|getUserList|
 * artworkListByCurrentUserId|searchUserList; traceability/addTraceabilityCert; oss/dir{suffix}; oss/sign
 * and the upload call honouring its policy; the limits of the schemas' `x-upload` and `maxItems`; the list
 * filters the console's filter button sends.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../server/plugins/app/password';
import { signPolicy } from '../../server/storage/uploads';
import { createTestApp, expectAdminOnly, type GuardedCall, type TestApp } from './helpers';

let t: TestApp;
let authorId = 0;
let artId = 0;
beforeAll(async () => {
  t = await createTestApp();
  const a = await t.post('/artmanager/authors/addAuthors', { authorName: 'Qi Baishi' });
  authorId = a.body.data.id;
  artId = await newArtwork('Shrimps');
});
afterAll(() => t?.close());

async function newArtwork(name: string, extra: Record<string, unknown> = {}): Promise<number> {
  const r = await t.post('/artmanager/artwork/addArtwork', {
    artWorkName: name,
    author: authorId,
    classify: 'Ink',
    texture: 'Paper',
    ...extra,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.id;
}

const MB2 = 2 * 1024 * 1024;
/** A PNG by its signature (the content check reads the magic number), unique by its random tail. */
const png = (size = 64) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(size - 8)]);
const pdf = () => Buffer.from(`%PDF-1.4\n% ${randomBytes(8).toString('hex')}\n%%EOF\n`);
const exe = () => Buffer.concat([Buffer.from('MZ'), randomBytes(62)]);

/** A multipart/form-data body: the text `fields` first, then the file part `file` when given. */
function multipart(fields: Record<string, string | number>, file?: { bytes: Buffer; filename: string }) {
  const boundary = `b${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat(parts),
  };
}

const send = (
  url: string,
  fields: Record<string, string | number>,
  file?: { bytes: Buffer; filename: string },
  token?: string | null,
) => t.call({ method: 'POST', url, ...multipart(fields, file), token });

const listDir = async (dir: string) =>
  (await t.get(`/artmanager/oss/dir/${dir}`)).body.data.list as {
    name: string;
    url: string;
  }[];

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

describe('POST /artmanager/upload with ?resource=&field= (limits from the schema x-upload)', () => {
  it('an artwork image is stored under artworks/images and served', async () => {
    const r = await send(
      '/artmanager/upload?resource=artworks&field=images',
      {},
      { bytes: png(), filename: 'a.png' },
    );
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      url: expect.stringMatching(/^\/uploads\/artworks\/images\/[0-9a-f]{64}\.png$/),
      type: 'image/png',
    });
    const served = await t.app.inject({ method: 'GET', url: r.body.data.url });
    expect(served.statusCode).toBe(200);
  });

  it('an image over 2 MB is refused naming file and the limit', async () => {
    const r = await send(
      '/artmanager/upload?resource=artworks&field=images',
      {},
      { bytes: png(MB2 + 1), filename: 'big.png' },
    );
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('file: must be at most 2 MB');
    expect(r.body.data.errors[0]).toMatchObject({
      field: 'file',
      keyword: 'maxSize',
      params: { limit: MB2 },
    });
  });

  it('a PDF as an artwork image is refused by content (named .png)', async () => {
    const r = await send(
      '/artmanager/upload?resource=artworks&field=images',
      {},
      { bytes: pdf(), filename: 'fake.png' },
    );
    expect(r.status).toBe(400);
    expect(r.body.data.errors[0]).toMatchObject({
      field: 'file',
      keyword: 'fileType',
      params: { types: ['image'] },
    });
  });

  it('a certificate takes a PDF', async () => {
    const r = await send(
      '/artmanager/upload?resource=artworks&field=authenticity.appraisalCertificate',
      {},
      { bytes: pdf(), filename: 'c.pdf' },
    );
    expect(r.status).toBe(200);
    expect(r.body.data.url).toMatch(/^\/uploads\/artworks\/authenticity\/appraisalcertificate\/.+\.pdf$/);
  });

  it('an unknown resource or a field without x-upload → 400 naming it', async () => {
    const a = await send(
      '/artmanager/upload?resource=nope&field=images',
      {},
      { bytes: png(), filename: 'a.png' },
    );
    expect(a.status).toBe(400);
    expect(a.body.data.errors[0].field).toBe('resource');
    const b = await send(
      '/artmanager/upload?resource=artworks&field=artWorkName',
      {},
      { bytes: png(), filename: 'a.png' },
    );
    expect(b.status).toBe(400);
    expect(b.body.data.errors[0].field).toBe('field');
  });
});

describe('POST /artmanager/authors/addHeadPic', () => {
  it('sets the portrait to the stored image', async () => {
    const r = await send(
      '/artmanager/authors/addHeadPic',
      { id: authorId },
      { bytes: png(), filename: 'me.png' },
    );
    expect(r.status).toBe(200);
    expect(r.body.data.portrait).toMatch(/^\/uploads\/authors\/portrait\/[0-9a-f]{64}\.png$/);
    const got = await t.get(`/artmanager/authors/getInfo?id=${authorId}`);
    expect(got.body.data.portrait).toBe(r.body.data.portrait);
  });

  it('a portrait over 2 MB is refused naming the limit', async () => {
    const r = await send(
      '/artmanager/authors/addHeadPic',
      { id: authorId },
      { bytes: png(MB2 + 1), filename: 'big.png' },
    );
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('file: must be at most 2 MB');
  });

  it('no id → 400 naming id; not an image → 400 naming file', async () => {
    const a = await send('/artmanager/authors/addHeadPic', {}, { bytes: png(), filename: 'me.png' });
    expect(a.status).toBe(400);
    expect(a.body.data.errors[0].field).toBe('id');
    const b = await send(
      '/artmanager/authors/addHeadPic',
      { id: authorId },
      { bytes: exe(), filename: 'me.png' },
    );
    expect(b.status).toBe(400);
    expect(b.body.data.errors[0]).toMatchObject({ field: 'file', keyword: 'fileType' });
  });

  it('an unknown author → 404, and nothing is stored', async () => {
    const before = (await listDir('authors/portrait')).length;
    const r = await send(
      '/artmanager/authors/addHeadPic',
      { id: 999999 },
      { bytes: png(), filename: 'me.png' },
    );
    expect(r.status).toBe(404);
    expect(await listDir('authors/portrait')).toHaveLength(before);
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

describe('POST /artmanager/artwork/addPicture and deletePicture', () => {
  it('adds up to 9 pictures; the 10th is refused naming the limit, and not stored', async () => {
    const id = await newArtwork('Nine');
    for (let i = 0; i < 9; i++) {
      const r = await send(
        '/artmanager/artwork/addPicture',
        { artId: id },
        { bytes: png(), filename: `${i}.png` },
      );
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data.images).toHaveLength(i + 1);
    }
    const stored = (await listDir('artworks/images')).length;
    const tenth = await send(
      '/artmanager/artwork/addPicture',
      { artId: id },
      { bytes: png(), filename: '10.png' },
    );
    expect(tenth.status).toBe(400);
    expect(tenth.body.msg).toBe('images: at most 9 images; remove one first');
    expect(tenth.body.data.errors[0]).toMatchObject({
      field: 'images',
      keyword: 'maxItems',
      params: { limit: 9 },
    });
    expect(await listDir('artworks/images')).toHaveLength(stored);
  });

  it('a picture over 2 MB is refused naming the limit', async () => {
    const r = await send(
      '/artmanager/artwork/addPicture',
      { artId },
      { bytes: png(MB2 + 1), filename: 'big.png' },
    );
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('file: must be at most 2 MB');
  });

  it('unknown artwork → 404; missing artId → 400 naming it', async () => {
    expect(
      (await send('/artmanager/artwork/addPicture', { artId: 999999 }, { bytes: png(), filename: 'a.png' }))
        .status,
    ).toBe(404);
    const r = await send('/artmanager/artwork/addPicture', {}, { bytes: png(), filename: 'a.png' });
    expect(r.status).toBe(400);
    expect(r.body.data.errors[0].field).toBe('artId');
  });

  it('deletePicture removes the picture; an absent url → 400 naming url; unknown artwork → 404', async () => {
    const added = await send(
      '/artmanager/artwork/addPicture',
      { artId },
      { bytes: png(), filename: 'x.png' },
    );
    const url = added.body.data.images.at(-1);
    const r = await t.post('/artmanager/artwork/deletePicture', { artId, url });
    expect(r.status).toBe(200);
    expect(r.body.data.images).not.toContain(url);
    const again = await t.post('/artmanager/artwork/deletePicture', { artId, url });
    expect(again.status).toBe(400);
    expect(again.body.data.errors[0].field).toBe('url');
    const bad = await t.post('/artmanager/artwork/deletePicture', { artId });
    expect(bad.status).toBe(400);
    const unknown = await t.post('/artmanager/artwork/deletePicture', { artId: 999999, url });
    expect(unknown.status).toBe(404);
  });

  it('the form update refuses a 10th image too (images.maxItems)', async () => {
    const images = Array.from({ length: 10 }, (_, i) => `/uploads/${i}.png`);
    const r = await t.post('/artmanager/artwork/baseInfo', { id: artId, images });
    expect(r.status).toBe(400);
    expect(r.body.data.errors[0]).toMatchObject({
      field: 'images',
      keyword: 'maxItems',
      params: { limit: 9 },
    });
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

describe('POST /artmanager/traceability/addTraceabilityCert', () => {
  it('attaches a PDF to a new step, then replaces it on the same step', async () => {
    const id = await newArtwork('Traced');
    const r = await send(
      '/artmanager/traceability/addTraceabilityCert',
      { artId: id, step: 'expertAssessment', result: 'authentic' },
      { bytes: pdf(), filename: 'expert.pdf' },
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.traceability).toEqual([
      {
        step: 'expertAssessment',
        result: 'authentic',
        attachment: expect.stringMatching(/^\/uploads\/artworks\/traceability\/.+\.pdf$/),
      },
    ]);
    const again = await send(
      '/artmanager/traceability/addTraceabilityCert',
      { artId: id, step: 'expertAssessment' },
      { bytes: png(), filename: 'scan.png' },
    );
    expect(again.body.data.traceability).toHaveLength(1);
    expect(again.body.data.traceability[0]).toMatchObject({
      result: 'authentic',
      attachment: expect.stringMatching(/\.png$/),
    });
  });

  it('an unknown step, a file that is neither image nor PDF → 400 naming them; unknown artwork → 404', async () => {
    const a = await send(
      '/artmanager/traceability/addTraceabilityCert',
      { artId, step: 'guess' },
      { bytes: pdf(), filename: 'a.pdf' },
    );
    expect(a.status).toBe(400);
    expect(a.body.data.errors[0].field).toBe('step');
    const b = await send(
      '/artmanager/traceability/addTraceabilityCert',
      { artId, step: 'machineInspection' },
      { bytes: exe(), filename: 'a.pdf' },
    );
    expect(b.status).toBe(400);
    expect(b.body.data.errors[0]).toMatchObject({ field: 'file', params: { types: ['image', 'pdf'] } });
    const c = await send(
      '/artmanager/traceability/addTraceabilityCert',
      { artId: 999999, step: 'machineInspection' },
      { bytes: pdf(), filename: 'a.pdf' },
    );
    expect(c.status).toBe(404);
  });
});

describe('oss/sign: a signed, expiring upload policy the upload call honours; oss/dir lists', () => {
  const sign = (payload: Record<string, unknown>) => t.post('/artmanager/oss/sign', payload);

  it('sign → upload with the policy stores under its dir; oss/dir lists it', async () => {
    const s = await sign({ dir: 'contracts', types: ['pdf'], maxSize: 1000, expiresIn: 60 });
    expect(s.status).toBe(200);
    expect(s.body.data).toMatchObject({
      host: '/artmanager/upload',
      dir: 'contracts',
      types: ['pdf'],
      maxSize: 1000,
    });
    const { policy, signature } = s.body.data;
    const r = await send('/artmanager/upload', { policy, signature }, { bytes: pdf(), filename: 'c.pdf' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.url).toMatch(/^\/uploads\/contracts\/.+\.pdf$/);
    const dir = await t.get('/artmanager/oss/dir/contracts');
    expect(dir.body.data.list).toEqual([
      expect.objectContaining({ url: r.body.data.url, dir: false, size: expect.any(Number) }),
    ]);
    const root = await t.get('/artmanager/oss/dir');
    expect(root.body.data.list).toContainEqual(expect.objectContaining({ name: 'contracts', dir: true }));
  });

  it('resource + field sign the schema limits', async () => {
    const s = await sign({ resource: 'authors', field: 'portrait' });
    expect(s.body.data).toMatchObject({ dir: 'authors/portrait', types: ['image'], maxSize: MB2 });
  });

  it('an expired policy, an altered one, an oversize or wrong-type file are refused', async () => {
    const secret = t.app.uploadSecret;
    const expired = signPolicy(
      { dir: 'x', types: ['pdf'], maxSize: 1000, expire: Math.floor(Date.now() / 1000) - 1 },
      secret,
    );
    const e = await send('/artmanager/upload', expired, { bytes: pdf(), filename: 'a.pdf' });
    expect(e.status).toBe(400);
    expect(e.body.data.errors[0]).toMatchObject({ field: 'policy', keyword: 'expired' });

    const s = (await sign({ dir: 'x', types: ['pdf'], maxSize: 100, expiresIn: 60 })).body.data;
    const widened = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(s.policy, 'base64url').toString()), maxSize: 10_000_000 }),
    ).toString('base64url');
    const a = await send(
      '/artmanager/upload',
      { policy: widened, signature: s.signature },
      { bytes: pdf(), filename: 'a.pdf' },
    );
    expect(a.status).toBe(400);
    expect(a.body.data.errors[0]).toMatchObject({ field: 'signature', keyword: 'signature' });

    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(200)]);
    const o = await send(
      '/artmanager/upload',
      { policy: s.policy, signature: s.signature },
      { bytes: big, filename: 'a.pdf' },
    );
    expect(o.status).toBe(400);
    expect(o.body.data.errors[0]).toMatchObject({
      field: 'file',
      keyword: 'maxSize',
      params: { limit: 100 },
    });

    const w = await send(
      '/artmanager/upload',
      { policy: s.policy, signature: s.signature },
      { bytes: png(50), filename: 'a.pdf' },
    );
    expect(w.status).toBe(400);
    expect(w.body.data.errors[0]).toMatchObject({ field: 'file', keyword: 'fileType' });

    const noSig = await send('/artmanager/upload', { policy: s.policy }, { bytes: pdf(), filename: 'a.pdf' });
    expect(noSig.status).toBe(400);
    expect(noSig.body.data.errors[0].field).toBe('signature');
    expect(await listDir('x')).toEqual([]);
  });

  it('invalid sign bodies → 400 naming the field', async () => {
    for (const [body, field] of [
      [{ types: ['exe'] }, 'types.0'],
      [{ maxSize: 0 }, 'maxSize'],
      [{ expiresIn: 7200 }, 'expiresIn'],
      [{ resource: 'authors' }, 'field'],
      [{ resource: 'authors', field: 'portrait', maxSize: 5 }, 'types'],
    ] as const) {
      const r = await sign(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(r.body.data.errors)).toContain(field);
    }
  });

  it('oss/dir: an invalid directory → 400 naming dir; an unknown one is empty', async () => {
    const bad = await t.get('/artmanager/oss/dir/Not%20Valid');
    expect(bad.status).toBe(400);
    expect(bad.body.data.errors[0].field).toBe('dir');
    const none = await t.get('/artmanager/oss/dir/nothing/here');
    expect(none.body.data).toEqual({ list: [], total: 0 });
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

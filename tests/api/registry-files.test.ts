/**
 * The registry's file calls (issue 8, "Art registry"), each with success, invalid input and an unknown
 * id, on SQLite and, with TEST_DATABASE_URL, PostgreSQL: the upload call with ?resource=&field= and the
 * limits of the schemas' `x-upload` and `maxItems`; authors/addHeadPic; artwork/addPicture|deletePicture;
 * traceability/addTraceabilityCert; oss/sign and the upload call honouring its policy; oss/dir{suffix}.
 * Their roles are checked in registry-calls.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signPolicy } from '../../server/storage/uploads';
import {
  artId,
  authorId,
  exe,
  expectOver2MbRefused,
  listDir,
  MB2,
  newArtwork,
  pdf,
  png,
  send,
  setUpRegistryApp,
  t,
} from './registryApp';

setUpRegistryApp();

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
    const body = await expectOver2MbRefused('/artmanager/upload?resource=artworks&field=images');
    expect(body.data.errors[0]).toMatchObject({ field: 'file', keyword: 'maxSize', params: { limit: MB2 } });
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
    await expectOver2MbRefused('/artmanager/authors/addHeadPic', { id: authorId });
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
    expect(tenth.body.msg).toBe('Images: at most 9 images; remove one first');
    expect(tenth.body.data.errors[0]).toMatchObject({
      field: 'images',
      keyword: 'maxItems',
      params: { limit: 9 },
    });
    expect(await listDir('artworks/images')).toHaveLength(stored);
  });

  it('a picture over 2 MB is refused naming the limit', async () => {
    await expectOver2MbRefused('/artmanager/artwork/addPicture', { artId });
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

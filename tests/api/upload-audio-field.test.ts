/**
 * The upload call for a schema property whose `x-upload` names the audio group (issue 21: "an mp3 is not
 * recognised"), schema-driven: `POST /artmanager/upload?resource=&field=` reads the property's limits
 * from whichever schema declares it (common/fileTypes.ts `uploadSpecAt`). No product schema has such a
 * property (the specification lists audio among the upload groups, not on a screen), so this file adds a
 * made-up resource schema to the registry for its own run (no route, no table: the upload call needs
 * neither), on SQLite and, with TEST_DATABASE_URL, PostgreSQL:
 * - an mp3 (ID3v2 tag + MPEG-1 layer III frame), a bare-frame mp3, a wav and a wmv are stored under
 *   `<resource>/<field>/`, by content, and served back byte for byte with their audio type;
 * - a PNG, even named `.mp3`, is refused naming the field `file`, in en and zh; nothing is stored;
 * - the image fields do not change: an mp3 to an author's portrait is still refused.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemas, type ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { createTestApp, multipart, type TestApp } from './helpers';

let t: TestApp;
const ID = 'upload-audio-field-test';

beforeAll(async () => {
  t = await createTestApp();
  schemas[ID] = {
    $id: ID,
    type: 'object',
    'x-resource': { name: 'soundNotes' },
    properties: {
      voice: { type: ['string', 'null'], 'x-upload': { types: ['audio'], maxSize: 2 * 1024 * 1024 } },
    },
  } as unknown as ResourceSchema;
});
afterAll(async () => {
  delete schemas[ID];
  await t?.close();
});

/** ID3v2.4 tag header (no frames), then one MPEG-1 layer III frame (`FF FB 90 64`, 417 bytes). */
const mp3 = () => {
  const frame = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), randomBytes(413)]);
  return Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]), frame]);
};
const bareMp3 = () => Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), randomBytes(413)]);
const wav = () =>
  Buffer.concat([Buffer.from('RIFF'), Buffer.from([36, 0, 0, 0]), Buffer.from('WAVEfmt '), randomBytes(28)]);
const wmv = () => Buffer.concat([Buffer.from('3026b2758e66cf11a6d900aa0062ce6c', 'hex'), randomBytes(64)]);
const png = () => Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(56)]);

const upload = (query: string, bytes: Buffer, filename: string, lang = 'en') => {
  const body = multipart({}, { bytes, filename });
  return t.call({
    method: 'POST',
    url: `/artmanager/upload?${query}`,
    payload: body.payload,
    headers: { ...body.headers, 'accept-language': lang },
  });
};

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('an audio x-upload field of any schema', () => {
  it('stores an mp3 (tagged and bare), a wav and a wmv by content, and serves each back', async () => {
    for (const [bytes, filename, ext, type] of [
      [mp3(), 'voice.mp3', 'mp3', 'audio/mpeg'],
      [bareMp3(), 'take-2.mp3', 'mp3', 'audio/mpeg'],
      [wav(), 'voice.wav', 'wav', 'audio/wav'],
      [wmv(), 'voice.wmv', 'wmv', 'video/x-ms-wmv'],
    ] as const) {
      const r = await upload('resource=soundNotes&field=voice', bytes, filename);
      expect(r.status, `${filename}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(r.body.data).toEqual({
        url: `/uploads/soundnotes/voice/${sha(bytes)}.${ext}`,
        size: bytes.length,
        type,
      });
      const served = await t.app.inject({ method: 'GET', url: r.body.data.url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toContain(type);
      expect(Buffer.compare(served.rawPayload, bytes)).toBe(0);
    }
  });

  it('refuses a file that is not audio by its content, naming the field, in en and zh', async () => {
    const bytes = png();
    const en = await upload('resource=soundNotes&field=voice', bytes, 'voice.mp3');
    expect(en.status).toBe(400);
    expect(en.body.msg).toMatch(/^file: must be an? audio file/);
    expect(en.body.data.errors[0]).toMatchObject({ field: 'file', keyword: 'fileType' });
    const zh = await upload('resource=soundNotes&field=voice', bytes, 'voice.mp3', 'zh');
    expect(zh.status).toBe(400);
    expect(zh.body.msg).toMatch(/^文件：[\u4e00-\u9fff]/);
    expect(zh.body.msg).not.toMatch(/must be/);
    const served = await t.app.inject({ method: 'GET', url: `/uploads/soundnotes/voice/${sha(bytes)}.png` });
    expect(served.statusCode).toBe(404);
  });

  it('an image field still refuses an mp3', async () => {
    const r = await upload('resource=authors&field=portrait', mp3(), 'portrait.mp3');
    expect(r.status).toBe(400);
    expect(r.body.msg).toMatch(/^file: must be an image file/);
  });
});

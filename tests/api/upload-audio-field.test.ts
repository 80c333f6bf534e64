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
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemas, type ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { mp3Bare, mp3Id3, wav, wmv } from './audioFiles';
import { createTestApp, multipart, type TestApp } from './helpers';
import { png } from './registryApp';

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
  it.each([
    ['voice.mp3', mp3Id3, 'mp3', 'audio/mpeg'],
    ['take-2.mp3', mp3Bare, 'mp3', 'audio/mpeg'],
    ['voice.wav', wav, 'wav', 'audio/wav'],
    ['voice.wmv', wmv, 'wmv', 'video/x-ms-wmv'],
  ])(
    'stores %s by its content under <resource>/<field>/ and serves it back',
    async (name, make, ext, type) => {
      const bytes = make();
      const stored = await upload('resource=soundNotes&field=voice', bytes, name);
      expect(stored.status, JSON.stringify(stored.body)).toBe(200);
      const url = `/uploads/soundnotes/voice/${sha(bytes)}.${ext}`;
      expect(stored.body.data).toEqual({ url, size: bytes.length, type });
      const served = await t.app.inject({ method: 'GET', url });
      expect([served.statusCode, served.headers['content-type']]).toEqual([
        200,
        expect.stringContaining(type),
      ]);
      expect(Buffer.compare(served.rawPayload, bytes)).toBe(0);
    },
  );

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
    const r = await upload('resource=authors&field=portrait', mp3Id3(), 'portrait.mp3');
    expect(r.status).toBe(400);
    expect(r.body.msg).toMatch(/^file: must be an image file/);
  });
});

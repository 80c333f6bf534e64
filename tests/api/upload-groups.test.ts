/**
 * The product's upload groups and limits (specification §9 "Upload file type groups", "Images per
 * artwork: each under 2M"; issue 21 "Defects"), on SQLite and, with TEST_DATABASE_URL, PostgreSQL:
 * - the audio group (mp3, wav, wmv) exists: a signed policy for `audio` takes an mp3 (with an ID3 tag or
 *   a bare MPEG layer III frame), a wav and a wmv, recognised by content; an image field refuses an mp3;
 * - a refused type reads "must be an image file", with the article English wants;
 * - an upload without resource/field and `oss/sign {}` default to the product's 2 MB, not 5 MB;
 * - in zh the refusal is said in Chinese.
 */
import { describe, expect, it } from 'vitest';
import { acceptOf, detectFileKind } from '../../common/fileTypes';
import { mp3Bare, mp3Id3, wav, wmv } from './audioFiles';
import { multipart } from './helpers';
import { expectOver2MbRefused, MB2, png, send, setUpRegistryApp, t } from './registryApp';

setUpRegistryApp();

const sign = (payload: Record<string, unknown>) => t.post('/artmanager/oss/sign', payload);

describe('the audio upload group (mp3, wav, wmv)', () => {
  it('an audio policy takes an mp3 (tagged and bare), a wav and a wmv, by content', async () => {
    const s = await sign({ dir: 'sounds', types: ['audio'], expiresIn: 60 });
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    const { policy, signature } = s.body.data;
    for (const [bytes, filename, type, ext] of [
      [mp3Id3(), 'a.mp3', 'audio/mpeg', 'mp3'],
      [mp3Bare(), 'b.mp3', 'audio/mpeg', 'mp3'],
      [wav(), 'c.wav', 'audio/wav', 'wav'],
      [wmv(), 'd.wmv', 'video/x-ms-wmv', 'wmv'],
    ] as const) {
      const r = await send('/artmanager/upload', { policy, signature }, { bytes, filename });
      expect(r.status, `${filename}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(r.body.data.type).toBe(type);
      expect(r.body.data.url).toMatch(new RegExp(`^/uploads/sounds/[0-9a-f]{64}\\.${ext}$`));
    }
  });

  it('an mp3 is not taken as an image, and the refusal reads "an image file" (en) or in Chinese (zh)', async () => {
    const en = await send('/artmanager/upload', {}, { bytes: mp3Id3(), filename: 'song.png' });
    expect(en.status).toBe(400);
    expect(en.body.msg).toBe('file: must be an image file (checked by content)');
    expect(en.body.data.errors[0]).toMatchObject({ field: 'file', keyword: 'fileType' });
    const zh = await t.call({
      method: 'POST',
      url: '/artmanager/upload',
      ...withLang(mp3Bare(), 'zh'),
    });
    expect(zh.status).toBe(400);
    expect(zh.body.msg).toMatch(/[\u4e00-\u9fff]/);
    expect(zh.body.msg).not.toMatch(/must be/);
  });

  it("the console's file dialog for audio offers mp3, wav and wmv", () => {
    const accept = acceptOf(['audio']).split(',');
    expect(accept).toEqual(expect.arrayContaining(['.mp3', 'audio/mpeg', '.wav', '.wmv']));
    expect(detectFileKind(mp3Bare())?.group).toBe('audio');
    // A JPEG starts FF D8 FF, which is no MPEG audio frame header: still an image.
    expect(detectFileKind(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))?.group).toBe('image');
  });
});

describe('the default upload limit is the product’s 2 MB', () => {
  it('oss/sign {} signs 2 MB of image', async () => {
    const s = await sign({});
    expect(s.status).toBe(200);
    expect(s.body.data).toMatchObject({ types: ['image'], maxSize: MB2 });
  });

  it('an upload without resource/field takes 2 MB and refuses one byte more', async () => {
    const ok = await send('/artmanager/upload', {}, { bytes: png(MB2), filename: 'ok.png' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const big = await expectOver2MbRefused('/artmanager/upload');
    expect(big.data.errors[0]).toMatchObject({ field: 'file', keyword: 'maxSize', params: { limit: MB2 } });
  });
});

/** A multipart body carrying `bytes` as the file, with Accept-Language `lang`. */
function withLang(bytes: Buffer, lang: string) {
  const body = multipart({}, { bytes, filename: 'x.png' });
  return { payload: body.payload, headers: { ...body.headers, 'accept-language': lang } };
}

import { describe, expect, it } from 'vitest';
import { gbkBytes } from '../support/gbk';
import { SAMPLE, decodeText, EncodingError, sniff, type Detected } from '../../server/import/textEncoding';

/** `bytes` decoded as decodeText decodes a file read in chunks of `chunk` bytes: the text and the encoding. */
async function decode(bytes: Uint8Array, chunk = 1000): Promise<{ text: string; found?: Detected }> {
  let found: Detected | undefined;
  const chunks = (async function* () {
    for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk);
  })();
  let text = '';
  for await (const s of decodeText(chunks, (d) => (found = d))) text += s;
  return { text, found };
}

const CHINESE = '作品名称,作者\n《千里江山图》,王希孟\n清明上河图 — 张择端,“宋”\n';
const utf16 = (text: string, be: boolean) => {
  const le = Buffer.from(`\uFEFF${text}`, 'utf16le');
  return be ? Buffer.from(le).swap16() : le;
};

describe('decodeText: the encodings spreadsheet programs save', () => {
  it.each([
    ['UTF-8 without a byte-order mark', Buffer.from(CHINESE), 'utf-8', false],
    ['UTF-8 with a byte-order mark', Buffer.from(`\uFEFF${CHINESE}`), 'utf-8', true],
    ['GBK (Excel on a Chinese Windows)', gbkBytes(CHINESE), 'gb18030', false],
    ['UTF-16 LE with a byte-order mark', utf16(CHINESE, false), 'utf-16le', true],
    ['UTF-16 BE with a byte-order mark', utf16(CHINESE, true), 'utf-16be', true],
    ['UTF-16 LE without a mark (ASCII)', Buffer.from('name,author\nA,B\n', 'utf16le'), 'utf-16le', false],
  ])('%s: decoded whole, whatever the chunks', async (_name, bytes, encoding, bom) => {
    const want = encoding === 'utf-16le' && !bom ? 'name,author\nA,B\n' : CHINESE;
    for (const chunk of [1, 3, 1000]) {
      const { text, found } = await decode(bytes, chunk);
      expect(text).toBe(want);
      expect(found).toMatchObject({ encoding, bom });
    }
  });

  it('decides on the bytes after a long ASCII start (GBK past the first sample)', async () => {
    const ascii = 'id,name\n' + '1,plain ascii row\n'.repeat(Math.ceil((2 * SAMPLE) / 17));
    const { text, found } = await decode(Buffer.concat([Buffer.from(ascii), gbkBytes(CHINESE)]), 4096);
    expect(found?.name).toBe('GB18030 (GBK)');
    expect(text).toBe(ascii + CHINESE);
  });

  it('decodes a UTF-16 or GBK file longer than its first chunks', async () => {
    const long = CHINESE.repeat(2000);
    for (const bytes of [utf16(long, false), utf16(long, true), gbkBytes(long)])
      expect((await decode(bytes, 5000)).text).toBe(long);
  });

  it('takes a file of ASCII only as UTF-8', async () => {
    expect(await decode(Buffer.from('a,b\n1,2\n'))).toEqual({
      text: 'a,b\n1,2\n',
      found: expect.objectContaining({ name: 'UTF-8' }),
    });
  });

  it('refuses, naming what it found: Windows-1252, UTF-32, binary data', async () => {
    const refusal = async (bytes: Buffer) => {
      const e = await decode(bytes).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(EncodingError);
      return (e as EncodingError).found;
    };
    expect((await refusal(Buffer.from('name\nCaf\xe9 cr\xe8me\n', 'latin1'))).en).toMatch(/Windows-1252/);
    expect((await refusal(Buffer.from([0xff, 0xfe, 0, 0, 0x41, 0, 0, 0]))).en).toMatch(/^UTF-32 LE/);
    const binary = await refusal(Buffer.from([0x41, 0, 0, 0x42, 0x43, 0, 7, 0, 0, 0, 1, 2]));
    expect(binary).toEqual({ en: expect.stringMatching(/binary/), zh: expect.stringMatching(/二进制/) });
  });

  it('refuses a file that turns invalid after its sample, naming the encoding and the offset', async () => {
    const good = Buffer.from('名'.repeat(SAMPLE));
    const e = await decode(Buffer.concat([good, Buffer.from([0xff, 0x41])]), 8192).catch(
      (err: unknown) => err,
    );
    expect((e as EncodingError).found.en).toMatch(/^not valid UTF-8 after byte [\d,]+$/);
  });
});

describe('sniff', () => {
  it('prefers UTF-8, then GB18030; a sequence cut at the end of an incomplete sample is no error', () => {
    expect(sniff(Buffer.from('中文'), true).name).toBe('UTF-8');
    expect(sniff(Buffer.from('中文').subarray(0, 4), false).name).toBe('UTF-8');
    expect(sniff(gbkBytes('中文'), true).name).toBe('GB18030 (GBK)');
  });
});

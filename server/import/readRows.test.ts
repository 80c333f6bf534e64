import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { readRows, splitLines, type RowRead } from './readRows';
import { SEED_FILES } from './seed';

const dir = mkdtempSync(join(tmpdir(), 'readrows-'));
const write = (name: string, text: string | Buffer) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};
const all = async (file: string) => {
  const out: RowRead[] = [];
  for await (const r of readRows(file)) out.push(r);
  return out;
};
const rows = [{ id: 1, t: 'a' }, { id: 2, t: 'b, c' }, { id: 3 }];
const arrayLines = '[\n' + rows.map((r) => JSON.stringify(r)).join(',\n') + '\n]\n';

describe('readRows', () => {
  it('reads a one-object-per-line array with line numbers', async () => {
    expect(await all(write('a.json', arrayLines))).toEqual(rows.map((row, i) => ({ line: i + 2, row })));
  });

  it('reads the same rows from a gzipped file, whatever its name', async () => {
    expect(await all(write('a.data', gzipSync(arrayLines)))).toEqual(await all(write('b.json', arrayLines)));
  });

  it('reads JSON Lines', async () => {
    const got = await all(write('a.jsonl', rows.map((r) => JSON.stringify(r)).join('\n')));
    expect(got.map((r) => r.row)).toEqual(rows);
  });

  it('reads a pretty-printed or one-line array whole', async () => {
    expect((await all(write('p.json', JSON.stringify(rows, null, 2)))).map((r) => r.row)).toEqual(rows);
    expect((await all(write('o.json', JSON.stringify(rows)))).map((r) => r.row)).toEqual(rows);
  });

  it('reports an unparsable line and a truncated array as row errors, and goes on', async () => {
    const got = await all(write('bad.json', '[\n{"id":1},\n{"id":2,,\n{"id":3},\n'));
    expect(got.map((r) => r.row ?? null)).toEqual([{ id: 1 }, null, { id: 3 }, null]);
    expect(got[1]).toMatchObject({ line: 3, error: expect.stringMatching(/^not valid JSON/) });
    expect(got[3].error).toMatch(/truncated/);
  });

  it('refuses a document that is not an array', async () => {
    await expect(all(write('x.json', '"hello"'))).rejects.toThrow(/expected a JSON array/);
  });

  it('streams the real sample (the gzipped seed): 2,000 rows', async () => {
    const got = await all(SEED_FILES.artworks);
    expect(got).toHaveLength(2000);
    expect(got.every((r) => r.error === undefined)).toBe(true);
    expect(got.map((r) => r.row)).toEqual(
      JSON.parse(gunzipSync(readFileSync(SEED_FILES.artworks)).toString('utf8')),
    );
  });

  it('splits lines as node:readline does (LF, CRLF, lone CR, a last line without ending), whatever the chunking', async () => {
    const texts = [
      'a\nb\r\nc\rd',
      'x\r\r\ny\n\n',
      '\r\n\r',
      'one',
      '',
      'é\r\n中\n',
      'a\r',
      'a\r\n',
      '中文\r中\n€',
    ];
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let n = 0; n < 60; n++) {
      const text =
        n < texts.length
          ? texts[n]
          : Array.from(
              { length: 12 },
              () => ['a', 'bc', '\n', '\r', '\r\n', ' ', '中', 'é'][Math.floor(random() * 8)],
            ).join('');
      const expected: string[] = [];
      for await (const l of createInterface({ input: Readable.from([text]), crlfDelay: Infinity }))
        expected.push(l);
      // The same text's UTF-8 bytes cut into chunks at random places (a CRLF, or a character's bytes, may
      // be split between two chunks).
      const bytes = Buffer.from(text);
      const chunks: Buffer[] = [];
      for (let i = 0; i < bytes.length;) {
        const k = 1 + Math.floor(random() * 4);
        chunks.push(bytes.subarray(i, i + k));
        i += k;
      }
      const got: string[] = [];
      for await (const l of splitLines(Readable.from(chunks))) got.push(l);
      expect(got, JSON.stringify(text)).toEqual(expected);
    }
  });
});

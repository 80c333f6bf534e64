/**
 * The console's import takes the files operators have (issue 32 item 5), on SQLite and, with
 * TEST_DATABASE_URL, on PostgreSQL:
 * - the console's own CSV export of every artwork, over the old 10 MB limit (1,200 artworks with long
 *   image URLs and credit lines, made through the repository in one transaction), imports back with 0
 *   changes: streamed to disk, every row unchanged;
 * - a file over the import limit (IMPORT_MAX_BYTES, 64 KiB in a second app here) is refused with 413 naming
 *   `file` and the limit, in English and Chinese; no job is kept;
 * - a GBK CSV (Excel on a Chinese Windows) and a UTF-16 tab-separated file (Excel's "Unicode text") import
 *   with their Chinese intact (read back through the API); a Windows-1252 file is refused naming it;
 * - unknown and missing headers are named at the top of the report in en and zh; a file whose headers
 *   name no field is refused saying so, instead of rejecting every field of every row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Repository } from '../../kernel/server/repository';
import { gbkBytes } from '../support/gbk';
import { addAuthor, createTestApp, multipart, type TestApp } from './helpers';

let t: TestApp;
let author: number;

/** `POST /dev-api/import/dryRun?resource=artworks` with `bytes` as `filename`, in `lang`, as admin of `app`. */
async function dryRun(bytes: Buffer, filename: string, lang = 'en', app = t) {
  const body = multipart({}, { bytes, filename });
  return app.call({
    method: 'POST',
    url: '/dev-api/import/dryRun?resource=artworks',
    headers: { ...body.headers, 'accept-language': lang },
    payload: body.payload,
  });
}

/** Dry run, then commit until done: the final summary. */
async function importFile(bytes: Buffer, filename: string) {
  const first = await dryRun(bytes, filename);
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  let job = first.body.data;
  while (job.status !== 'done') job = (await t.post('/dev-api/import/commit', { id: job.id })).body.data;
  return { dry: first.body.data, done: job };
}

/** The `count` artworks stored last, oldest first, as the list call answers them. */
async function newest(count: number): Promise<{ artWorkName: string; texture: string }[]> {
  const r = await t.post('/artmanager/artwork/searchArtworkList', {
    pageSize: count,
    sort: 'id',
    order: 'DESC',
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.list.reverse();
}

beforeAll(async () => {
  t = await createTestApp();
  author = await addAuthor(t, '王希孟');
});
afterAll(() => t?.close());

describe('the console export of every artwork imports back', () => {
  it('an export over 10 MB: streamed, every row unchanged, no column unknown', async () => {
    const repo = (t.app.resources as unknown as Record<string, Repository<object>>).artworks;
    const long = (i: number, k: number) =>
      `https://images.example.org/${String(i).padStart(6, '0')}/${'p'.repeat(880)}/${k}.jpg`;
    await t.app.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 1200; i++)
        await repo.create(trx, {
          artWorkName: `Study ${i} 山水`,
          author,
          classify: 'painting',
          texture: 'oil on canvas',
          images: Array.from({ length: 9 }, (_, k) => long(i, k)),
          baseInfo: { size: '30 x 40 cm', groupTitle: `Group ${i % 7} `.repeat(40).trim() },
          dealInfo: {
            creditLine: `Presented by the artist ${'and friends '.repeat(80)}${i}`,
            acquisitionYear: 1990,
          },
        } as object);
    });
    const res = await t.app.inject({
      method: 'GET',
      url: '/artmanager/artwork/searchArtworkList/export?format=csv',
      headers: { 'x-token': t.adminToken },
    });
    expect(res.statusCode).toBe(200);
    const csv = res.rawPayload;
    expect(csv.length).toBeGreaterThan(10 * 1024 * 1024);
    const { status, body } = await dryRun(csv, 'artworks.csv');
    expect(status, JSON.stringify(body).slice(0, 500)).toBe(200);
    expect(body.data).toMatchObject({
      total: 1200,
      counts: { new: 0, changed: 0, unchanged: 1200, rejected: 0 },
      columns: { unknown: [], missing: [] },
      columnsText: '',
      encoding: 'UTF-8',
    });
  });
});

describe('the import limit (IMPORT_MAX_BYTES)', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await createTestApp({ importMaxBytes: 64 * 1024 });
  });
  afterAll(() => small?.close());

  it('refuses a larger file with 413 naming the field and the limit, in en and zh; keeps no job', async () => {
    const big = Buffer.from(`Artwork name\n${'x,\n'.repeat(40_000)}`);
    const en = await dryRun(big, 'big.csv', 'en', small);
    expect(en.status).toBe(413);
    expect(en.body.msg).toBe('file: must be at most 64 KB (the import limit, IMPORT_MAX_BYTES)');
    expect(en.body.data.errors).toEqual([
      expect.objectContaining({
        field: 'file',
        keyword: 'importMaxSize',
        params: { limit: 65536, size: '64 KB' },
      }),
    ]);
    const zh = await dryRun(big, 'big.csv', 'zh', small);
    expect(zh.status).toBe(413);
    expect(zh.body.msg).toBe('文件：不能超过 64 KB（导入文件的上限，IMPORT_MAX_BYTES）');
    expect((await small.get('/dev-api/import/jobs?resource=artworks')).body.data).toEqual([]);
    // A body cut inside its file part is a 400 naming `file`, not a 500.
    const cut = await small.call({
      method: 'POST',
      url: '/dev-api/import/dryRun?resource=artworks',
      headers: { 'content-type': 'multipart/form-data; boundary=XX' },
      payload: '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nArtwork name\nA',
    });
    expect(cut.status).toBe(400);
    expect(cut.body.data.errors[0]).toMatchObject({ field: 'file', keyword: 'multipart' });
    // A file within the limit still goes through.
    const fits = await dryRun(Buffer.from(`Artwork name\nx\n`), 'fits.csv', 'en', small);
    expect(fits.status).toBe(200);
  });
});

describe('text encodings', () => {
  const header = '作品名称,作者,作品分类,材质';
  it('a GBK CSV (Excel on a Chinese Windows) imports with its Chinese intact', async () => {
    const names = ['《千里江山图》（局部）', '溪山行旅图·范宽'];
    const csv = [header, ...names.map((n) => `${n},${author},painting,绢本设色`)].join('\r\n');
    const { dry, done } = await importFile(gbkBytes(csv), 'works.csv');
    expect(dry).toMatchObject({
      encoding: 'GB18030 (GBK)',
      counts: { new: 2, rejected: 0 },
      columnsText: '',
    });
    expect(done.committed).toBe(2);
    expect(await newest(2)).toEqual(
      names.map((n) => expect.objectContaining({ artWorkName: n, texture: '绢本设色' })),
    );
  });

  it("a UTF-16 LE tab-separated file (Excel's Unicode text) imports with its Chinese intact", async () => {
    const name = '富春山居图 — 黄公望';
    const text = `\uFEFF${header.replaceAll(',', '\t')}\r\n${name}\t${author}\tpainting\t纸本水墨\r\n`;
    const { dry } = await importFile(Buffer.from(text, 'utf16le'), 'unicode.txt');
    expect(dry).toMatchObject({ encoding: 'UTF-16 LE', counts: { new: 1, rejected: 0 } });
    expect(await newest(1)).toEqual([expect.objectContaining({ artWorkName: name, texture: '纸本水墨' })]);
  });

  it('refuses a Windows-1252 file naming the encoding it found, in en and zh', async () => {
    const latin = Buffer.from(`Artwork name,Author\nCaf\xe9 cr\xe8me,${author}\n`, 'latin1');
    const en = await dryRun(latin, 'latin.csv');
    expect(en.status).toBe(400);
    expect(en.body.data.errors[0]).toMatchObject({ field: 'file', keyword: 'textEncoding' });
    expect(en.body.msg).toMatch(/^file: latin\.csv cannot be read as text: it is .*Windows-1252/);
    const zh = await dryRun(latin, 'latin.csv', 'zh');
    expect(zh.body.msg).toMatch(/^文件：无法作为文本读取：.*Windows-1252.*UTF-8、GB18030/);
  });
});

describe('the header row, at the top of the report', () => {
  it('names unknown columns and missing required ones before any row, in en and zh', async () => {
    const csv = Buffer.from(`Artwork name,foo,bar\nA work,1,2\n`);
    const en = (await dryRun(csv, 'partial.csv')).body.data;
    expect(en.columns).toEqual({ unknown: ['foo', 'bar'], missing: ['author', 'classify', 'texture'] });
    expect(en.columnsText).toBe(
      'Unknown columns (not imported): foo, bar. Missing required columns (a new row needs them): Author (author), Category (classify), Texture / medium (texture).',
    );
    const zh = (await dryRun(csv, 'partial.csv', 'zh')).body.data;
    expect(zh.columnsText).toBe(
      '未知的列（不导入）：foo、bar。缺少必填的列（新增的行需要）：作者（author）、作品分类（classify）、材质（texture）。',
    );
  });

  it('refuses a file whose headers name no field, saying so (not "required" for every field of every row)', async () => {
    const csv = Buffer.from(`foo,bar\n1,2\n3,4\n`);
    const en = await dryRun(csv, 'unknown.csv');
    expect(en.status).toBe(400);
    expect(en.body.data.errors).toEqual([expect.objectContaining({ field: 'file', keyword: 'columns' })]);
    expect(en.body.msg).toBe(
      'file: none of its columns is a field of artworks (foo, bar): the first row must name the fields, e.g. Artwork name (artWorkName), Author (author), Category (classify), Texture / medium (texture)',
    );
    const zh = await dryRun(csv, 'unknown.csv', 'zh');
    expect(zh.body.msg).toBe(
      '文件：没有一列是作品的字段（foo、bar）：第一行须写字段名，例如 作品名称（artWorkName）、作者（author）、作品分类（classify）、材质（texture）',
    );
  });
});

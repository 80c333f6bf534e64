/**
 * Export of every matching row (kernel/server/exportRoutes.ts), on SQLite and, with TEST_DATABASE_URL, on
 * PostgreSQL: `GET <list path>/export?format=csv|xlsx` refuses other roles; a filtered export holds every
 * record the list call counts (more than one keyset page), each once, in the list's sort; headers are the
 * schema's labels in the caller's language, enum values their labels, dates `YYYY-MM-DD HH:mm:ss`; the
 * XLSX parses back to the same table as the CSV.
 */
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkRecords } from '../../kernel/server/exportRoutes';
import { addArtwork, addAuthor, createTestApp, type TestApp } from './helpers';

let t: TestApp;
const EXPORT = '/artmanager/artwork/searchArtworkList/export';
const PAINTINGS = 23;
const PRINTS = 9;

/** The export's raw answer (status, headers, body bytes) for `query`, in `lang`, with `token` (admin by default). */
async function download(query: string, lang = 'en', token?: string | null) {
  const res = await t.app.inject({
    method: 'GET',
    url: `${EXPORT}?${query}`,
    headers: {
      'accept-language': lang,
      ...(token === null ? {} : { 'x-token': token ?? t.adminToken }),
    },
  });
  return res;
}

const csvRows = (body: Buffer): string[][] => parse(body.toString('utf8'), { bom: true });

async function xlsxRows(body: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const rows: string[][] = [];
  wb.worksheets[0].eachRow((row) =>
    rows.push(
      Array.from((row.values as unknown[]).slice(1), (v) => (v === null || v === undefined ? '' : String(v))),
    ),
  );
  return rows;
}

beforeAll(async () => {
  t = await createTestApp();
  const author = await addAuthor(t, 'Gwen John');
  for (let i = 0; i < PAINTINGS; i++) await addArtwork(t, author, `Painting ${i}`);
  for (let i = 0; i < PRINTS; i++) await addArtwork(t, author, `Print ${i}`, { classify: 'print' });
});
afterAll(() => t?.close());

describe('export', () => {
  it('refuses a signed-in user without the admin role (403) and a caller without a session (401)', async () => {
    expect((await download('format=csv', 'en', t.userToken)).statusCode).toBe(403);
    expect((await download('format=xlsx', 'en', t.userToken)).statusCode).toBe(403);
    expect((await download('format=csv', 'en', null)).statusCode).toBe(401);
  });

  it('refuses an unknown format naming the field', async () => {
    const res = await download('format=pdf');
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('format');
  });

  it('has every row of a filtered list, in its sort, with labelled headers and enum labels', async () => {
    const list = await t.post('/artmanager/artwork/searchArtworkList', {
      classify: 'painting',
      sort: 'artWorkName',
      order: 'ASC',
      pageSize: 100,
    });
    const res = await download('format=csv&classify=painting&sort=artWorkName&order=ASC');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['x-total-count']).toBe(String(PAINTINGS));
    const [header, ...rows] = csvRows(res.rawPayload);
    expect(header).toContain('Artwork name');
    expect(header).toContain('On-chain status');
    expect(rows).toHaveLength(PAINTINGS);
    const name = header.indexOf('Artwork name');
    expect(rows.map((r) => r[name])).toEqual(
      list.body.data.list.map((a: { artWorkName: string }) => a.artWorkName),
    );
    expect(new Set(rows.map((r) => r[header.indexOf('Category')]))).toEqual(new Set(['painting']));
    expect(new Set(rows.map((r) => r[header.indexOf('On-chain status')]))).toEqual(new Set(['Not on chain']));
    for (const r of rows) expect(r[header.indexOf('Created')]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('answers the headers and enum labels in Chinese, and an XLSX that parses back to the same table', async () => {
    const csv = csvRows((await download('format=csv', 'zh')).rawPayload);
    const res = await download('format=xlsx', 'zh');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="artworks-\d{8}-\d{6}\.xlsx"/);
    const xlsx = await xlsxRows(res.rawPayload);
    expect(csv[0]).toContain('作品名称');
    expect(csv[0]).toContain('上链状态');
    expect(csv[0]).not.toContain('Artwork name');
    expect(csv.slice(1).map((r) => r[csv[0].indexOf('上链状态')])).toContain('未上链');
    expect(csv).toHaveLength(PAINTINGS + PRINTS + 1);
    for (const [i, row] of csv.entries()) expect(xlsx[i], `row ${i}`).toEqual(row);
  });

  it('walks every record once across keyset pages, in both orders and on a non-id sort', async () => {
    const repo = t.app.resources.artworks as never;
    for (const query of [
      {},
      { order: 'ASC' },
      { sort: 'createTime' },
      { sort: 'artWorkName', order: 'ASC' },
    ]) {
      const ids: number[] = [];
      for await (const r of walkRecords(t.app.db, repo, query, {}, 5)) ids.push(r.id as number);
      expect(ids).toHaveLength(PAINTINGS + PRINTS);
      expect(new Set(ids).size).toBe(PAINTINGS + PRINTS);
    }
  });
});

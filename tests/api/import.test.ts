/**
 * The console's import (kernel/server/importJobs.ts, /dev-api/import/*), on SQLite and, with TEST_DATABASE_URL,
 * on PostgreSQL: a spreadsheet of 5 good and 3 bad artworks; the dry run counts them and writes nothing;
 * the reject report names row, field and reason in English and Chinese; the commit writes the 5 (audited);
 * a second import of the same file changes nothing; an exported file imports back unchanged; other roles
 * are refused.
 */
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAuthor, createTestApp, multipart, type TestApp } from './helpers';

let t: TestApp;
let author: number;

async function spreadsheet(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('artworks');
  ws.addRow(['Artwork name', 'Author', 'Category', 'Texture / medium']);
  for (let i = 1; i <= 5; i++) ws.addRow([`Good work ${i}`, author, 'painting', 'oil on canvas']);
  ws.addRow(['No material', author, 'painting', null]); // row 7: texture missing
  ws.addRow(['Unknown author', 999999, 'painting', 'ink']); // row 8: author does not exist
  ws.addRow(['W'.repeat(70), author, 'painting', 'ink']); // row 9: name wider than 60
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function dryRun(bytes: Buffer, filename: string, token?: string) {
  const body = multipart({}, { bytes, filename });
  return t.call({
    method: 'POST',
    url: '/dev-api/import/dryRun?resource=artworks',
    headers: body.headers,
    payload: body.payload,
    token,
  });
}

/** `GET url` as admin in `lang`: the body as text (CSV answers). */
async function text(url: string, lang = 'en'): Promise<string> {
  const res = await t.app.inject({
    method: 'GET',
    url,
    headers: { 'x-token': t.adminToken, 'accept-language': lang },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

const artworkTotal = async () =>
  (await t.post('/artmanager/artwork/searchArtworkList', { pageSize: 1 })).body.data.total as number;

beforeAll(async () => {
  t = await createTestApp();
  author = await addAuthor(t, 'Gwen John');
});
afterAll(() => t?.close());

describe('import', () => {
  it('refuses other roles: dry run, jobs, commit and reject report (403)', async () => {
    const file = await spreadsheet();
    expect((await dryRun(file, 'works.xlsx', t.userToken)).status).toBe(403);
    expect((await t.get('/dev-api/import/jobs?resource=artworks', t.userToken)).status).toBe(403);
    const id = '00000000-0000-0000-0000-000000000000';
    expect((await t.post('/dev-api/import/commit', { id }, t.userToken)).status).toBe(403);
    expect((await t.get(`/dev-api/import/rejects?id=${id}`, t.userToken)).status).toBe(403);
    expect(await artworkTotal()).toBe(0);
  });

  it('dry run counts 5 new and 3 rejected and writes nothing; the commit writes the 5; again: unchanged', async () => {
    const file = await spreadsheet();
    const first = await dryRun(file, 'works.xlsx');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const job = first.body.data;
    expect(job.counts).toEqual({ new: 5, changed: 0, unchanged: 0, rejected: 3 });
    expect(job.sample[0]).toMatchObject({ row: 2, action: 'new', after: { artWorkName: 'Good work 1' } });
    expect(await artworkTotal()).toBe(0);

    // The unfinished job is found again (a reload).
    const jobs = await t.get('/dev-api/import/jobs?resource=artworks');
    expect(jobs.body.data.map((j: { id: string }) => j.id)).toContain(job.id);

    const done = await t.post('/dev-api/import/commit', { id: job.id });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data).toMatchObject({ status: 'done', committed: 5 });
    expect(await artworkTotal()).toBe(5);
    const audit = await t.get('/dev-api/audit/list?pageSize=100');
    expect(
      audit.body.data.list.filter((a: { call: string }) => a.call === 'POST /dev-api/import/commit'),
    ).toHaveLength(5);
    expect((await t.get('/dev-api/import/jobs?resource=artworks')).body.data).toEqual([]);

    const again = await dryRun(file, 'works.xlsx');
    expect(again.body.data.counts).toEqual({ new: 0, changed: 0, unchanged: 5, rejected: 3 });
    const second = await t.post('/dev-api/import/commit', { id: again.body.data.id });
    expect(second.body.data.status).toBe('done');
    expect(await artworkTotal()).toBe(5);
  });

  it('names row, field and reason of every reject, in English and in Chinese', async () => {
    const run = await dryRun(await spreadsheet(), 'works.xlsx');
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    const job = run.body.data;
    const report = async (lang: string) =>
      parse(await text(`/dev-api/import/rejects?id=${job.id}`, lang), { bom: true }) as string[][];
    const en = await report('en');
    expect(en[0]).toEqual(['Row', 'Field', 'Reason']);
    expect(en.slice(1).map((r) => [r[0], r[1]])).toEqual([
      ['7', 'Texture / medium'],
      ['8', 'Author'],
      ['9', 'Artwork name'],
    ]);
    expect(en[2][2]).toContain('999999');
    const zh = await report('zh');
    expect(zh[0]).toEqual(['行', '字段', '原因']);
    expect(zh.slice(1).map((r) => r[1])).toEqual(['材质', '作者', '作品名称']);
    for (const r of zh.slice(1)) expect(r[2]).toMatch(/[\u4e00-\u9fff]/);
  });

  it('imports an exported CSV back as unchanged, and a changed cell as one changed row', async () => {
    const csv = await text('/artmanager/artwork/searchArtworkList/export?format=csv');
    const same = await dryRun(Buffer.from(csv), 'artworks.csv');
    expect(same.body.data.counts).toEqual({ new: 0, changed: 0, unchanged: 5, rejected: 0 });
    const edited = csv.replace('Good work 3,', 'Good work 3 (restored),');
    const changed = (await dryRun(Buffer.from(edited), 'artworks.csv')).body.data;
    expect(changed.counts).toMatchObject({ new: 0, changed: 1, unchanged: 4 });
    expect(changed.sample[0]).toMatchObject({
      action: 'changed',
      before: { artWorkName: 'Good work 3' },
      after: { artWorkName: 'Good work 3 (restored)' },
    });
  });
});

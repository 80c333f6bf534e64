/**
 * Export and import in the console (issue 21 items 1 and 2), on the real server loaded with the FULL Tate
 * collection (51,840 artworks, helpers/env.ts `tate: 'full'`), in English and Chinese:
 * - the artworks list's Export button downloads every artwork, as CSV in English and as XLSX in Chinese
 *   (the file is parsed back: csv-parse, exceljs), its headers in the page's language;
 * - a spreadsheet of 5 good and 3 bad artworks, made here (exceljs in a temporary directory, headers in the
 *   page's language), through the Import dialog: the dry run reports 5 new and 3 rejected and names row,
 *   field and reason in the page's language (on screen and in the downloaded reject report); Import writes
 *   the 5; the same file again changes nothing (0 new, 0 changed, 5 unchanged) and offers nothing to import.
 * - a CSV with unknown headers and missing required ones: the dialog names them above the counts, in the
 *   page's language; a CSV whose headers name no field is refused in the dialog, saying so;
 * - the dry-run report fits a 1440 px and a 375 px screen in Chinese (screenshots in helpers/screenshots.ts's
 *   folder).
 * Run time: the full import before the server starts (about 10-20 s of CPU), then a few seconds per export.
 * Where the full Tate files are not there (TATE_DIR, default ../shared/data/tate), the same tests run on
 * the first-start seed (1,826 artworks), the file still having every row the list counts; a line says so.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL_TATE_AVAILABLE, TATE_DIR, startEnv, type TestEnv } from './helpers/env';
import { screenshotDir } from './helpers/screenshots';
import { TransferPage } from './pages/TransferPage';

let env: TestEnv;
let dir: string;
/** A stored author's id (the good rows' author). */
let author: number;

/** The number of artworks the list call counts (the whole registry). */
const artworkTotal = async () =>
  (await env.adminApi('/artmanager/artwork/searchArtworkList', { pageSize: 1 })).body.data.total as number;

beforeAll(async () => {
  if (!FULL_TATE_AVAILABLE)
    console.warn(`transfer.test: no full Tate files in ${TATE_DIR}; exporting the first-start seed instead`);
  env = await startEnv({ tate: FULL_TATE_AVAILABLE ? 'full' : 'sample' });
  dir = mkdtempSync(join(tmpdir(), 'baas-transfer-'));
  const authors = await env.adminApi('/artmanager/authors/getList?page=1&pageSize=1&sort=id&order=ASC');
  author = Number(authors.body.data.list[0].id);
  // The full import takes about 20 s of CPU, and minutes on a busy machine.
}, 600_000);

afterAll(async () => {
  await env?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const TEXT = {
  en: {
    name: 'Artwork name',
    author: 'Author',
    classify: 'Category',
    texture: 'Texture / medium',
    reportHead: ['Row', 'Field', 'Reason'],
    dryRun: '5 new, 0 changed, 0 unchanged, 3 rejected (of 8 rows)',
    again: '0 new, 0 changed, 5 unchanged, 3 rejected (of 8 rows)',
    committed: 'Importing… 5 of 5',
    close: /^Close$/,
    nothing: /Nothing to import/,
    columns:
      'Unknown columns (not imported): Notes, Room. Missing required columns (a new row needs them): Category (classify), Texture / medium (texture).',
    noColumn: /^file: none of its columns is a field of artworks \(Notes, Room\)/,
  },
  zh: {
    name: '作品名称',
    author: '作者',
    classify: '作品分类',
    texture: '材质',
    reportHead: ['行', '字段', '原因'],
    dryRun: '新增 5，修改 0，未变 0，拒绝 3（共 8 行）',
    again: '新增 0，修改 0，未变 5，拒绝 3（共 8 行）',
    committed: '正在导入… 5 / 5',
    close: /^关闭$/,
    nothing: /没有可导入的行/,
    columns:
      '未知的列（不导入）：Notes、Room。缺少必填的列（新增的行需要）：作品分类（classify）、材质（texture）。',
    noColumn: /^文件：没有一列是作品的字段（Notes、Room）/,
  },
};

/** The rows of an XLSX file as cell texts (exceljs), header first. */
async function xlsxRows(file: string): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const rows: string[][] = [];
  wb.worksheets[0].eachRow((row) =>
    rows.push(
      Array.from((row.values as unknown[]).slice(1), (v) => (v === null || v === undefined ? '' : String(v))),
    ),
  );
  return rows;
}

describe('export every artwork', { timeout: 300_000 }, () => {
  it.each([
    ['en', 'csv'],
    ['zh', 'xlsx'],
  ] as const)('in %s as %s: the file has every row, headers in the page language', async (lang, format) => {
    const total = await artworkTotal();
    // The figure: the full Tate collection minus the rows the registry's rules reject.
    expect(total).toBe(FULL_TATE_AVAILABLE ? 51_840 : 1_826);
    const page = await env.signIn('admin', lang);
    const ui = new TransferPage(page, env.baseUrl);
    try {
      await ui.openList('artworks');
      const file = await ui.exportAs(format);
      const [header, ...rows] =
        format === 'csv' ? (parse(readFileSync(file), { bom: true }) as string[][]) : await xlsxRows(file);
      expect(header).toContain(TEXT[lang].name);
      expect(header).toContain(TEXT[lang].author);
      expect(rows).toHaveLength(total);
      // Every artwork once: the ids are distinct.
      const id = header.indexOf(lang === 'en' ? 'ID' : '编号');
      expect(id).toBeGreaterThanOrEqual(0);
      expect(new Set(rows.map((r) => r[id])).size).toBe(total);
    } finally {
      await page.context().close();
    }
  });
});

/**
 * An XLSX of 5 good and 3 bad artworks named after `tag`, headers the labels in `lang`: its path.
 * Rows 2-6 are good; row 7 lacks the medium, row 8 names no stored author, row 9's name is wider than 60.
 */
async function spreadsheet(lang: 'en' | 'zh', tag: string): Promise<string> {
  const t = TEXT[lang];
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('artworks');
  ws.addRow([t.name, t.author, t.classify, t.texture]);
  for (let i = 1; i <= 5; i++) ws.addRow([`${tag} ${i}`, author, 'painting', 'oil on canvas']);
  ws.addRow([`${tag} no medium`, author, 'painting', null]);
  ws.addRow([`${tag} unknown author`, 999_999_999, 'painting', 'ink']);
  ws.addRow([`W${tag}`.repeat(12).slice(0, 70), author, 'painting', 'ink']);
  const file = join(dir, `${tag.replace(/\W/g, '-')}.xlsx`);
  await wb.xlsx.writeFile(file);
  return file;
}

describe.each(['en', 'zh'] as const)('import a spreadsheet (%s)', (lang) => {
  const t = TEXT[lang];

  it('dry run: 5 new and 3 rejected with row, field and reason; Import; the same file again changes nothing', async () => {
    const file = await spreadsheet(lang, `Imported ${lang}`);
    const before = await artworkTotal();
    const page = await env.signIn('admin', lang);
    const ui = new TransferPage(page, env.baseUrl);
    try {
      await ui.openList('artworks');
      expect(await ui.dryRun(file)).toBe(t.dryRun);
      const { head, rows } = await ui.rejects();
      expect(head).toEqual(t.reportHead);
      expect(rows.map((r) => [r[0], r[1]])).toEqual([
        ['7', t.texture],
        ['8', t.author],
        ['9', t.name],
      ]);
      // Each reason is a sentence of the page's language (Chinese characters in zh, none in en).
      for (const r of rows) {
        expect(r[2].length).toBeGreaterThan(1);
        expect(/[\u4e00-\u9fff]/.test(r[2])).toBe(lang === 'zh');
      }
      expect(rows[1][2]).toContain('999999999');

      const report = parse(readFileSync(await ui.downloadRejects()), { bom: true }) as string[][];
      expect(report[0]).toEqual(t.reportHead);
      expect(report.slice(1)).toEqual(rows);
      // The dry run wrote nothing.
      expect(await artworkTotal()).toBe(before);

      expect(await ui.commit()).toBe(t.committed);
      expect(await artworkTotal()).toBe(before + 5);
      await ui.close(t.close);

      expect(await ui.dryRun(file)).toBe(t.again);
      await expect.poll(() => ui.commitButton().textContent()).toMatch(t.nothing);
      expect(await ui.commitButton().isDisabled()).toBe(true);
      await ui.close(t.close);
      expect(await artworkTotal()).toBe(before + 5);
    } finally {
      await page.context().close();
    }
  });
});

describe.each(['en', 'zh'] as const)('the header row of a CSV (%s)', (lang) => {
  const t = TEXT[lang];

  it('unknown and missing columns are named above the counts; a file naming no field is refused, saying so', async () => {
    const partial = join(dir, `columns-${lang}.csv`);
    writeFileSync(partial, `${t.name},${t.author},Notes,Room\nA work,${author},n,r\n`);
    const none = join(dir, `no-column-${lang}.csv`);
    writeFileSync(none, `Notes,Room\nn,r\n`);
    const page = await env.signIn('admin', lang);
    const ui = new TransferPage(page, env.baseUrl);
    try {
      await ui.openList('artworks');
      await ui.dryRun(partial);
      const [columns, counts] = await ui.reportTop();
      expect(columns).toBe(t.columns);
      expect(counts).toMatch(
        lang === 'en' ? /^0 new, 0 changed, 0 unchanged, 1 rejected/ : /^新增 0，修改 0，未变 0，拒绝 1/,
      );
      await ui.close(t.close);
      expect(await ui.refusedDryRun(none)).toMatch(t.noColumn);
      await ui.close(t.close);
    } finally {
      await page.context().close();
    }
  });
});

describe('the dry-run report on a wide and a narrow screen (zh)', () => {
  it.each([1440, 375])(
    'at %i px it fits the screen (screenshot import-dry-run.zh.<width>.png)',
    async (width) => {
      const page = await env.signIn('admin', 'zh', { width, height: width > 600 ? 900 : 800 });
      const ui = new TransferPage(page, env.baseUrl);
      try {
        await ui.openList('artworks');
        expect(await ui.dryRun(await spreadsheet('zh', `Shot ${width}`))).toBe(TEXT.zh.dryRun);
        await ui.dialog().getByTestId('import-rejects').waitFor();
        const paper = ui.dialog().locator('.MuiDialog-paper');
        // Nothing of the report runs off the screen or needs a sideways scroll.
        const box = (await paper.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        const content = ui.dialog().locator('.MuiDialogContent-root');
        expect(await content.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
        await page.screenshot({ path: join(screenshotDir(), `import-dry-run.zh.${width}.png`) });
        await ui.close(TEXT.zh.close);
      } finally {
        await page.context().close();
      }
    },
  );
});

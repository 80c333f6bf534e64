/**
 * The XLSX reader of server/import/table.ts against ExcelJS's own files: ExcelJS's streaming reader raced
 * with itself on about 1 file in 200 ("Cannot read properties of undefined (reading 'sheets')"), so an
 * operator's good spreadsheet was refused now and then. 300 fresh workbooks (each with its own created
 * and modified dates, so each file's bytes differ) must all read back whole.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { openTable } from './table';

const dir = mkdtempSync(join(tmpdir(), 'baas-xlsx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A workbook of a header row and 8 rows, as the console's import test writes it. */
async function workbook(n: number): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.created = new Date(Date.UTC(2020, 0, 1) + n * 86_400_123);
  wb.modified = new Date(Date.UTC(2021, 0, 1) + n * 3_600_457);
  const ws = wb.addWorksheet('artworks');
  ws.addRow(['Artwork name', 'Author', 'Category', 'Texture / medium']);
  for (let i = 1; i <= 8; i++) ws.addRow([`Work ${n}.${i}`, i, 'painting', i % 3 ? 'oil on canvas' : null]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('openTable (xlsx)', () => {
  it('reads every row of 300 different workbooks', async () => {
    const failures: string[] = [];
    for (let n = 0; n < 300; n++) {
      const file = join(dir, `${n}.xlsx`);
      writeFileSync(file, await workbook(n));
      try {
        const table = await openTable(file, 'xlsx');
        const names: unknown[] = [];
        for await (const row of table.rows) names.push(row.cells['Artwork name']);
        if (names.length !== 8 || names[7] !== `Work ${n}.8`)
          failures.push(`${n}: ${names.length} rows: ${JSON.stringify(names)}`);
      } catch (e) {
        failures.push(`${n}: ${(e as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});

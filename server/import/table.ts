/**
 * The rows of an uploaded table file, for the console's import (jobs.ts): each row as `{line, cells}`
 * where `cells` maps a header (a field name or its label in any language, kernel/server/tableColumns.ts)
 * to the cell. `line` is the 1-based data row (the header row not counted).
 * - CSV (RFC 4180, UTF-8, with or without a byte-order mark): csv-parse, first row the headers.
 * - XLSX: exceljs, the first sheet, first row the headers; rich text and hyperlinks read as their text,
 *   formulas as their result, dates as `Date`.
 * - JSON: an array of objects keyed by field names (an exported record, or a row of Tate's layout once
 *   mapped by the caller).
 * @throws Error("file") naming what could not be read
 */
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';

export type TableFormat = 'csv' | 'xlsx' | 'json';

export interface TableRow {
  line: number;
  cells: Record<string, unknown>;
  /** A body already in field names (a mapped source row, tateTable.ts): taken instead of `cells`. */
  body?: Record<string, unknown>;
  /** Stored columns naming the row's source (`sourceId`, `sourceDigest`): its key, written with it. */
  key?: Record<string, unknown>;
  /** Reasons found before the schema's validation (the source's own layer): the row is rejected. */
  errors?: import('../../common/envelope').FieldError[];
}

/** The format of a file by its name (extension), or by its first bytes (a ZIP is XLSX, `[` or `{` JSON). */
export function formatOf(fileName: string, head: Buffer): TableFormat {
  const ext = /\.(\w+)$/.exec(fileName.toLowerCase())?.[1];
  if (ext === 'csv' || ext === 'xlsx' || ext === 'json') return ext;
  if (head[0] === 0x50 && head[1] === 0x4b) return 'xlsx';
  const first = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()[0];
  return first === '[' || first === '{' ? 'json' : 'csv';
}

/** An XLSX cell's value as plain data. */
function cellData(v: ExcelJS.CellValue): unknown {
  if (v === null || v === undefined || v instanceof Date) return v;
  if (typeof v !== 'object') return v;
  if ('richText' in v) return v.richText.map((r) => r.text).join('');
  if ('text' in v) return v.text;
  if ('result' in v) return v.result;
  return String(v as unknown);
}

/** The rows of `data` (see the module doc). */
export async function readTable(data: Buffer, format: TableFormat): Promise<TableRow[]> {
  if (format === 'csv') {
    const records = parse(data, {
      bom: true,
      columns: true,
      skip_empty_lines: true,
      relax_column_count: true,
    });
    return (records as Record<string, string>[]).map((cells, i) => ({ line: i + 1, cells }));
  }
  if (format === 'json') {
    const parsed: unknown = JSON.parse(data.toString('utf8').replace(/^\uFEFF/, ''));
    const list = Array.isArray(parsed) ? parsed : [parsed];
    return list.map((cells, i) => ({ line: i + 1, cells: (cells ?? {}) as Record<string, unknown> }));
  }
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0];
  if (!sheet) return [];
  const headers: string[] = [];
  sheet.getRow(1).eachCell((c, col) => (headers[col] = String(cellData(c.value) ?? '')));
  const rows: TableRow[] = [];
  sheet.eachRow((row, n) => {
    if (n === 1) return;
    const cells: Record<string, unknown> = {};
    row.eachCell((c, col) => {
      if (headers[col]) cells[headers[col]] = cellData(c.value);
    });
    rows.push({ line: n - 1, cells });
  });
  return rows;
}

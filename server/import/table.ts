/**
 * The rows of an uploaded table file on disk, for the console's import (kernel/server/importJobs.ts), read
 * as a stream: each row as `{line, cells}` where `cells` maps a header (a field name or its label in any
 * language, kernel/server/tableColumns.ts) to the cell. `line` is the 1-based data row (the header row not
 * counted). The whole file is never held: at most a chunk of it and the rows the caller holds.
 * - CSV: the text encoding detected (textEncoding.ts: UTF-8 with or without a byte-order mark,
 *   GB18030/GBK, UTF-16 with a byte-order mark), the delimiter from the header line (`,`, tab as Excel's
 *   "Unicode text" writes, or `;`, whichever it has most of), csv-parse (RFC 4180), first row the headers.
 * - XLSX: exceljs's streaming reader, the first sheet, first row the headers; rich text and hyperlinks
 *   read as their text, formulas as their result, dates as `Date`.
 * - JSON: an array of objects keyed by field names (an exported record, or a row of Tate's layout once
 *   mapped by the caller), read by readRows.ts (one object per line streamed, other layouts read whole);
 *   a file in another encoding than UTF-8 is first decoded into a UTF-8 copy beside it.
 * Errors: EncodingError (textEncoding.ts) when the text cannot be decoded; any other Error names what
 * could not be read (the caller answers 400 naming the field `file`).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import type ExcelJS from 'exceljs';
import type { FieldError } from '../../common/envelope';
import { readRows } from './readRows';
import { byteOrderMark, decodeText, type Detected } from './textEncoding';

/** exceljs, loaded at the first XLSX file read (not at every start of a process that may read one). */
const loadExcel = async () => (await import('exceljs')).default;

export type TableFormat = 'csv' | 'xlsx' | 'json';

export interface TableRow {
  line: number;
  cells: Record<string, unknown>;
  /** A body already in field names (a mapped source row, tateTable.ts): taken instead of `cells`. */
  body?: Record<string, unknown>;
  /** Stored columns naming the row's source (`sourceId`, `sourceDigest`): its key, written with it. */
  key?: Record<string, unknown>;
  /** Reasons found before the schema's validation (the source's own layer): the row is rejected. */
  errors?: FieldError[];
}

/** An opened table: its header row and its rows, read as they are iterated. */
export interface OpenTable {
  /** The header row's texts (CSV, XLSX), the keys of the first record (JSON); empty for an empty file. */
  headers: string[];
  /** The rows after the header, in order (iterate once). */
  rows: AsyncGenerator<TableRow>;
  /** The text encoding read (CSV and JSON; known once the rows are read, or earlier). */
  encoding(): Detected | undefined;
}

/** Bytes read per chunk of the file. */
const CHUNK = 1 << 20;

/** The format of a file by its name (extension), or by its first bytes (a ZIP is XLSX, `[` or `{` JSON). */
export function formatOf(fileName: string, head: Buffer): TableFormat {
  const ext = /\.(\w+)$/.exec(fileName.toLowerCase())?.[1];
  if (ext === 'csv' || ext === 'tsv' || ext === 'txt') return 'csv';
  if (ext === 'xlsx' || ext === 'json') return ext;
  if (head[0] === 0x50 && head[1] === 0x4b) return 'xlsx';
  const first = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()[0];
  return first === '[' || first === '{' ? 'json' : 'csv';
}

/** The first bytes of `file` (for formatOf). */
export async function headOf(file: string, bytes = 64): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** The delimiter of a CSV header line: `,`, tab or `;`, whichever occurs most outside quotes (`,` on a tie). */
export function delimiterOf(line: string): string {
  const unquoted = line.replace(/"[^"]*"/g, '');
  const count = (c: string) => unquoted.split(c).length - 1;
  return [',', '\t', ';'].reduce((best, c) => (count(c) > count(best) ? c : best), ',');
}

const headerText = (v: unknown) =>
  String(v ?? '')
    .replace(/^\uFEFF/, '')
    .trim();

/** The rows of a CSV file (see the module doc). */
async function openCsv(file: string): Promise<OpenTable> {
  let encoding: Detected | undefined;
  const text = decodeText(createReadStream(file, { highWaterMark: CHUNK }), (d) => (encoding = d));
  // The header line decides the delimiter: read until it ends.
  let start = '';
  let ended = false;
  while (!/[\r\n]/.test(start) && start.length < CHUNK) {
    const next = await text.next();
    if (next.done) {
      ended = true;
      break;
    }
    start += next.value;
  }
  const delimiter = delimiterOf(start.split(/\r\n|\r|\n/, 1)[0]);
  const source = Readable.from(
    (async function* () {
      if (start) yield start;
      if (!ended) yield* text;
    })(),
    { objectMode: false },
  );
  const parser = parse({ delimiter, bom: true, skip_empty_lines: true, relax_column_count: true });
  const piped = pipeline(source, parser);
  piped.catch(() => {}); // the error reaches the reader through the parser
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  const first = await records.next();
  const headers = first.done ? [] : first.value.map(headerText);
  async function* rows(): AsyncGenerator<TableRow> {
    let line = 0;
    try {
      for (;;) {
        const r = await records.next();
        if (r.done) break;
        const cells: Record<string, unknown> = {};
        r.value.forEach((cell, i) => {
          if (headers[i]) cells[headers[i]] = cell;
        });
        yield { line: ++line, cells };
      }
      await piped;
    } finally {
      source.destroy();
    }
  }
  return { headers, rows: rows(), encoding: () => encoding };
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

/** A sheet row's cells by header text (`headers[col]`, 1-based columns); columns without a header are left out. */
function rowCells(row: ExcelJS.Row, headers: string[]): Record<string, unknown> {
  const cells: Record<string, unknown> = {};
  row.eachCell((c, col) => {
    if (headers[col]) cells[headers[col]] = cellData(c.value);
  });
  return cells;
}

/**
 * The rows of the first sheet of an XLSX file read whole into memory (ExcelJS `Workbook.xlsx.readFile`):
 * the fallback of {@link openXlsx} when the streaming reader fails on a good file.
 */
async function openXlsxWhole(file: string): Promise<OpenTable> {
  const wb = new (await loadExcel()).Workbook();
  await wb.xlsx.readFile(file);
  const ws = wb.worksheets[0];
  const headers: string[] = [];
  if (!ws) return { headers: [], rows: (async function* () {})(), encoding: () => undefined };
  ws.getRow(1).eachCell((c, col) => (headers[col] = headerText(cellData(c.value))));
  const data: TableRow[] = [];
  ws.eachRow((row, number) => {
    if (number === 1) return;
    data.push({ line: number - 1, cells: rowCells(row, headers) });
  });
  return {
    headers: headers.filter(Boolean),
    rows: (async function* () {
      yield* data;
    })(),
    encoding: () => undefined,
  };
}

/** The rows of the first sheet of an XLSX file (see the module doc). */
async function openXlsx(file: string): Promise<OpenTable> {
  const reader = new (await loadExcel()).stream.xlsx.WorkbookReader(file, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  const sheets = reader[Symbol.asyncIterator]();
  let sheet;
  try {
    sheet = await sheets.next();
  } catch (e) {
    // ExcelJS's streaming reader sometimes reaches the worksheet before it has read the workbook, and
    // throws "Cannot read properties of undefined (reading 'sheets')" (about 1 file in 200 of its own
    // writing): the whole-file reader reads those.
    if (e instanceof TypeError) return openXlsxWhole(file);
    throw e;
  }
  if (sheet.done) return { headers: [], rows: (async function* () {})(), encoding: () => undefined };
  const sheetRows = (sheet.value as AsyncIterable<ExcelJS.Row>)[Symbol.asyncIterator]();
  const headers: string[] = [];
  let firstData: ExcelJS.Row | undefined;
  for (;;) {
    const r = await sheetRows.next();
    if (r.done) break;
    if (r.value.number === 1) r.value.eachCell((c, col) => (headers[col] = headerText(cellData(c.value))));
    else firstData = r.value;
    break;
  }
  async function* rows(): AsyncGenerator<TableRow> {
    const toRow = (row: ExcelJS.Row): TableRow => ({ line: row.number - 1, cells: rowCells(row, headers) });
    try {
      if (firstData) yield toRow(firstData);
      for (;;) {
        const r = await sheetRows.next();
        if (r.done) break;
        yield toRow(r.value);
      }
    } finally {
      // Only the first sheet is read: closing the workbook's iterator closes the file.
      await sheetRows.return?.(undefined);
      await sheets.return?.(undefined);
    }
  }
  return { headers: headers.filter(Boolean), rows: rows(), encoding: () => undefined };
}

/** The rows of a JSON file (see the module doc). */
async function openJson(file: string): Promise<OpenTable> {
  let encoding: Detected | undefined;
  let source = file;
  const bom = byteOrderMark(await headOf(file, 4));
  if (bom && bom.encoding !== 'utf-8') {
    // readRows reads UTF-8: a UTF-16 (or GB18030) file is decoded into a copy first.
    source = `${file}.utf8`;
    await pipeline(
      Readable.from(decodeText(createReadStream(file, { highWaterMark: CHUNK }), (d) => (encoding = d))),
      createWriteStream(source),
    );
  } else encoding = bom;
  const read = readRows(source);
  const first = await read.next();
  const keysOf = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : []);
  async function* rows(): AsyncGenerator<TableRow> {
    let line = 0;
    try {
      for (let r = first; !r.done; r = await read.next()) {
        const { row, error } = r.value;
        if (error !== undefined)
          yield {
            line: ++line,
            cells: {},
            errors: [{ field: '', keyword: 'json', params: {}, message: `line ${r.value.line}: ${error}` }],
          };
        else yield { line: ++line, cells: (row ?? {}) as Record<string, unknown> };
      }
    } finally {
      await read.return(undefined);
      if (source !== file) await rm(source, { force: true });
    }
  }
  return {
    headers: first.done ? [] : keysOf(first.value.row),
    rows: rows(),
    encoding: () => encoding ?? { encoding: 'utf-8', bom: false, name: 'UTF-8' },
  };
}

/**
 * Opens `file` as a table of `format` and reads its header row (see the module doc).
 * @throws EncodingError, or an Error naming what could not be read (also from iterating `rows`)
 */
export async function openTable(file: string, format: TableFormat): Promise<OpenTable> {
  if (format === 'csv') return openCsv(file);
  if (format === 'json') return openJson(file);
  return openXlsx(file);
}

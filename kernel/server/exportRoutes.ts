/**
 * Export of every record a list call matches, as a file: `GET <list path>/export?format=csv|xlsx` plus the
 * list's own parameters (filters, `q`, `ids`, sort, order; no paging), registered by the resources plugin
 * (resources.ts) beside each resource's getList call, behind the same role gate and read scope.
 * - Columns: tableColumns.ts (what the list answers), headed by their labels in the caller's language
 *   (Accept-Language); enum values as their labels, date-times as `YYYY-MM-DD HH:mm:ss`.
 * - Streamed: records are read in keyset pages of {@link PAGE} (`(sort, id) < (last sort, last id)` in the
 *   sort's direction; `id` breaks ties in the same direction) and written as they come, never all held:
 *   CSV by csv-stringify (RFC 4180, UTF-8 with a byte-order mark so spreadsheet programs read Chinese),
 *   XLSX by exceljs's streaming WorkbookWriter (one sheet, inline strings). A sort on a nullable or
 *   computed column pages by offset instead (the same order; a keyset cannot step over NULLs portably).
 * - Headers: `X-Total-Count` (the rows the file will hold, from the list's count) so the console can show
 *   progress, and `Content-Disposition: attachment; filename="<resource>-<UTC time>.<format>"`.
 */
import { PassThrough, Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { stringify } from 'csv-stringify';
import type ExcelJS from 'exceljs';
import { sql, type Kysely } from 'kysely';
import { languageOf, type Language } from '../../common/messages/index';
import { buildVariant, type ResourceSchema } from '../dialect/schemaRegistry';
import { direction, type ListQuery } from './listQuery';
import type { Repository } from './repository';
import { cellOf, tableColumns, type TableColumn } from './tableColumns';

/**
 * Records read per page of an export: 200 kept the server's peak RSS at about 217 MB for the 51,840 Tate
 * artworks where 1,000 reached 321 MB (each page outlives young-generation collections; issue 21).
 */
export const PAGE = 200;

/** The export formats and their media types. */
export const EXPORT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;
export type ExportFormat = keyof typeof EXPORT_TYPES;

/**
 * Every record of `repo` matching `query` and `scope`, in the query's sort and order, read page by page
 * (see the module doc).
 */
export async function* walkRecords(
  db: Kysely<any>,
  repo: Repository<object>,
  query: ListQuery,
  scope: Record<string, unknown>,
  pageSize = PAGE,
): AsyncGenerator<Record<string, unknown>> {
  const { table, columns, counts } = repo.model;
  const sort = query.sort ?? 'id';
  const dir = direction(query.order);
  const keyset = sort === 'id' || (columns[sort]?.notNull && !counts.some((c) => c.name === sort));
  const sortRef = counts.some((c) => c.name === sort) ? sql.ref(sort) : sql.ref(`${table}.${sort}`);
  const idRef = `${table}.id`;
  let last: { sort: unknown; id: unknown } | undefined;
  for (let offset = 0; ; offset += pageSize) {
    let qb = repo.matching(db, query, scope);
    if (keyset && last) {
      const op = dir === 'desc' ? '<' : '>';
      const after = last;
      qb =
        sort === 'id'
          ? qb.where(idRef, op, after.id)
          : qb.where((eb: any) =>
              eb.or([
                eb(`${table}.${sort}`, op, after.sort),
                eb.and([eb(`${table}.${sort}`, '=', after.sort), eb(idRef, op, after.id)]),
              ]),
            );
    }
    qb = qb
      .orderBy(sortRef, dir)
      .orderBy(idRef, keyset ? dir : 'desc')
      .limit(pageSize);
    if (!keyset) qb = qb.offset(offset);
    const rows = (await qb.execute()) as Record<string, unknown>[];
    for (const row of rows) yield repo.toRecord(row);
    if (rows.length < pageSize) return;
    const end = rows[rows.length - 1];
    last = { sort: end[sort], id: end.id };
  }
}

/** The rows of a file: the header of labels in `lang`, then one array of cells per record. */
async function* tableRows(
  records: AsyncIterable<Record<string, unknown>>,
  columns: TableColumn[],
  lang: Language,
) {
  yield columns.map((c) => c.label[lang]);
  for await (const r of records) yield columns.map((c) => cellOf(c, r[c.name], lang));
}

/** A CSV byte stream of `rows` (csv-stringify, with a UTF-8 byte-order mark). */
export function csvStream(rows: AsyncIterable<unknown[]>): Readable {
  return Readable.from(rows).pipe(stringify({ bom: true, cast: { boolean: (b) => String(b) } }));
}

/** A writable of any `readable-stream` version: its state says whether a write was refused (`needDrain`). */
type AnyWritable = NodeJS.EventEmitter & { _writableState?: { needDrain?: boolean } };

/**
 * The writable the rows of a streaming `worksheet` are piped into (the zip entry's compressor, a
 * `readable-stream` PassThrough of archiver's), once exceljs has connected it: its `StreamBuf` keeps its
 * consumers in `pipes` (exceljs 4, lib/utils/stream-buf.js). Undefined before (then only the answer's
 * backpressure applies).
 */
function sheetSink(worksheet: ExcelJS.Worksheet): AnyWritable | undefined {
  const pipes = (worksheet as unknown as { _stream?: { pipes?: AnyWritable[] } })._stream?.pipes;
  return pipes?.[0];
}

/**
 * An XLSX byte stream of `rows` (exceljs streaming WorkbookWriter, one sheet named `sheet`); each row is
 * committed as it is written, waiting while the reader is behind. An error destroys the stream.
 */
export function xlsxStream(rows: AsyncIterable<unknown[]>, sheet: string): Readable {
  const out = new PassThrough();
  void (async () => {
    // exceljs loaded at the first XLSX export, not at every server start (a third of a second of CPU)
    const { default: excel } = await import('exceljs');
    const workbook = new excel.stream.xlsx.WorkbookWriter({
      stream: out,
      useSharedStrings: false,
      useStyles: false,
    });
    const worksheet = workbook.addWorksheet(sheet.slice(0, 31));
    for await (const row of rows) {
      worksheet.addRow(row).commit();
      // exceljs's sheet buffer writes into the zip's compressor without heeding its answer (issue 21:
      // 355 MB peak RSS): wait while the compressor, or the answer, is behind.
      const sink = sheetSink(worksheet);
      if (sink?._writableState?.needDrain) await new Promise((resolve) => sink.once('drain', resolve));
      if (out.writableNeedDrain) await new Promise((resolve) => out.once('drain', resolve));
    }
    worksheet.commit();
    await workbook.commit();
  })().catch((e: unknown) => out.destroy(e as Error));
  return out;
}

/** A file name part: the time as `YYYYMMDD-HHmmss` (UTC). */
const stamp = () =>
  new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace('T', '-')
    .replace(/\.\d+Z$/, '');

/**
 * Registers `GET <listPath>/export` for `schema` (see the module doc).
 * @param gate the list call's role gate
 * @param scopeOf the resource's read scope for a caller and list query (ResourceHooks.readScope)
 */
export function registerExport(
  app: FastifyInstance,
  schema: ResourceSchema,
  repo: Repository<object>,
  listPath: string,
  gate: onRequestHookHandler,
  scopeOf: (req: FastifyRequest, query: object) => Record<string, unknown>,
): void {
  const {
    $id: _id,
    properties,
    ...variant
  } = buildVariant(schema, 'listQuery') as {
    $id?: string;
    properties: Record<string, unknown>;
  };
  const { page: _page, pageSize: _pageSize, ...listParams } = properties;
  const columns = tableColumns(repo.model);
  const name = schema['x-resource']!.name;
  app.route<{ Querystring: ListQuery & { format?: ExportFormat } }>({
    method: 'GET',
    url: `${listPath.replace(/\/$/, '')}/export`,
    onRequest: gate,
    schema: {
      summary: `Export every matching ${repo.model.label.toLowerCase()} as CSV or XLSX`,
      querystring: {
        ...variant,
        properties: {
          ...listParams,
          format: { type: 'string', enum: Object.keys(EXPORT_TYPES), default: 'csv' },
        },
      },
      response: {
        200: {
          description: 'The file (CSV or XLSX), streamed; X-Total-Count gives its rows',
          content: {
            [EXPORT_TYPES.csv.split(';')[0]]: { schema: { type: 'string' } },
            [EXPORT_TYPES.xlsx]: { schema: { type: 'string', format: 'binary' } },
          },
        },
      },
    },
    handler: async (req, reply) => {
      const { format = 'csv', ...query } = req.query;
      const lang = languageOf(req.headers['accept-language']);
      const scope = scopeOf(req, query);
      const { total } = await repo.list(app.db, { ...query, page: 1, pageSize: 1 }, scope);
      const rows = tableRows(walkRecords(app.db, repo, query, scope), columns, lang);
      reply
        .header('content-type', EXPORT_TYPES[format])
        .header('content-disposition', `attachment; filename="${name}-${stamp()}.${format}"`)
        .header('x-total-count', String(total))
        .header('access-control-expose-headers', 'X-Total-Count, Content-Disposition');
      return reply.send(format === 'csv' ? csvStream(rows) : xlsxStream(rows, name));
    },
  });
}

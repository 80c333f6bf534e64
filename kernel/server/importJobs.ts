/**
 * The console's import of a table file into any resource (CSV, XLSX or JSON rows, table.ts), as a job kept
 * on the server (tables `import_jobs`, `import_job_rows`, migration 20261126T0600_import_jobs):
 * 1. `dryRun`: every row (a Tate artworks JSON file mapped as `npm run import` maps it,
 *    server/import/tateTable.ts) becomes a body of the resource's writable fields (headers by name or label, cells
 *    read back by kernel/server/tableColumns.ts `valueOf`), is matched to a stored record by its key, and
 *    is checked by the schema's own validators (`<id>.create` for a new record, `<id>.update` for a change)
 *    and its references: `new`, `changed` (only the fields that differ are written), `unchanged` (same key,
 *    same values: idempotent) or `rejected` (FieldError[]). Nothing is written to the resource.
 *    The key: the `id` column when the row has one and it is stored; else a unique field (`x-unique`);
 *    else the record representation (`x-resource.recordRepresentation`) when exactly one record has it.
 *    The file is read from disk as a stream (its text encoding detected, server/import/textEncoding.ts),
 *    {@link BATCH} rows at a time: the stored records a batch names by id are read in one query, the
 *    references it names once per run. Its header row is reported first (importColumns.ts: unknown and
 *    missing columns, kept in the job's `counts` JSON with the encoding's name); a file whose headers name
 *    no field, or that cannot be decoded or parsed, is refused with a 400 naming `file` and no job is kept.
 * 2. `commitBatch`: the next {@link BATCH} rows to write, through the generic repository (the same checks,
 *    hooks and audit as the API's create/update, server/db/audit.ts) in ONE transaction; when the batch
 *    fails it is rolled back and its rows written one by one, a refused row becoming `rejected` with the
 *    repository's errors. Each call is a step: a reload resumes at the first row not written.
 * 3. `rejectReport(lang)`: one line per failed field: row (the file's row number, the header being row 1),
 *    field label and reason in the user's language (common/messages `fieldErrorText`).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { FieldError } from '../../common/envelope';
import { fieldErrorText, fieldLabel, type Language } from '../../common/messages/index';
import { columnReport, columnText, noKnownColumn } from './importColumns';
import { formatErrors, schemaForResource } from '../dialect/schemaRegistry';
import { validatorFor } from '../dialect/validators';
import type { Repository } from './repository';
import { columnFor, tableColumns, valueOf } from './tableColumns';
import { nowText } from '../../server/db/database';
import type { WriteActor } from '../../server/db/audit';
import { ApiError, invalidField, notFound } from '../../server/errors';
import { formatOf, headOf, openTable, type TableFormat, type TableRow } from '../../server/import/table';
import { EncodingError } from '../../server/import/textEncoding';
import { isTateArtworks, tateArtworkRows } from '../../server/import/tateTable';

/** Rows written per commit step (one transaction). */
export const BATCH = 500;
/** Rows of the sample diff and of the rejects a summary carries. */
const SAMPLE = 10;

type Db = Kysely<any>;
type Action = 'new' | 'changed' | 'unchanged' | 'rejected';
export type Counts = Record<Action, number>;
/**
 * The job's `counts` column (JSON): the counts, and what the file's reading found: the header row's
 * unknown headers and missing required fields (importColumns.ts), the text encoding's name.
 */
type StoredCounts = Counts & { columns?: { unknown: string[]; missing: string[] }; encoding?: string };

/** What the console shows of a job. */
export interface JobSummary {
  id: string;
  resource: string;
  fileName: string;
  status: 'ready' | 'committing' | 'done' | 'discarded';
  total: number;
  counts: Counts;
  /** The header row: headers naming no column, required fields (names) no header names. */
  columns: { unknown: string[]; missing: string[] };
  /** {@link columns} as a sentence in the caller's language, shown before any row; empty when all is well. */
  columnsText: string;
  /** The text encoding the file was read in (CSV, JSON), e.g. "UTF-8", "GB18030 (GBK)"; null for XLSX. */
  encoding: string | null;
  /** Rows written so far, of `toWrite` (new + changed). */
  committed: number;
  toWrite: number;
  sample: { row: number; action: Action; before: unknown; after: unknown }[];
  rejects: { row: number; field: string; reason: string }[];
}

const canonical = (v: unknown): string =>
  JSON.stringify(typeof v === 'string' ? v.trim().normalize('NFC') : (v ?? null));

/** The body of a row: its cells under the columns they name, writable fields only, plus `id` when given. */
function bodyOf(repo: Repository<object>, cells: Record<string, unknown>): Record<string, unknown> {
  const columns = tableColumns(repo.model);
  const body: Record<string, unknown> = {};
  for (const [header, cell] of Object.entries(cells)) {
    const column = columnFor(columns, header);
    if (!column || column.display || (column.prop?.readOnly && column.name !== 'id')) continue;
    const value = valueOf(column, cell);
    if (value !== undefined) body[column.name] = value;
  }
  return body;
}

/**
 * What a batch of rows needs from the database, read once per batch instead of once per row: the stored
 * records its rows name by `id` (one query), and which referenced records exist (remembered for the run).
 */
interface Lookups {
  byId: Map<number, Record<string, unknown>>;
  /** `<table>:<id>` → stored. */
  references: Map<string, boolean>;
}

/** Reads the stored records the rows of `bodies` name by id into `lookups.byId` (replacing the last batch's). */
async function lookUpIds(
  db: Db,
  repo: Repository<object>,
  bodies: Record<string, unknown>[],
  lookups: Lookups,
) {
  const ids = [...new Set(bodies.map((b) => b.id).filter((id) => Number.isSafeInteger(id)))] as number[];
  lookups.byId = new Map();
  if (!ids.length) return;
  const rows = (await repo.matching(db, { ids }).execute()) as Record<string, unknown>[];
  for (const row of rows) {
    const record = repo.toRecord(row) as Record<string, unknown>;
    lookups.byId.set(Number(record.id), record);
  }
}

/**
 * The stored record a row's body is keyed to (see the module doc), or undefined. A body with an `id` is
 * looked up in `lookups.byId` (the batch's records read beforehand).
 */
async function existingOf(db: Db, repo: Repository<object>, body: Record<string, unknown>, lookups: Lookups) {
  const { table, unique, schema } = repo.model;
  const find = async (field: string, value: unknown) => {
    const rows = await db.selectFrom(table).select('id').where(field, '=', value).limit(2).execute();
    return rows.length === 1 ? Number(rows[0].id) : undefined;
  };
  const known = typeof body.id === 'number' ? lookups.byId.get(body.id) : undefined;
  if (known) return known;
  let id: number | undefined;
  for (const field of unique)
    if (id === undefined && body[field] !== undefined) id = await find(field, body[field]);
  const rep = schema['x-resource']?.recordRepresentation;
  if (id === undefined && rep && typeof body[rep] === 'string') id = await find(rep, body[rep]);
  return id === undefined ? undefined : ((await repo.getOne(db, id)) as Record<string, unknown>);
}

/** FieldErrors of the references a body names that are not stored (each looked up once per run). */
async function referenceErrors(
  db: Db,
  repo: Repository<object>,
  body: Record<string, unknown>,
  lookups: Lookups,
) {
  const errors: FieldError[] = [];
  for (const r of repo.model.references) {
    const v = body[r.field];
    if (v === undefined || v === null || typeof v !== 'number') continue;
    const key = `${r.table}:${v}`;
    let found = lookups.references.get(key);
    if (found === undefined) {
      found = !!(await db.selectFrom(r.table).select('id').where('id', '=', v).executeTakeFirst());
      lookups.references.set(key, found);
    }
    if (!found)
      errors.push({
        field: r.field,
        keyword: 'reference',
        params: { id: v },
        message: `${r.field}: ${r.resource} ${v} does not exist`,
      });
  }
  return errors;
}

/**
 * Classifies one row (see the module doc). A row with a source `key` (tateTable.ts) is found by its
 * `sourceId` first and written with the key; its `errors` (the source's layer) reject it.
 */
async function classify(
  db: Db,
  repo: Repository<object>,
  row: TableRow,
  rowBody: Record<string, unknown>,
  lookups: Lookups,
) {
  if (row.errors?.length) return { action: 'rejected' as const, errors: row.errors };
  const { id: _id, ...body } = rowBody;
  const key = row.key ?? {};
  const current = await existingOf(db, repo, { id: _id, ...key, ...body }, lookups);
  const schemaId = repo.model.schemaId;
  if (current) {
    const patch = Object.fromEntries(
      Object.entries(body).filter(([k, v]) => canonical(v) !== canonical(current[k])),
    );
    if (!Object.keys(patch).length) return { action: 'unchanged' as const, recordId: current.id as number };
    const validate = validatorFor(`${schemaId}.update`);
    const errors = validate({ id: current.id, ...structuredClone(patch) })
      ? []
      : formatErrors(validate.errors);
    errors.push(...(await referenceErrors(db, repo, patch, lookups)));
    const before = Object.fromEntries(Object.keys(patch).map((k) => [k, current[k] ?? null]));
    return errors.length
      ? { action: 'rejected' as const, errors }
      : { action: 'changed' as const, recordId: current.id as number, body: { ...patch, ...key }, before };
  }
  const validate = validatorFor(`${schemaId}.create`);
  const errors = validate(structuredClone(body)) ? [] : formatErrors(validate.errors);
  errors.push(...(await referenceErrors(db, repo, body, lookups)));
  return errors.length
    ? { action: 'rejected' as const, errors }
    : { action: 'new' as const, body: { ...body, ...key } };
}

/** The repository of `resource`, or 400 naming `resource`. */
export function repositoryOf(
  repos: Record<string, Repository<object>>,
  resource: string,
): Repository<object> {
  const repo = repos[resource];
  if (!repo || !schemaForResource(resource)['x-endpoints']?.create)
    throw invalidField('resource', 'enum', `${resource} cannot be imported`);
  return repo;
}

/**
 * The 400 naming the field `file` for a file that cannot be read (a ReadError: its encoding, or its
 * format); any other error as it is.
 */
function unreadable(error: unknown, name: string, format: TableFormat): unknown {
  if (!(error instanceof ReadError)) return error;
  const e = error.reason;
  if (e instanceof EncodingError)
    return invalidField(
      'file',
      'textEncoding',
      `${name} cannot be read as text: it is ${e.found.en}; save it as UTF-8, GB18030 (GBK) or UTF-16 with a byte-order mark`,
      { found: e.found },
    );
  const reason = (e as Error).message;
  return invalidField('file', 'fileFormat', `${name} cannot be read as ${format.toUpperCase()} (${reason})`, {
    format: format.toUpperCase(),
    reason,
  });
}

/** An error of reading the file (not of the database): answered as a 400 naming `file`. */
class ReadError extends Error {
  constructor(public readonly reason: unknown) {
    super((reason as Error)?.message ?? String(reason));
  }
}

/** The rows of `rows` in arrays of `size`; an error of `rows` itself becomes a ReadError. */
async function* batches<T>(rows: AsyncIterator<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for (;;) {
    let next;
    try {
      next = await rows.next();
    } catch (e) {
      throw new ReadError(e);
    }
    if (next.done) break;
    batch.push(next.value);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/**
 * Reads and checks a file on disk (step 1), stores the job and its rows; resolves the job's summary. The
 * file is read as a stream (server/import/table.ts), {@link BATCH} rows at a time; its header row is
 * reported first (importColumns.ts), and a file whose headers name no column is refused.
 * @param file the uploaded file's name (its format by extension) and where it was saved
 * @throws 400 naming `file` when it cannot be read (encoding, format) or names no column
 */
export async function dryRun(
  db: Db,
  repo: Repository<object>,
  file: { name: string; path: string },
  account: string,
  lang: Language,
): Promise<JobSummary> {
  const format = formatOf(file.name, await headOf(file.path));
  let table;
  try {
    table = await openTable(file.path, format);
  } catch (e) {
    throw unreadable(new ReadError(e), file.name, format);
  }
  const id = randomUUID();
  const counts: StoredCounts = { new: 0, changed: 0, unchanged: 0, rejected: 0 };
  let total = 0;
  let job = false;
  try {
    const chunks = batches(table.rows, BATCH);
    let next = await chunks.next();
    // Tate's own layout (told by the first rows) goes through the command line's mapping
    // (server/import/tateTable.ts); other files' headers are reported, or refused when none is known.
    const tate =
      format === 'json' && repo.model.name === 'artworks' && !next.done && isTateArtworks(next.value);
    if (!tate) {
      const report = columnReport(repo.model, table.headers);
      if (table.headers.length && !report.writable) throw noKnownColumn(repo.model, table.headers);
      if (report.unknown.length || report.missing.length)
        counts.columns = { unknown: report.unknown, missing: report.missing };
    }
    const now = nowText();
    await db
      .insertInto('import_jobs')
      .values({
        id,
        resource: repo.model.name,
        fileName: file.name,
        account,
        status: 'ready',
        total: 0,
        counts: JSON.stringify(counts),
        committed: 0,
        createTime: now,
        updateTime: now,
      })
      .execute();
    job = true;
    const lookups: Lookups = { byId: new Map(), references: new Map() };
    for (; !next.done; next = await chunks.next()) {
      const rows = tate ? await tateArtworkRows(db, next.value) : next.value;
      total += rows.length;
      const bodies = rows.map((row) => row.body ?? bodyOf(repo, row.cells));
      await lookUpIds(db, repo, bodies, lookups);
      const values = [];
      for (const [i, row] of rows.entries()) {
        const r = await classify(db, repo, row, bodies[i], lookups);
        counts[r.action]++;
        values.push({
          jobId: id,
          line: row.line,
          action: r.action,
          recordId: 'recordId' in r ? r.recordId : null,
          body: 'body' in r ? JSON.stringify(r.body) : null,
          before: 'before' in r ? JSON.stringify(r.before) : null,
          errors: 'errors' in r ? JSON.stringify(r.errors) : null,
          done: 0,
        });
      }
      await db.insertInto('import_job_rows').values(values).execute();
    }
    const encoding = table.encoding();
    if (encoding) counts.encoding = encoding.name;
  } catch (e) {
    // Nothing of a file that cannot be read is kept (its rows are deleted with the job).
    if (job) {
      await db.deleteFrom('import_job_rows').where('jobId', '=', id).execute();
      await db.deleteFrom('import_jobs').where('id', '=', id).execute();
    }
    throw unreadable(e, file.name, format);
  }
  await db
    .updateTable('import_jobs')
    .set({ total, counts: JSON.stringify(counts) })
    .where('id', '=', id)
    .execute();
  return summary(db, id, lang);
}

/** The job `id`, or 404 naming it. */
async function jobRow(db: Db, id: string) {
  const job = await db.selectFrom('import_jobs').selectAll().where('id', '=', id).executeTakeFirst();
  if (!job) throw notFound({ en: 'Import job', zh: '导入任务' }, id);
  return job as Record<string, any>;
}

/** The rejected fields of a job's rows in `lang` (all, or the first `limit`). */
async function rejectsOf(db: Db, id: string, schemaId: string, lang: Language, limit?: number) {
  let q = db
    .selectFrom('import_job_rows')
    .select(['line', 'errors'])
    .where('jobId', '=', id)
    .where('action', '=', 'rejected')
    .orderBy('line');
  if (limit) q = q.limit(limit);
  const out: JobSummary['rejects'] = [];
  for (const r of await q.execute())
    for (const e of JSON.parse(String(r.errors)) as FieldError[])
      out.push({
        row: Number(r.line) + 1,
        field: e.field ? fieldLabel(lang, e.field.split('.')[0], schemaId) : '',
        reason: fieldErrorText(lang, e, schemaId),
      });
  return out;
}

/** The summary of job `id` in `lang`. */
export async function summary(db: Db, id: string, lang: Language): Promise<JobSummary> {
  const job = await jobRow(db, id);
  const {
    columns = { unknown: [], missing: [] },
    encoding,
    ...counts
  } = JSON.parse(job.counts) as StoredCounts;
  const schemaId = schemaForResource(job.resource).$id;
  const sample = await db
    .selectFrom('import_job_rows')
    .select(['line', 'action', 'body', 'before'])
    .where('jobId', '=', id)
    .where('action', 'in', ['new', 'changed'])
    .orderBy('line')
    .limit(SAMPLE)
    .execute();
  return {
    id,
    resource: job.resource,
    fileName: job.fileName,
    status: job.status,
    total: Number(job.total),
    counts,
    columns,
    columnsText: columnText(columns, schemaId, lang),
    encoding: encoding ?? null,
    committed: Number(job.committed),
    toWrite: counts.new + counts.changed,
    sample: sample.map((r) => ({
      row: Number(r.line) + 1,
      action: r.action as Action,
      before: r.before ? JSON.parse(String(r.before)) : null,
      after: JSON.parse(String(r.body)),
    })),
    rejects: await rejectsOf(db, id, schemaId, lang, SAMPLE),
  };
}

/** The unfinished jobs (ready or committing) of `resource`, newest first. */
export async function unfinished(db: Db, resource: string, lang: Language): Promise<JobSummary[]> {
  const rows = await db
    .selectFrom('import_jobs')
    .select('id')
    .where('resource', '=', resource)
    .where('status', 'in', ['ready', 'committing'])
    .orderBy('createTime', 'desc')
    .execute();
  return Promise.all(rows.map((r) => summary(db, String(r.id), lang)));
}

/** Writes one row; the repository's refusal as FieldErrors. */
async function writeRow(db: Db, repo: Repository<object>, row: Record<string, any>, actor: WriteActor) {
  const body = JSON.parse(String(row.body));
  if (row.action === 'new') await repo.create(db, body, actor);
  else await repo.update(db, { id: Number(row.recordId), ...body }, actor);
}

const errorsOf = (e: unknown): FieldError[] => {
  const data = (e as ApiError).data as { errors?: FieldError[] } | undefined;
  return data?.errors?.length
    ? data.errors
    : [{ field: '', keyword: 'write', params: {}, message: (e as Error).message }];
};

/** Writes the next batch of job `id` (step 2); resolves the summary after it. */
export async function commitBatch(
  db: Db,
  repo: Repository<object>,
  id: string,
  actor: WriteActor,
  lang: Language,
): Promise<JobSummary> {
  const job = await jobRow(db, id);
  if (job.status === 'done' || job.status === 'discarded') return summary(db, id, lang);
  const rows = (await db
    .selectFrom('import_job_rows')
    .selectAll()
    .where('jobId', '=', id)
    .where('done', '=', 0)
    .where('action', 'in', ['new', 'changed'])
    .orderBy('line')
    .limit(BATCH)
    .execute()) as Record<string, any>[];
  const counts = JSON.parse(job.counts) as StoredCounts;
  const mark = (trx: Db, line: number, extra: Record<string, unknown> = {}) =>
    trx
      .updateTable('import_job_rows')
      .set({ done: 1, ...extra })
      .where('jobId', '=', id)
      .where('line', '=', line)
      .execute();
  try {
    await db.transaction().execute(async (trx) => {
      for (const row of rows) {
        await writeRow(trx, repo, row, actor);
        await mark(trx, Number(row.line));
      }
    });
  } catch {
    // One row refused: the batch is rolled back; each row is then written (or refused) on its own.
    for (const row of rows)
      try {
        await db.transaction().execute(async (trx) => {
          await writeRow(trx, repo, row, actor);
          await mark(trx, Number(row.line));
        });
      } catch (e) {
        counts[row.action as Action]--;
        counts.rejected++;
        await mark(db, Number(row.line), { action: 'rejected', errors: JSON.stringify(errorsOf(e)) });
      }
  }
  const left = await db
    .selectFrom('import_job_rows')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('jobId', '=', id)
    .where('done', '=', 0)
    .where('action', 'in', ['new', 'changed'])
    .executeTakeFirstOrThrow();
  await db
    .updateTable('import_jobs')
    .set({
      status: Number(left.n) === 0 ? 'done' : 'committing',
      committed: Number(job.committed) + rows.length,
      counts: JSON.stringify(counts),
      updateTime: nowText(),
    })
    .where('id', '=', id)
    .execute();
  return summary(db, id, lang);
}

/** Marks job `id` discarded (its rows are kept until the job is deleted with them). */
export async function discard(db: Db, id: string): Promise<void> {
  await jobRow(db, id);
  await db
    .updateTable('import_jobs')
    .set({ status: 'discarded', updateTime: nowText() })
    .where('id', '=', id)
    .execute();
}

/** The reject report of job `id` in `lang` (step 3): every failed field, in row order. */
export async function rejectReport(db: Db, id: string, lang: Language) {
  const job = await jobRow(db, id);
  return rejectsOf(db, id, schemaForResource(job.resource).$id, lang);
}

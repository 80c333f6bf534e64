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
import { formatErrors, schemaForResource } from '../dialect/schemaRegistry';
import { validatorFor } from '../dialect/validators';
import type { Repository } from './repository';
import { columnFor, tableColumns, valueOf } from './tableColumns';
import { nowText } from '../../server/db/database';
import type { WriteActor } from '../../server/db/audit';
import { ApiError, invalidField, notFound } from '../../server/errors';
import { formatOf, readTable, type TableRow } from '../../server/import/table';
import { isTateArtworks, tateArtworkRows } from '../../server/import/tateTable';

/** Rows written per commit step (one transaction). */
export const BATCH = 500;
/** Rows of the sample diff and of the rejects a summary carries. */
const SAMPLE = 10;

type Db = Kysely<any>;
type Action = 'new' | 'changed' | 'unchanged' | 'rejected';
export type Counts = Record<Action, number>;

/** What the console shows of a job. */
export interface JobSummary {
  id: string;
  resource: string;
  fileName: string;
  status: 'ready' | 'committing' | 'done' | 'discarded';
  total: number;
  counts: Counts;
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

/** The stored record a row's body is keyed to (see the module doc), or undefined. */
async function existingOf(db: Db, repo: Repository<object>, body: Record<string, unknown>) {
  const { table, unique, schema } = repo.model;
  const find = async (field: string, value: unknown) => {
    const rows = await db.selectFrom(table).select('id').where(field, '=', value).limit(2).execute();
    return rows.length === 1 ? Number(rows[0].id) : undefined;
  };
  let id: number | undefined;
  if (typeof body.id === 'number') id = await find('id', body.id);
  for (const field of unique)
    if (id === undefined && body[field] !== undefined) id = await find(field, body[field]);
  const rep = schema['x-resource']?.recordRepresentation;
  if (id === undefined && rep && typeof body[rep] === 'string') id = await find(rep, body[rep]);
  return id === undefined ? undefined : ((await repo.getOne(db, id)) as Record<string, unknown>);
}

/** FieldErrors of the references a body names that are not stored. */
async function referenceErrors(db: Db, repo: Repository<object>, body: Record<string, unknown>) {
  const errors: FieldError[] = [];
  for (const r of repo.model.references) {
    const v = body[r.field];
    if (v === undefined || v === null || typeof v !== 'number') continue;
    const found = await db.selectFrom(r.table).select('id').where('id', '=', v).executeTakeFirst();
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
async function classify(db: Db, repo: Repository<object>, row: TableRow) {
  if (row.errors?.length) return { action: 'rejected' as const, errors: row.errors };
  const { id: _id, ...body } = row.body ?? bodyOf(repo, row.cells);
  const key = row.key ?? {};
  const current = await existingOf(db, repo, { id: _id, ...key, ...body });
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
    errors.push(...(await referenceErrors(db, repo, patch)));
    const before = Object.fromEntries(Object.keys(patch).map((k) => [k, current[k] ?? null]));
    return errors.length
      ? { action: 'rejected' as const, errors }
      : { action: 'changed' as const, recordId: current.id as number, body: { ...patch, ...key }, before };
  }
  const validate = validatorFor(`${schemaId}.create`);
  const errors = validate(structuredClone(body)) ? [] : formatErrors(validate.errors);
  errors.push(...(await referenceErrors(db, repo, body)));
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

/** Reads and checks a file (step 1), stores the job and its rows; resolves the job's summary. */
export async function dryRun(
  db: Db,
  repo: Repository<object>,
  file: { name: string; data: Buffer },
  account: string,
  lang: Language,
): Promise<JobSummary> {
  let rows;
  const format = formatOf(file.name, file.data.subarray(0, 64));
  try {
    rows = await readTable(file.data, format);
  } catch (e) {
    throw invalidField('file', 'format', `${file.name} cannot be read (${(e as Error).message})`);
  }
  // Tate's own layout goes through the command line's mapping (server/import/tateTable.ts).
  if (format === 'json' && repo.model.name === 'artworks' && isTateArtworks(rows))
    rows = await tateArtworkRows(db, rows);
  const id = randomUUID();
  const counts: Counts = { new: 0, changed: 0, unchanged: 0, rejected: 0 };
  const now = nowText();
  await db
    .insertInto('import_jobs')
    .values({
      id,
      resource: repo.model.name,
      fileName: file.name,
      account,
      status: 'ready',
      total: rows.length,
      counts: JSON.stringify(counts),
      committed: 0,
      createTime: now,
      updateTime: now,
    })
    .execute();
  for (let i = 0; i < rows.length; i += BATCH) {
    const values = [];
    for (const row of rows.slice(i, i + BATCH)) {
      const r = await classify(db, repo, row);
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
    if (values.length) await db.insertInto('import_job_rows').values(values).execute();
  }
  await db
    .updateTable('import_jobs')
    .set({ counts: JSON.stringify(counts) })
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
  const counts = JSON.parse(job.counts) as Counts;
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
  const counts = JSON.parse(job.counts) as Counts;
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

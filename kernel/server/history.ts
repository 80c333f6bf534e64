/**
 * Record history (issue 21 item 3), for every resource with `x-storage`, from the audit trail
 * (server/db/audit.ts, table `audit_log`): each audit entry of a record is one revision.
 *
 * - `revisionsOf(db, repo, id)`: the record's revisions, newest first. A revision has who (`account`),
 *   when (`time`, UTC `YYYY-MM-DD HH:mm:ss`), the call, its `operation` (create, update, delete, or
 *   chain: a put-on-chain commit, whose transaction id is `txId`), the record as it stood after it
 *   (`state`, the API's record shape, null after a delete or when not recorded) and its field-by-field
 *   `changes` `[{field, before, after}]`: `before` is the state of the revision before it.
 *   A change of a field that a schema migration renamed since the revision names the field's name then
 *   (`formerly`). Entries written before migration 20261126T0700 carry no values (`recorded: false`): their `changes`
 *   name the changed fields (from the entry's `changed` columns) with `before` and `after` null.
 * - `revert(db, repo, id, revision, actor)`: restores the revision's state as a new update through the
 *   repository (same validation: the `<id>.update` schema, then the repository's checks and hooks, then
 *   its audit entry with the revert's call). Only writable properties are restored (read-only ones such
 *   as the chain status and write-only ones such as a password are not). Refusals: unknown revision
 *   404; a revision of another record 400 (`revision`, keyword `revision`); a delete or an entry without
 *   values 400 (`revisionValues`); values the schema now refuses 400 naming the field; a unique or
 *   reference rule the restored values would break 409 (keyword `unique` / `reference`), nothing written.
 */
import type { Kysely, Selectable } from 'kysely';
import { Codes, type FieldError } from '../../common/envelope';
import { msg } from '../../common/messages/index';
import { canonicalJson } from '../../common/ledger/canonical';
import { AUDIT_TABLE, migrationAuditRows, type WriteActor } from '../../server/db/audit';
import type { Database } from '../../server/db/database';
import { ApiError, invalidField, notFound } from '../../server/errors';
import { buildVariant, formatErrors } from '../dialect/schemaRegistry';
import { validatorFor } from '../dialect/validators';
import { recordBuilder, type RecordOut } from './records';
import type { Repository } from './repository';

type Db = Kysely<any>;
type Json = Record<string, unknown>;

/** One field's change in a revision. `null` for a value before a create, after a delete, or not recorded. */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
  /**
   * The field's name when the revision was written, when a schema migration renamed it since
   * (`x-renamedFrom`; its audit row, resource `database`); absent otherwise.
   */
  formerly?: string;
}

/** One revision of a record (see the module doc). */
export interface Revision {
  /** The audit entry's id. */
  id: number;
  time: string;
  account: string;
  accountId: number | null;
  call: string;
  operation: 'create' | 'update' | 'delete' | 'chain';
  /** Whether the entry holds the record's values (entries since migration 20261126T0700). */
  recorded: boolean;
  /** The record after this revision (API shape); null after a delete or when not recorded. */
  state: RecordOut | null;
  changes: FieldChange[];
  /** The put-on-chain transaction (operation `chain`), else null. */
  txId: string | null;
}

/** A stored audit row (table `audit_log`). */
type AuditRow = Selectable<Database['audit_log']>;

/** The call of a put-on-chain commit ends so (server/ledger/records.ts `CALL`). */
const CHAIN_CALL = /\/blockChain$/;

const same = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);

/** The audit rows of one record, oldest first. */
async function auditRows(db: Db, resource: string, id: number): Promise<AuditRow[]> {
  return (await db
    .selectFrom(AUDIT_TABLE)
    .selectAll()
    .where('resource', '=', resource)
    .where('recordId', '=', String(id))
    .orderBy('id', 'asc')
    .execute()) as AuditRow[];
}

/** One schema migration's column renames of a table: its audit row's id, and new name → old name. */
type Renames = { id: number; renamed: Record<string, string> };

/**
 * The column renames of `table` by the schema migrations, oldest first, from their audit rows (resource
 * `database`, call `migration <name>`, state `{tables: {[table]: {renamed: {new: old}}}}`:
 * scripts/codegen/storage/audit.ts).
 */
async function renamesOf(db: Db, table: string): Promise<Renames[]> {
  const out: Renames[] = [];
  for (const row of await migrationAuditRows(db, 'asc')) {
    let renamed: unknown;
    try {
      renamed = (JSON.parse(row.state ?? 'null') as { tables?: Record<string, { renamed?: unknown }> } | null)
        ?.tables?.[table]?.renamed;
    } catch {
      continue; // not a migration's row (anyone may name a call so): no rename to tell
    }
    if (renamed && typeof renamed === 'object' && Object.keys(renamed).length)
      out.push({ id: row.id, renamed: renamed as Record<string, string> });
  }
  return out;
}

/** The name `field` had when audit row `id` was written: the renames since then undone, newest first. */
function nameAt(field: string, id: number, renames: Renames[]): string {
  let name = field;
  for (let i = renames.length - 1; i >= 0 && renames[i].id > id; i--)
    if (typeof renames[i].renamed[name] === 'string') name = renames[i].renamed[name];
  return name;
}

/** The revisions of audit rows (oldest first in, newest first out). */
function revisionsFrom(repo: Repository<object>, rows: AuditRow[], renames: Renames[] = []): Revision[] {
  const toRecord = recordBuilder(repo.model);
  const fields = Object.keys(repo.model.schema.properties);
  let previous: RecordOut | null = null;
  const out: Revision[] = [];
  for (const row of rows) {
    const recorded = row.state !== null && row.state !== undefined;
    const stored = recorded ? (JSON.parse(row.state!) as Json) : null;
    // The record's properties the entry holds (a computed count or display field is not stored).
    const state = stored
      ? pick(
          toRecord(stored),
          fields.filter((f) => f in stored),
        )
      : null;
    const operation: Revision['operation'] = CHAIN_CALL.test(row.call)
      ? 'chain'
      : row.before === null
        ? 'create'
        : row.after === null
          ? 'delete'
          : 'update';
    let changes: FieldChange[];
    if (operation === 'delete')
      changes = previous
        ? Object.keys(previous).map((f) => ({ field: f, before: previous![f], after: null }))
        : [];
    else if (state && (operation === 'create' || previous))
      changes = Object.keys(state)
        .filter((f) => !same(previous?.[f], state[f]))
        .map((f) => ({ field: f, before: previous?.[f] ?? null, after: state[f] }));
    else {
      const names = JSON.parse(row.changed ?? '[]') as string[];
      changes = names
        .filter((f) => fields.includes(f))
        .map((f) => ({ field: f, before: previous?.[f] ?? null, after: state?.[f] ?? null }));
    }
    if (renames.length)
      changes = changes.map((c) => {
        const formerly = nameAt(c.field, Number(row.id), renames);
        return formerly === c.field ? c : { ...c, formerly };
      });
    out.push({
      id: Number(row.id),
      time: row.time,
      account: row.account,
      accountId: row.accountId === null ? null : Number(row.accountId),
      call: row.call,
      operation,
      recorded,
      state,
      changes,
      txId: operation === 'chain' && typeof state?.chain === 'string' && state.chain ? state.chain : null,
    });
    previous = operation === 'delete' ? null : state;
  }
  return out.reverse();
}

/** `record`'s `fields` (those it has). */
function pick(record: RecordOut, fields: string[]): RecordOut {
  return Object.fromEntries(fields.filter((f) => record[f] !== undefined).map((f) => [f, record[f]]));
}

/** The revisions of record `id`, newest first; 404 when the record has none and does not exist. */
export async function revisionsOf(db: Db, repo: Repository<object>, id: number): Promise<Revision[]> {
  const rows = await auditRows(db, repo.model.name, id);
  if (!rows.length) await repo.getOne(db, id); // 404 for an unknown record
  return revisionsFrom(repo, rows, await renamesOf(db, repo.model.table));
}

/**
 * One revision of record `id`: 404 for an unknown revision, 400 (field `revision`) for a revision of
 * another record.
 */
export async function revisionOf(
  db: Db,
  repo: Repository<object>,
  id: number,
  revision: number,
): Promise<Revision> {
  const entry = (await db
    .selectFrom(AUDIT_TABLE)
    .select(['id', 'resource', 'recordId'])
    .where('id', '=', revision)
    .executeTakeFirst()) as Pick<AuditRow, 'id' | 'resource' | 'recordId'> | undefined;
  if (!entry) throw notFound({ en: 'Revision', zh: '版本' }, revision);
  if (entry.resource !== repo.model.name || entry.recordId !== String(id))
    throw invalidField('revision', 'revision', `is a revision of ${entry.resource} ${entry.recordId}`, {
      resource: entry.resource,
      recordId: entry.recordId,
    });
  return (await revisionsOf(db, repo, id)).find((r) => r.id === revision)!;
}

/** Restores `revision` of record `id` as a new update (see the module doc); answers the record as stored. */
export async function revert(
  db: Db,
  repo: Repository<object>,
  id: number,
  revision: number,
  actor: WriteActor,
): Promise<RecordOut> {
  const target = await revisionOf(db, repo, id, revision);
  if (!target.state || target.operation === 'delete')
    throw invalidField(
      'revision',
      'revisionValues',
      target.operation === 'delete' ? 'is a delete: nothing to restore' : 'holds no recorded values',
    );
  const current = (await repo.getOne(db, id)) as RecordOut; // 404 for a deleted record
  const schema = repo.model.schema;
  const writable = (buildVariant(schema, 'update') as { properties?: Json }).properties ?? {};
  const patch: Json = {};
  for (const [field, value] of Object.entries(target.state))
    if (field !== 'id' && writable[field] && !same(current[field], value)) patch[field] = value;
  const body = { id, ...patch };
  const validate = validatorFor(`${schema.$id}.update`);
  if (!validate(structuredClone(body)))
    throw new ApiError(Codes.INVALID, 400, msg('request.invalid', { part: 'body', schema: schema.$id }), {
      errors: formatErrors(validate.errors),
    });
  try {
    return (await repo.update(db, body, actor)) as RecordOut;
  } catch (e) {
    // A reference the revision names that no longer exists: a conflict with the stored records (409).
    const errors = e instanceof ApiError ? (e.data as { errors?: FieldError[] } | null)?.errors : undefined;
    if (errors?.some((x) => x.keyword === 'reference'))
      throw new ApiError(Codes.CONFLICT, 409, msg('request.fields'), { errors });
    throw e;
  }
}

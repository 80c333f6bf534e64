/**
 * The audit trail of API writes (Audit > System; schemas/auditEntry.schema.json, table `audit_log`).
 * Every write through the API adds one row per record written, in the same database transaction as the
 * write itself: a refused or failed write leaves no row, and a row never exists without its write.
 * A row holds who (account id and username), when (UTC `YYYY-MM-DD HH:mm:ss`), the call
 * (`POST /dev-api/user/add`), the resource name, the record's id, and the SHA-256 (hex) of the stored row
 * before and after the write (null before a create and after a delete), and what changed: the names of
 * the columns whose value differs before and after an update (`changed`, JSON text; empty for a create or
 * a delete), and (since migration 20261126T0700) the record's values after the write (`state`, JSON text:
 * the columns the writer names, the schema's properties without write-only ones; null after a delete and
 * for older entries) from which kernel/server/history.ts builds a record's revisions and their diffs.
 * The digest covers the row as stored, every column (an account's password hash included, so a password
 * change shows), in canonical JSON (common/ledger/canonical.ts, RFC 8785): an auditor can recompute it
 * from the table.
 * Writers: the generic repository (kernel/server/repository.ts) for every schema resource, and the
 * hand-written write routes (`recordAudit` directly).
 */
import { REVISION } from '../../kernel/dialect/revision';
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { canonicalJson } from '../../common/ledger/canonical';
import { nowText } from './database';
import { announceRecordWrite } from './recordEvents';

/** The table of the audit trail. */
export const AUDIT_TABLE = 'audit_log';

/** Who makes a write, through which call. */
export interface WriteActor {
  /** The signed-in account's id (null for a write made by the server itself). */
  accountId: number | null;
  /** The account's username at the time. */
  account: string;
  /** Method and route path, e.g. `POST /dev-api/user/add`. */
  call: string;
  /** The request's `X-Client-Id` (the console tab that wrote; told in the record events only, not stored). */
  clientId?: string;
}

/** An `X-Client-Id` header the record events carry: 1 to 64 letters, digits, `-` or `_`. */
const CLIENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The actor of a request that passed `app.requireRoles` (its account) and its call. */
export function actorOf(request: FastifyRequest): WriteActor {
  const a = request.account;
  const clientId = request.headers['x-client-id'];
  return {
    accountId: a?.id ?? null,
    account: a?.account ?? '',
    call: `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`,
    ...(typeof clientId === 'string' && CLIENT_ID.test(clientId) ? { clientId } : {}),
  };
}

/**
 * SHA-256 hex of the canonical JSON of a stored row, without the kernel's `revision` (kernel/dialect/
 * revision.ts: bookkeeping of the row, not a value of the record; digests of rows stored before it existed
 * stay valid); null for no row.
 */
export function digestOf(row: Record<string, unknown> | undefined | null): string | null {
  if (!row) return null;
  const { [REVISION]: _revision, ...values } = row;
  return createHash('sha256').update(canonicalJson(values)).digest('hex');
}

/** The stored row `id` of `table` (every column), or undefined. */
export async function storedRow(
  db: Kysely<any>,
  table: string,
  id: number,
): Promise<Record<string, unknown> | undefined> {
  return (await db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst()) as
    Record<string, unknown> | undefined;
}

/**
 * The columns whose value differs between two stored rows, sorted; [] unless both rows exist. The kernel's
 * `revision` (kernel/dialect/revision.ts) is no value of the record: never listed.
 */
export function changedColumns(
  before: Record<string, unknown> | undefined | null,
  after: Record<string, unknown> | undefined | null,
): string[] {
  if (!before || !after) return [];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  keys.delete(REVISION);
  return [...keys].filter((k) => canonicalJson(before[k] ?? null) !== canonicalJson(after[k] ?? null)).sort();
}

/**
 * Adds one audit row; call it inside the write's transaction (`db` is the transaction).
 * @param before the stored row before the write (undefined for a create)
 * @param after the stored row after it (undefined for a delete)
 */
export async function recordAudit(
  db: Kysely<any>,
  actor: WriteActor,
  entry: {
    resource: string;
    recordId: number | string;
    before?: Record<string, unknown> | null;
    after?: Record<string, unknown> | null;
    /** The columns of `after` to keep as the entry's `state` (none: no state recorded). */
    stateColumns?: readonly string[];
  },
): Promise<void> {
  await db
    .insertInto(AUDIT_TABLE)
    .values({
      time: nowText(),
      accountId: actor.accountId,
      account: actor.account,
      call: actor.call,
      resource: entry.resource,
      recordId: String(entry.recordId),
      before: digestOf(entry.before),
      after: digestOf(entry.after),
      changed: JSON.stringify(changedColumns(entry.before, entry.after)),
      state: stateText(entry.after, entry.stateColumns),
    })
    .execute();
  // Live updates (issue 32): the write told to the consoles once its transaction commits (recordEvents.ts).
  if (actor !== BASE_REVISION_ACTOR)
    await announceRecordWrite(db, {
      resource: entry.resource,
      id: String(entry.recordId),
      action: !entry.before ? 'create' : !entry.after ? 'delete' : 'update',
      actor: actor.account,
      clientId: actor.clientId ?? null,
    });
}

/**
 * Storage migrations (scripts/codegen/storage/audit.ts): every audit row a migration writes has account
 * `system` and the call `migration <name>`; its own row (when it changes existing tables' columns) has
 * resource {@link MIGRATION_RESOURCE}, record id its name and a {@link MigrationAuditState} as `state`.
 */
export const MIGRATION_CALL_PREFIX = 'migration ';
/** The resource of a migration's own audit row (the database, as a restore's, server/ops/restoreAudit.ts). */
export const MIGRATION_RESOURCE = 'database';

/** One storage migration's own audit row as stored (its `state` the JSON text of a {@link MigrationAuditState}). */
export interface MigrationAuditRow {
  id: number;
  time: string;
  account: string;
  call: string;
  after: string | null;
  state: string | null;
}

/**
 * The storage migrations' own audit rows (resource {@link MIGRATION_RESOURCE}, call
 * `migration <name>`), by id in `order`: what History (kernel/server/history.ts, a field's name before a
 * rename) and the ledger's edit audit (server/ledger/editAudit.ts) read of the migrations.
 */
export async function migrationAuditRows(
  db: Kysely<any>,
  order: 'asc' | 'desc',
): Promise<MigrationAuditRow[]> {
  const rows = (await db
    .selectFrom(AUDIT_TABLE)
    .select(['id', 'time', 'account', 'call', 'after', 'state'])
    .where('resource', '=', MIGRATION_RESOURCE)
    .where('call', 'like', `${MIGRATION_CALL_PREFIX}%`)
    .orderBy('id', order)
    .execute()) as MigrationAuditRow[];
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** How a migration changed the columns of one existing table (undone by server/ledger/editAudit.ts). */
export interface MigrationTableChanges {
  /** The table's name before the migration, when it renamed the table (the key is the new name). */
  from?: string;
  /** New name → old name. */
  renamed: Record<string, string>;
  /** Removed column → its column type (`text`, `integer`, `real`); values in `removed_values`. */
  removed: Record<string, string>;
  /** Columns added (filled with their default, `x-fill` or null). */
  added: string[];
  /** Columns whose values were converted: `toDateTime` (`YYYY-MM-DD` → `YYYY-MM-DDT00:00:00Z`). */
  converted: Record<string, 'toDateTime'>;
}

/** The `state` of a migration's own audit row. */
export interface MigrationAuditState {
  migration: string;
  /** The migration's steps, one line each (its `steps` export). */
  steps: string[];
  /** Per table it renamed or whose existing rows it reshaped, by the table's name after it. */
  tables: Record<string, MigrationTableChanges>;
}

/** The actor of a base revision: the record as it was stored before its first audited write. */
export const BASE_REVISION_ACTOR: WriteActor = {
  accountId: null,
  account: 'system',
  call: 'base revision: the record as stored before its first audited write (seed, import or an older version)',
};

/**
 * History from the first edit (issue 32): when record `recordId` of `resource` has no audit row yet (a
 * seeded or imported record, or one stored before the audit trail), adds one whose state is the stored
 * row `row` as it is now, before the first audited write changes it, so that Revert can restore it. Call
 * it inside the write's transaction, before that write's own audit row. Uses the `audit_log_recordId`
 * index (migration 20261129T0649).
 */
export async function ensureBaseRevision(
  db: Kysely<any>,
  resource: string,
  recordId: number | string,
  row: Record<string, unknown> | undefined,
  stateColumns: readonly string[],
): Promise<void> {
  if (!row) return;
  const seen = await db
    .selectFrom(AUDIT_TABLE)
    .select('id')
    .where('recordId', '=', String(recordId))
    .where('resource', '=', resource)
    .limit(1)
    .executeTakeFirst();
  if (!seen) await recordAudit(db, BASE_REVISION_ACTOR, { resource, recordId, after: row, stateColumns });
}

/**
 * An audited update of stored row `id` of `table` (its resource in the audit log), inside transaction
 * `trx`: reads the row, runs `change` with it, reads the row again and adds the audit row of the two.
 * @returns what `change` returns
 */
export async function auditedUpdate<R>(
  trx: Kysely<any>,
  actor: WriteActor,
  table: string,
  id: number,
  change: (before: Record<string, unknown> | undefined) => Promise<R>,
): Promise<R> {
  const before = await storedRow(trx, table, id);
  const result = await change(before);
  await recordAudit(trx, actor, {
    resource: table,
    recordId: id,
    before,
    after: await storedRow(trx, table, id),
  });
  return result;
}

/**
 * The audit entry's `state`: JSON text of the `columns` of a stored row (those it has), or null without a
 * row or columns.
 */
export function stateText(
  row: Record<string, unknown> | undefined | null,
  columns: readonly string[] | undefined,
): string | null {
  if (!row || !columns) return null;
  return JSON.stringify(Object.fromEntries(columns.filter((c) => c in row).map((c) => [c, row[c]])));
}

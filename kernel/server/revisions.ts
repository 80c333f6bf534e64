/**
 * Revisions of stored records (kernel/dialect/revision.ts): the row lock of a checked write, the 409 of a
 * stale one, and the revision a request names (`If-Match`, RFC 9110 §13.1.1, or the body's `revision`).
 * Used by the generic repository (repository.ts) and its routes (resources.ts).
 */
import { sql, type Kysely } from 'kysely';
import { msg, schemaLabel } from '../../common/messages/index';
import { AUDIT_TABLE } from '../../server/db/audit';
import { conflict, invalidField, type ApiError } from '../../server/errors';
import { REVISION } from '../dialect/revision';
import type { ResourceModel } from './model';
import type { RecordOut } from './records';

/**
 * Locks row `id` of `table` for the rest of the transaction `trx` (PostgreSQL `SELECT ... FOR UPDATE`), so
 * that what an update or delete checks is what it changes; SQLite has one writer at a time already.
 */
export async function lockRow(
  trx: Kysely<any>,
  dialect: 'sqlite' | 'postgres',
  table: string,
  id: number,
): Promise<void> {
  if (dialect === 'postgres')
    await sql`select id from ${sql.table(table)} where id = ${id} for update`.execute(trx);
}

/**
 * The 409 of a write that started from revision `yours` of `current`, a record of `model` now at another
 * revision: `data` is `{field: "revision", revision, yours, changedBy, changedAt, current}`, who changed it
 * last read from the record's newest audit row (null when it has none), named in the message too.
 */
export async function staleRevision(
  trx: Kysely<any>,
  model: ResourceModel,
  current: RecordOut,
  yours: number,
): Promise<ApiError> {
  const last = await trx
    .selectFrom(AUDIT_TABLE)
    .select(['account', 'time'])
    .where('resource', '=', model.name)
    .where('recordId', '=', String(current.id))
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const revision = current[REVISION] as number;
  return conflict(
    msg('record.stale', {
      label: schemaLabel(model.schemaId),
      id: current.id,
      actor: last?.account ?? ANOTHER_WRITER,
      revision,
      yours,
    }),
    {
      field: REVISION,
      revision,
      yours,
      changedBy: (last?.account as string | undefined) ?? null,
      changedAt: (last?.time as string | undefined) ?? null,
      current,
    },
  );
}

/** Who changed a record whose newest change left no audit row (a write outside the kernel's calls). */
const ANOTHER_WRITER = { en: 'another writer', zh: '其他写入者' };

/** `"7"` or `W/"7"` (an entity tag of a revision); `*` and a list are not a revision. */
const ENTITY_TAG = /^\s*(?:W\/)?"([1-9]\d{0,9})"\s*$/;

/**
 * The revision a request names: its `If-Match` header (one entity tag, `"7"`; `*` names none) or else
 * `body.revision`; undefined when it names none.
 * @throws ApiError 400 naming `If-Match` for a header that is no revision's tag, or that disagrees with
 *   the body's `revision`
 */
export function requestedRevision(
  header: string | string[] | undefined,
  body: Record<string, unknown> | undefined,
): number | undefined {
  const fromBody = typeof body?.[REVISION] === 'number' ? (body[REVISION] as number) : undefined;
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text === undefined || text.trim() === '*') return fromBody;
  const m = ENTITY_TAG.exec(text);
  const tag = m ? Number(m[1]) : NaN;
  if (!Number.isSafeInteger(tag) || tag > 2147483647)
    throw invalidField('If-Match', 'format', 'must be the entity tag of one revision, e.g. "7"', {
      value: text.slice(0, 40),
    });
  if (fromBody !== undefined && fromBody !== tag)
    throw invalidField('If-Match', 'const', `names revision ${tag}, the body's revision is ${fromBody}`, {
      header: tag,
      body: fromBody,
    });
  return tag;
}

/** The `ETag` of a record's revision (a strong entity tag, `"7"`), or undefined for a record without one. */
export function etagOf(record: unknown): string | undefined {
  const r = (record as Record<string, unknown> | null)?.[REVISION];
  return typeof r === 'number' ? `"${r}"` : undefined;
}

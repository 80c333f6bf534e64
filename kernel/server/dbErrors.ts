/**
 * The one place where the database's constraint violations become API answers (409 Conflict), so a race
 * the repository's own checks cannot see (two requests between check and write) never answers 500:
 * - unique: SQLite `SQLITE_CONSTRAINT_UNIQUE` / `SQLITE_CONSTRAINT_PRIMARYKEY` ("UNIQUE constraint failed:
 *   table.column"), PostgreSQL SQLSTATE 23505 (detail `Key ("column")=(value) already exists.`);
 * - foreign key: SQLite `SQLITE_CONSTRAINT_FOREIGNKEY` (names no column), PostgreSQL 23503 (detail
 *   `Key (column)=(id) is not present in table "t".` on insert/update, `... is still referenced from
 *   table "t".` on delete).
 * Sources: SQLite result codes (sqlite.org/rescode.html), PostgreSQL appendix A (error codes).
 */
import { Codes, type FieldError } from '../../common/envelope';
import { ApiError } from '../../server/plugins/app/errors';
import { msg } from '../../common/messages/index';

/** The kind of constraint `e` violates, or null when it is no constraint violation. */
export function constraintKind(e: unknown): 'unique' | 'foreignKey' | null {
  const code = (e as { code?: string } | null)?.code;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505')
    return 'unique';
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503') return 'foreignKey';
  return null;
}

/** The column a violation names, when the database says it. */
export function violatedColumn(e: unknown): string | undefined {
  const err = e as { message?: string; detail?: string };
  const pg = /Key \("?([^")=]+)"?\)=/.exec(err.detail ?? '');
  if (pg) return pg[1];
  const lite = /constraint failed: [^.\s]+\.([^\s,]+)/.exec(err.message ?? '');
  return lite?.[1];
}

/** 409 with one field error (keyword `unique`) naming `field`. */
export function uniqueConflict(field: string, value: unknown, holder?: string): ApiError {
  const message = holder ? `is already used by ${holder}` : 'is already used by another record';
  const errors: FieldError[] = [
    { field, keyword: 'unique', params: { value }, message: `${field}: ${message}` },
  ];
  return new ApiError(Codes.CONFLICT, 409, msg('request.fields'), { errors });
}

/**
 * `e` as the API's answer when it is a constraint violation, else `e` itself.
 * @param op the write that failed: a violated foreign key on `write` means the referenced record was
 *   deleted meanwhile; on `delete`, that a record still references the deleted one
 * @param values the values written (to name the value of a unique field)
 * @param referenceFields the fields with a foreign key, named when the database does not say which
 */
export function mapConstraintError(
  e: unknown,
  op: 'write' | 'delete',
  values: Record<string, unknown> = {},
  referenceFields: string[] = [],
): unknown {
  const kind = constraintKind(e);
  if (kind === 'unique') {
    const field = violatedColumn(e) ?? 'id';
    return uniqueConflict(field, values[field]);
  }
  if (kind === 'foreignKey') {
    if (op === 'delete') return new ApiError(Codes.CONFLICT, 409, msg('record.deleteReferencedMeanwhile'));
    const column = violatedColumn(e);
    const fields = column ? [column] : referenceFields.filter((f) => values[f] !== undefined);
    const field = fields[0] ?? 'id';
    const message = `${field}: the record ${String(values[field])} was deleted meanwhile`;
    const errors: FieldError[] = [{ field, keyword: 'reference', params: { id: values[field] }, message }];
    return new ApiError(Codes.CONFLICT, 409, msg('request.fields'), { errors });
  }
  return e;
}

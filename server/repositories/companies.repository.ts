/**
 * Companies of the Medicine section: plain functions over `db` (or a transaction). Records are returned in
 * the schema's shape (schemas/company.schema.json). Bodies arrive validated by the `company.create` /
 * `company.update` variants (check character of the credit code, phone and account patterns, the two
 * admin accounts distinct); what a single body cannot show is checked here:
 * - the Unified Social Credit Code is unique: a second company with it is refused with 409 and a field
 *   error on `creditCode` (keyword `unique`), also when two requests race (the unique index answers);
 * - after a partial update the two admin accounts still differ (400, field `backupAdminAccount` or
 *   `adminAccount`, keyword `x-distinct`).
 * Every write runs in one transaction: a refused call stores nothing.
 */
import type { Kysely } from 'kysely';
import type { Company as CompanyRecord } from '../../common/generated/types';
import { Codes, type FieldError } from '../../common/envelope';
import { nowText, type CompanyRow, type Database } from '../db/database';
import { ApiError, invalidField, notFound } from '../plugins/app/errors';
import { direction, filtersOf, paging, parseIds, textMatch, type ListQuery } from './listQuery';

type Db = Kysely<Database>;
type Dialect = 'sqlite' | 'postgres';

/** Columns the free text `q` of the list call searches. */
const TEXT_COLUMNS = [
  'companies.companyName',
  'companies.creditCode',
  'companies.licenseNo',
  'companies.contactName',
];

function toRecord(row: CompanyRow): CompanyRecord {
  return {
    id: row.id,
    companyName: row.companyName,
    creditCode: row.creditCode,
    licenseNo: row.licenseNo,
    address: row.address,
    contactName: row.contactName,
    contactPhone: row.contactPhone,
    adminAccount: row.adminAccount,
    backupAdminAccount: row.backupAdminAccount,
    status: row.status as 0 | 1,
    createTime: row.createTime,
    updateTime: row.updateTime,
  };
}

/** 409 naming `creditCode`, with the field error the console shows under the input. */
function duplicateCode(code: string, holder?: { id: number; companyName: string }): ApiError {
  const message = holder
    ? `is already registered to company ${holder.id} ("${holder.companyName}")`
    : 'is already registered to another company';
  const errors: FieldError[] = [
    { field: 'creditCode', keyword: 'unique', params: { value: code }, message: `creditCode: ${message}` },
  ];
  return new ApiError(Codes.CONFLICT, 409, `creditCode: ${message}`, { errors });
}

/** True for a unique-constraint violation of SQLite (better-sqlite3) or PostgreSQL (pg, SQLSTATE 23505). */
function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: string } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

async function assertCodeFree(db: Db, code: string, exceptId?: number): Promise<void> {
  let q = db.selectFrom('companies').select(['id', 'companyName']).where('creditCode', '=', code);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  const holder = await q.executeTakeFirst();
  if (holder) throw duplicateCode(code, holder);
}

const trimOrNull = (v: string | null | undefined): string | null => {
  if (v === undefined || v === null) return null;
  const t = v.trim();
  return t === '' ? null : t;
};

/** One page of companies matching the query (`company.listQuery`), and the total. */
export async function listCompanies(db: Db, dialect: Dialect, q: ListQuery) {
  let where = db.selectFrom('companies');
  const ids = parseIds(q.ids);
  if (ids) where = where.where('companies.id', 'in', ids.length ? ids : [-1]);
  if (q.q?.trim()) where = where.where(textMatch(TEXT_COLUMNS, q.q, dialect));
  for (const [field, value] of Object.entries(filtersOf(q)))
    where = where.where(`companies.${field}` as any, '=', value);
  const { total } = await where
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const { limit, offset } = paging(q);
  const rows = await where
    .selectAll('companies')
    .orderBy(`companies.${q.sort ?? 'id'}` as any, direction(q.order))
    .orderBy('companies.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return { list: rows.map(toRecord), total: Number(total) };
}

/** The company with `id`, or throws 404. */
export async function getCompany(db: Db, id: number): Promise<CompanyRecord> {
  const row = await db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Company', id);
  return toRecord(row);
}

/** Inserts a company (validated `company.create` body) and answers the stored record; 409 for a used code. */
export async function createCompany(db: Db, body: Partial<CompanyRecord>): Promise<CompanyRecord> {
  const now = nowText();
  try {
    return await db.transaction().execute(async (trx) => {
      await assertCodeFree(trx, body.creditCode!);
      const { id } = await trx
        .insertInto('companies')
        .values({
          companyName: body.companyName!.trim(),
          creditCode: body.creditCode!,
          licenseNo: body.licenseNo!.trim(),
          address: trimOrNull(body.address),
          contactName: trimOrNull(body.contactName),
          contactPhone: trimOrNull(body.contactPhone),
          adminAccount: body.adminAccount!,
          backupAdminAccount: body.backupAdminAccount!,
          status: body.status ?? 1,
          createTime: now,
          updateTime: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return getCompany(trx, id);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw duplicateCode(body.creditCode!);
    throw e;
  }
}

/**
 * Updates the fields present in `body` (validated `company.update`); 404 for an unknown id, 409 for a
 * credit code another company holds, 400 when the merged record's two admin accounts are the same.
 */
export async function updateCompany(
  db: Db,
  body: Partial<CompanyRecord> & { id: number },
): Promise<CompanyRecord> {
  const { id, ...fields } = body;
  try {
    return await db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
      if (!current) throw notFound('Company', id);
      if (fields.creditCode !== undefined && fields.creditCode !== current.creditCode)
        await assertCodeFree(trx, fields.creditCode, id);
      const admin = fields.adminAccount ?? current.adminAccount;
      const backup = fields.backupAdminAccount ?? current.backupAdminAccount;
      if (admin.trim().toLowerCase() === backup.trim().toLowerCase()) {
        const [first, second] =
          fields.backupAdminAccount !== undefined
            ? ['adminAccount', 'backupAdminAccount']
            : ['backupAdminAccount', 'adminAccount'];
        throw invalidField(second, 'x-distinct', `must differ from ${first}`, { first, second });
      }
      const set: Record<string, unknown> = { ...fields, updateTime: nowText() };
      for (const k of ['companyName', 'licenseNo'] as const)
        if (typeof fields[k] === 'string') set[k] = fields[k]!.trim();
      for (const k of ['address', 'contactName', 'contactPhone'] as const)
        if (fields[k] !== undefined) set[k] = trimOrNull(fields[k]);
      await trx.updateTable('companies').set(set).where('id', '=', id).execute();
      return getCompany(trx, id);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw duplicateCode(fields.creditCode ?? '');
    throw e;
  }
}

/** Deletes companies; all-or-nothing: 404 (nothing deleted) when any id is unknown. */
export async function deleteCompanies(db: Db, ids: number[]): Promise<{ ids: number[] }> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('companies').select('id').where('id', 'in', ids).execute();
    const missing = ids.filter((id) => !rows.some((r) => r.id === id));
    if (missing.length) throw notFound('Company', missing.join(', '));
    await trx.deleteFrom('companies').where('id', 'in', ids).execute();
    return { ids };
  });
}

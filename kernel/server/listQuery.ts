/**
 * List-call plumbing of the kernel: turns a validated list query (`<schema>.listQuery` / `.listBody`, see
 * kernel/dialect/schemaRegistry.ts) into Kysely clauses: paging (1-based `page`, `pageSize` ≤ 100), sort and order,
 * `ids`, equality filters and free text `q` (case-insensitive substring match over the given columns;
 * `%`, `_` and `\` in q are matched literally).
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import { MAX_ID, RANGE_SUFFIXES } from '../dialect/schemaRegistry';

/** A validated list query or body (page, pageSize, q, sort, order, ids, filters by field name). */
export interface ListQuery {
  page?: number;
  pageSize?: number;
  q?: string;
  sort?: string;
  order?: string;
  ids?: string | number[];
  [filter: string]: unknown;
}

export const LIST_KEYS = new Set(['page', 'pageSize', 'q', 'sort', 'order', 'ids']);

/** `{ limit, offset }` of a 1-based page. */
export function paging(q: ListQuery): { limit: number; offset: number } {
  const pageSize = Math.min(Math.max(q.pageSize ?? 20, 1), 100);
  const page = Math.max(q.page ?? 1, 1);
  return { limit: pageSize, offset: (page - 1) * pageSize };
}

/** The ids of an `ids` parameter ("1,2,3" or [1,2,3]), or undefined when absent. */
export function parseIds(ids: ListQuery['ids']): number[] | undefined {
  if (ids === undefined) return undefined;
  // An id past the 32-bit id range cannot exist (and PostgreSQL would refuse to compare it).
  return (Array.isArray(ids) ? ids : ids.split(',').map(Number)).filter((id) => id <= MAX_ID);
}

/** `ASC` or `DESC` from a query's `order` (default DESC). */
export const direction = (order?: string): 'asc' | 'desc' =>
  order?.toUpperCase() === 'ASC' ? 'asc' : 'desc';

/** A LIKE pattern for a substring match of `text`, with `\` as the escape character. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `(col1 LIKE p OR col2 LIKE p ...)`, case-insensitive on SQLite (ASCII) and PostgreSQL (ILIKE).
 * @param columns qualified column references, trusted (never user input)
 */
export function textMatch(columns: string[], q: string, dialect: 'sqlite' | 'postgres'): Expression<SqlBool> {
  const pattern = likePattern(q.trim());
  const op = dialect === 'postgres' ? sql.raw('ILIKE') : sql.raw('LIKE');
  // PostgreSQL's default LIKE escape is the backslash (an ESCAPE clause would be evaluated per row in a
  // generic plan); SQLite has no default escape.
  const escape = dialect === 'postgres' ? sql`` : sql` ESCAPE '\\'`;
  const parts = columns.map((c) => sql`${sql.ref(c)} ${op} ${pattern}${escape}`);
  return sql<SqlBool>`(${sql.join(parts, sql` OR `)})`;
}

/** The filters of a list query: every key that is not a paging/sort/text key. */
export function filtersOf(q: ListQuery): Record<string, unknown> {
  return Object.fromEntries(Object.entries(q).filter(([k, v]) => !LIST_KEYS.has(k) && v !== undefined));
}

/**
 * The column and SQL comparison of a filter name: `price_gte` → `['price', '>=']` when `price` is a column
 * and `price_gte` is not (a range bound, common/schemaRegistry.ts `rangeFields`), else `[name, '=']`.
 */
export function filterTarget(name: string, isColumn: (n: string) => boolean): [string, '=' | '>=' | '<='] {
  if (!isColumn(name))
    for (const [suffix, op] of Object.entries(RANGE_SUFFIXES))
      if (name.endsWith(suffix) && isColumn(name.slice(0, -suffix.length)))
        return [name.slice(0, -suffix.length), op];
  return [name, '='];
}

/**
 * Whether `record` lies inside a read scope (kernel/server/repository.ts `ResourceHooks.readScope`): every
 * scope value equals the record's, or, for an array, holds it (an "IN" scope: one of those values).
 */
export function inReadScope(record: Record<string, unknown>, scope: Record<string, unknown>): boolean {
  return Object.entries(scope).every(([k, v]) =>
    Array.isArray(v) ? v.includes(record[k]) : record[k] === v,
  );
}

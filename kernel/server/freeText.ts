/**
 * The free-text `q` of a list call: which rows match (case-insensitive substring of any one of the
 * model's search fields, `%`, `_` and `\` literal), the same rows on SQLite and on PostgreSQL, through
 * the index the schema declares (`x-storage.search.index: "trigram"`):
 * - `fts`: SQLite, 3 characters or more: the FTS5 trigram table `<table>_fts` (phrase match; SQLite
 *   docs, "The Experimental Trigram Tokenizer").
 * - `doc`: PostgreSQL: `<table>_search.doc LIKE lower(pattern)` over the pg_trgm GIN index
 *   (searchIndex.ts explains why this equals one ILIKE per field).
 * - `like`: otherwise (no index, SQLite under 3 characters, a `q` holding U+001F on PostgreSQL): one
 *   LIKE (SQLite) / ILIKE (PostgreSQL) per field, referenced fields through a subquery.
 * Used by the generic repository (repository.ts), whose list SQL is compiled once per shape: every
 * function here binds its parameters in the order {@link textParams} gives.
 */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { likePattern, textMatch } from './listQuery';
import type { ResourceModel } from './model';
import { SEARCH_BUCKET, SEARCH_SEPARATOR, searchTable } from './searchIndex';

type Dialect = 'sqlite' | 'postgres';

/** How `text` is matched (see the module doc). */
export function textMode(model: ResourceModel, dialect: Dialect, text: string): 'fts' | 'doc' | 'like' {
  if (model.search.index !== 'trigram') return 'like';
  if (dialect === 'sqlite') return [...text].length >= 3 ? 'fts' : 'like';
  return text.includes(SEARCH_SEPARATOR) ? 'like' : 'doc';
}

/** The parameters the conditions below bind, in their order. */
export function textParams(model: ResourceModel, dialect: Dialect, text: string): unknown[] {
  const mode = textMode(model, dialect, text);
  if (mode === 'fts') return [`"${text.replace(/"/g, '""')}"`];
  if (mode === 'doc') return [likePattern(text)];
  const { columns, references } = model.search;
  return Array(columns.length + references.length).fill(likePattern(text));
}

/**
 * PostgreSQL: `doc` LIKE the lower-cased pattern `param`. `(select lower($1))` is an InitPlan, computed
 * once per execution: a bare `lower($1)` (or an ESCAPE clause, like_escape()) in a generic plan of the
 * prepared statement is re-evaluated for every candidate row the trigram index hands to the recheck,
 * which doubled the heap scan's time. The backslash is PostgreSQL's default LIKE escape, as likePattern()
 * writes it.
 */
function docLike(param: unknown) {
  return sql<SqlBool>`doc like (select lower(${param}))`;
}

/**
 * The ids matching `text` from the index table, as a subquery (fts / doc modes only); on SQLite
 * optionally one page of them in id order (PostgreSQL pages through {@link pageIds}). On PostgreSQL the
 * matching ids are a MATERIALIZED CTE, so that the planner reads them through the trigram index instead
 * of walking the primary key with the filter.
 */
function matchingIds(
  model: ResourceModel,
  dialect: Dialect,
  text: string,
  page?: { order: 'asc' | 'desc'; limit: number; offset: number },
) {
  const [param] = textParams(model, dialect, text);
  if (dialect === 'sqlite') {
    const fts = sql.table(`${model.table}_fts`);
    const tail = page
      ? sql` order by 1 ${sql.raw(page.order)} limit ${page.limit} offset ${page.offset}`
      : sql``;
    return sql`select rowid from ${fts} where ${fts} match ${param}${tail}`;
  }
  const st = sql.table(searchTable(model.table));
  return sql`with m as materialized (select id from ${st} where ${docLike(param)}) select id from m`;
}

/** The `q` condition on `model.table` rows (see the module doc). */
export function freeText(
  db: Kysely<any>,
  model: ResourceModel,
  dialect: Dialect,
  text: string,
): Expression<SqlBool> {
  const { table, search } = model;
  const id = sql.ref(`${table}.id`);
  if (textMode(model, dialect, text) !== 'like')
    return sql<SqlBool>`${id} in (${matchingIds(model, dialect, text)})`;
  const parts: Expression<SqlBool>[] = [];
  if (search.columns.length)
    parts.push(
      textMatch(
        search.columns.map((c) => `${table}.${c}`),
        text,
        dialect,
      ),
    );
  const byReference = new Map<string, { table: string; fields: string[] }>();
  for (const r of search.references) {
    const entry = byReference.get(r.column) ?? { table: r.table, fields: [] };
    entry.fields.push(r.field);
    byReference.set(r.column, entry);
  }
  for (const [column, { table: target, fields }] of byReference) {
    const ids = db
      .selectFrom(target)
      .select(`${target}.id`)
      .where(
        textMatch(
          fields.map((f) => `${target}.${f}`),
          text,
          dialect,
        ),
      );
    parts.push(sql<SqlBool>`${sql.ref(`${table}.${column}`)} in (${ids})`);
  }
  if (!parts.length) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`(${sql.join(parts, sql` OR `)})`;
}

/**
 * `q` alone in id order on PostgreSQL (doc mode): the condition `<table>.id = any(array(<one page of the
 * matching ids>))`. The array is an InitPlan, computed once, and the planner counts about 10 elements in
 * it, so the page's records come by primary key (a nested loop) whatever the page query's estimate: a
 * derived table joined instead was estimated at 10% of its generic-plan rows (2,000 for the walk below)
 * and got a hash join over a sequential scan of the whole table, 15 ms a search on the Tate file.
 * Binds the pattern, then `limit` and `offset`.
 *
 * Two ways to the same ids, the caller picks by {@link walkPays}:
 * - `walk` false: every match from the trigram index (a bitmap scan), then only the ids sorted: `order by
 *   id + 0` keeps the planner from walking the primary key backwards with the LIKE as a filter, which
 *   reads the whole table for a rare word. Costs one heap visit per match (150-2,000 for the bench's
 *   words on the Tate file, about 0.4 µs each).
 * - `walk` true: the id buckets (`id / SEARCH_BUCKET`, the second column of the index, searchIndex.ts)
 *   from the page's end of the table, one index scan each (the bucket and the trigrams intersected
 *   inside GIN, btree_gin), until the page is full: a nested loop under the limit stops there, so a
 *   common word visits the matches of one or two buckets instead of all of them (pgbench, the bench's
 *   words on the Tate file: 0.65-0.79 → 0.27-0.28 ms per call; "the" 5.4 → 0.28 ms). Buckets are visited
 *   in id order and `id / n` never decreases as `id` grows, so bucket by bucket, each sorted, is id
 *   order. An empty table has no bucket to visit.
 * `limit` and `offset` are InitPlans like the pattern: with bare `$n` a custom plan (which knows the
 * limit) looks cheaper than the generic one, so PostgreSQL planned the statement again on every call,
 * about 0.4 ms of backend CPU each (pgbench, the bench's query for `sea`: 1.65 → 1.2 ms).
 */
function pageIds(
  model: ResourceModel,
  text: string,
  page: { order: 'asc' | 'desc'; limit: number; offset: number },
  walk = false,
): Expression<SqlBool> {
  const [param] = textParams(model, 'postgres', text);
  const id = sql.ref(`${model.table}.id`);
  const st = sql.table(searchTable(model.table));
  const dir = sql.raw(page.order);
  const tail = sql`limit (select ${page.limit}::bigint) offset (select ${page.offset}::bigint)`;
  if (!walk)
    return sql<SqlBool>`${id} = any(array(select id from ${st} where ${docLike(param)} order by id + 0 ${dir} ${tail}))`;
  const n = sql.raw(String(SEARCH_BUCKET));
  const [from, to, step] =
    page.order === 'desc'
      ? [sql`max(id)`, sql`min(id)`, sql.raw('-1')]
      : [sql`min(id)`, sql`max(id)`, sql.raw('1')];
  return sql<SqlBool>`${id} = any(array(select m.id from generate_series((select ${from} / ${n} from ${st}), (select ${to} / ${n} from ${st}), ${step}) as b(b) cross join lateral (select id from ${st} where ${docLike(param)} and id / ${n} = b.b order by id ${dir}) as m ${tail}))`;
}

/**
 * Whether the bucket walk of {@link pageIds} costs less than visiting every match, from what is known
 * before the page is read: `total` matches (the cached count), `need` = offset + limit rows, and
 * `idSpan` = max(id) - min(id) of the table (from the count statement; undefined: not known yet).
 * Cost model, measured on the Tate file (pgbench): a match visited costs about 0.4 µs, a bucket's index
 * scan about 10 µs; matches spread evenly would fill the page after need × buckets / total buckets, and
 * a factor 4 stands for the clustering of real data (a collection's series have neighbouring ids),
 * plus a factor 2 of margin: walk when total² > 200 × need × buckets. The Tate file (13 buckets, page
 * of 20): words with more than about 230 matches walk. Either way the same ids come back.
 */
export function walkPays(total: number, need: number, idSpan: number | undefined): boolean {
  if (idSpan === undefined || !(total > 0)) return false;
  const buckets = Math.floor(idSpan / SEARCH_BUCKET) + 1;
  return total * total > 200 * need * buckets;
}

/**
 * `q` alone in id order (fts / doc modes): one page of the matching ids as a condition on
 * `<table>.id`. SQLite: the FTS5 index pages the ids itself, stopping after the page, instead of listing
 * every match first. PostgreSQL: {@link pageIds}, with the bucket walk when `walk` ({@link walkPays}).
 * Binds the text's parameter, then `limit` and `offset`.
 */
export function pageCondition(
  model: ResourceModel,
  dialect: Dialect,
  text: string,
  page: { order: 'asc' | 'desc'; limit: number; offset: number },
  walk = false,
): Expression<SqlBool> {
  if (dialect === 'postgres') return pageIds(model, text, page, walk);
  return sql<SqlBool>`${sql.ref(`${model.table}.id`)} in (${matchingIds(model, 'sqlite', text, page)})`;
}

/**
 * The total of `q` alone (fts / doc modes), compiled: counted on the index table itself, which holds
 * one row per record. On PostgreSQL the row also carries `span`, max(id) - min(id) of that table (two
 * index-only lookups), for {@link walkPays}.
 */
export function countMatches(db: Kysely<any>, model: ResourceModel, dialect: Dialect, text: string) {
  if (dialect === 'sqlite')
    return db
      .selectFrom(model.table)
      .where(freeText(db, model, dialect, text))
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .compile();
  const [param] = textParams(model, dialect, text);
  const st = sql.table(searchTable(model.table));
  return sql<{
    total: number;
    span: number | null;
  }>`select count(*) as total, (select max(id) - min(id) from ${st}) as span from ${st} where ${docLike(param)}`.compile(
    db,
  );
}

/**
 * The generic repository: one implementation of the react-admin verbs over any resource whose schema
 * declares `x-storage` (model.ts). Records come back in the schema's shape: the stored properties (JSON
 * columns parsed), computed counts (`x-count`) and display joins (`x-storage.display`).
 *
 * - `list(db, query, extra?)`: one page and the total (remembered per distinct query until the database
 *   changes, countCache.ts; never a full count on every page). `query` is a validated `<id>.listQuery` /
 *   `.listBody` (page, pageSize, q, sort, order, ids, filters); `extra` adds equality filters
 *   (getManyReference). `q` matches the search fields (model.search) through the declared index: FTS5
 *   trigram on SQLite, `<table>_search` and pg_trgm on PostgreSQL, else LIKE/ILIKE (freeText.ts).
 * - `getOne(db, id)`: the record, or 404 "<Label> <id> does not exist".
 * - `create(db, body)` / `update(db, {id, ...patch})`: one transaction each; an update changes exactly the
 *   fields named. Checks, in order: (update) the record exists (404), cross-field rules (`x-ordered`,
 *   `x-distinct`) on the merged record (stored + patch, 400 naming the field), references (400, keyword
 *   `reference`), values checked by a referenced record's schema (`x-schemaFrom`, schemaFrom.ts), unique fields (409, keyword `unique`), then the resource's hooks, then the write. A
 *   constraint violation the checks could not see (a concurrent write) is 409 (dbErrors.ts).
 * - Revisions: every record carries `revision` (model.ts `REVISION`), one more at each update of its row.
 *   An update, or the delete of one record, that names the revision it started from is refused with 409
 *   and the current record when the record is at another one: no update is lost, and nothing is locked
 *   between the read and the save (the row is locked only inside the write's transaction).
 * - `deleteMany(db, ids)`: all-or-nothing; 404 naming the missing ids; 409 while a record is still
 *   referenced by a restricting reference (`x-references.onDelete: "restrict"`), or is final (`x-frozen`,
 *   409 naming `id`; an update of a final record is 400 naming the body's first field).
 * Each write is one transaction, or joins the caller's when `db` is one (an import's batch).
 * With a `WriteActor` (the API's calls pass one), create/update/deleteMany add one audit row per record
 * written, in the write's own transaction (server/db/audit.ts), with its values: a refused write leaves none.
 * Plain-text strings (`x-plainText`) are stored NFC-normalised (at any depth, {@link nfcPlainText}); the
 * top-level ones also trimmed, and a nullable one left empty as null.
 * Times are UTC text `YYYY-MM-DD HH:mm:ss` (`x-storage.timestamps`).
 */
import { msg, schemaLabel } from '../../common/messages/index';
import { sql, type Kysely } from 'kysely';
import { Codes } from '../../common/envelope';
import { isFinal } from '../dialect/frozen';
import { readQuery } from '../../server/db/connect';
import { nowText } from '../../server/db/database';
import { ApiError, conflict, invalidField, notFound } from '../../server/errors';
import { ensureBaseRevision, recordAudit, storedRow, type WriteActor } from '../../server/db/audit';
import { REVISION } from '../dialect/revision';
import { lockRow, staleRevision } from './revisions';
import { CountCache } from './countCache';
import { checkMerged } from './crossField';
import { mapConstraintError, uniqueConflict } from './dbErrors';
import { checkSchemaFrom, schemaFromSpecs, type SchemaFromSpec } from './schemaFrom';
import { direction, filterTarget, filtersOf, paging, parseIds, type ListQuery } from './listQuery';
import { countMatches, freeText, pageCondition, textMode, textParams, walkPays } from './freeText';
import type { ResourceModel } from './model';
import { columnValues, filterValue, nfcPlainText, recordBuilder, stateColumnsOf as stateOf } from './records';
import type { RecordOut } from './records';
// The kernel names tables at run time (from the schemas); Kysely's typed table names do not apply here.
type Db = Kysely<any>;
export type Dialect = 'sqlite' | 'postgres';
export type { RecordOut };
export { nfcPlainText, recordBuilder };

/** What a hook sees of a write. */
export interface WriteContext {
  /** The transaction of the write. */
  db: Db;
  dialect: Dialect;
  /** Column values about to be written (the hook may add or change some). */
  values: Record<string, unknown>;
  /** The validated body (create) or patch (update, without `id`). */
  body: Record<string, unknown>;
  /** The stored record (update only). */
  current?: RecordOut;
  /** Who writes (when the write is audited): a hook's own writes to other tables are audited with it. */
  actor?: WriteActor;
}

/** What a hook sees of a delete. */
export interface DeleteContext {
  /** The transaction of the delete. */
  db: Db;
  dialect: Dialect;
  /** The ids about to be deleted (all exist, none is referenced). */
  ids: number[];
}

/** Per-resource behaviour a schema cannot say (see kernel/hooks/index.ts for the list). */
export interface ResourceHooks {
  /** Runs in the write's transaction after every check, just before the insert or update. */
  beforeWrite?(ctx: WriteContext): Promise<void> | void;
  /** Runs in the delete's transaction after every check, just before the delete; may refuse it. */
  beforeDelete?(ctx: DeleteContext): Promise<void> | void;
  /**
   * Row-level read scope for the generic list and getOne calls (kernel/server/resources.ts), for a
   * resource whose rows belong to resources of other roles (the pigeonhole's archived rows). Given the
   * caller's roles and the list query's filters, answers the filters every row read must match: a value
   * for equality, an array for one of its values (SQL `IN`); `{}`: no restriction (listQuery.ts
   * `inReadScope` checks one record). Throws an ApiError (403) to refuse the read.
   */
  readScope?(roles: readonly string[], filters: Record<string, unknown>): Record<string, unknown>;
}

/** Runs `work` in a new transaction, or in `db` itself when it already is one (a batch of writes: import). */
const inTransaction = <T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> =>
  db.isTransaction ? work(db) : db.transaction().execute(work);

/** List query shapes whose SQL a repository keeps (oldest dropped first). */
const MAX_LIST_SHAPES = 500;

export class Repository<R extends object = RecordOut> {
  private readonly alias = new Map<string, string>();
  /** Totals of list queries (countCache.ts); cleared after each write of this repository. */
  readonly totals: CountCache;
  /**
   * PostgreSQL: max(id) - min(id) of the search table when a `q` total was last counted (freeText.ts
   * `walkPays`); a hint for choosing the page's plan, never for which rows come back.
   */
  private idSpan: number | undefined;
  /** The `x-schemaFrom` properties (schemaFrom.ts). */
  private readonly schemaFrom: SchemaFromSpec[];

  /**
   * @param model the resource (model.ts)
   * @param models every resource, by name (references and restricting referrers)
   * @param dialect the database's
   * @param hooks the resource's hooks
   */
  constructor(
    readonly model: ResourceModel,
    private readonly models: Map<string, ResourceModel>,
    readonly dialect: Dialect,
    readonly hooks: ResourceHooks = {},
  ) {
    model.display.forEach((d, i) => this.alias.set(d.name, `display_${i}`));
    this.totals = new CountCache(dialect);
    this.schemaFrom = schemaFromSpecs(model.schema);
  }

  private col(name: string): string {
    return `${this.model.table}.${name}`;
  }

  /** The select of whole records (stored columns, counts, display joins). */
  private records(db: Db) {
    const { table, display } = this.model;
    let qb = db.selectFrom(table);
    for (const d of display) {
      const alias = this.alias.get(d.name)!;
      qb = qb.leftJoin(`${d.table} as ${alias}`, `${alias}.id`, this.col(d.reference));
    }
    return this.selection(qb);
  }

  /** Counts and display fields, built once (a repository's model never changes). */
  private computed?: unknown[];

  /** Every column of the table (a record shows the stored properties only), plus counts and display fields. */
  private selection(qb: any) {
    const { table, counts, display } = this.model;
    this.computed ??= [
      // The counted table under an alias of its own: when it is this resource's table (reports counting
      // reports of the same artwork), `T.field = T.key` would compare each counted row with itself.
      ...counts.map((c) =>
        sql<number>`(select count(*) from ${sql.table(c.table)} as ${sql.id('counted')} where ${sql.ref(`counted.${c.field}`)} = ${sql.ref(`${table}.${c.key}`)})`.as(
          c.name,
        ),
      ),
      ...display.map((d) => sql.ref(`${this.alias.get(d.name)}.${d.field}`).as(d.name)),
    ];
    const all = qb.selectAll(table);
    return this.computed.length ? all.select(this.computed) : all;
  }

  /** A stored row as the API record. */
  toRecord(row: Record<string, unknown>): RecordOut {
    return (this.recordOf ??= recordBuilder(this.model))(row);
  }

  /** {@link toRecord}'s builder for this model, made on first use. */
  private recordOf?: (row: Record<string, unknown>) => RecordOut;

  /** The column and comparison of a filter (listQuery.ts `filterTarget`). */
  private filterOn(name: string): [string, '=' | '>=' | '<='] {
    return filterTarget(name, (n) => Object.hasOwn(this.model.columns, n));
  }

  /** A filter's value as its column holds it (records.ts `filterValue`: booleans as 1/0); an array's each. */
  private filterParam(name: string, value: unknown): unknown {
    const column = this.filterOn(name)[0];
    return Array.isArray(value)
      ? value.map((v) => filterValue(this.model, column, v))
      : filterValue(this.model, column, value);
  }

  /**
   * The column, comparison and value of filter `name`: an array value (a read scope's, never a query's:
   * the list schemas take one value a filter) is compared with `in`; an empty one matches nothing.
   */
  private filterClause(name: string, value: unknown): [string, '=' | '>=' | '<=' | 'in', unknown] {
    const [column, op] = this.filterOn(name);
    const v = this.filterParam(name, value);
    if (!Array.isArray(v)) return [column, op, v];
    return [column, 'in', v.length ? v : [null]];
  }

  /**
   * The SQL of a list query's page and count by the query's shape (which filters, how many ids, text
   * or not and how it is matched, sort, order): built and compiled by Kysely once per shape, then bound
   * to each call's values. `null`: the shape's parameters did not come out in the order {@link list}
   * binds them, so that shape is built on every call (a safety net; no current shape does this).
   */
  private readonly listSql = new Map<string, { page: string; count: string } | null>();

  /**
   * One page of records matching `query`, and the total.
   * @param extra filters added to the query's (getManyReference: `{author: id}`; a read scope, whose
   *   array values mean one of them)
   */
  async list(
    db: Db,
    query: ListQuery,
    extra: Record<string, unknown> = {},
  ): Promise<{ list: R[]; total: number }> {
    const ids = parseIds(query.ids);
    const text = query.q?.trim() || undefined;
    const filters = { ...filtersOf(query), ...extra };
    const names = Object.keys(filters).sort();
    const { limit, offset } = paging(query);
    const sort = query.sort ?? 'id';
    const order = direction(query.order);
    // Free text alone in id order: the FTS5 table pages by rowid (= id) itself, stopping after the page,
    // instead of listing every match first (about twice as fast for a common word, issue 10).
    const mode = text ? textMode(this.model, this.dialect, text) : null;
    const ftsPage = !!mode && mode !== 'like' && !ids && !names.length && sort === 'id';
    const where = [
      ...(ids ? (ids.length ? ids : [-1]) : []),
      ...(text ? textParams(this.model, this.dialect, text) : []),
      ...names.flatMap((n) => {
        const v = this.filterClause(n, filters[n])[2];
        return Array.isArray(v) ? v : [v];
      }),
    ];
    const shapeOf = (walk: boolean) => {
      const counts = names.map((n) => (Array.isArray(filters[n]) ? (filters[n] as unknown[]).length : -1));
      const shape = JSON.stringify([ids?.length ?? null, mode, names, counts, sort, order, walk]);
      let compiled = this.listSql.get(shape);
      const q = { ids, text, filters, names, sort, order, ftsPage, limit, offset, walk };
      if (compiled === undefined) {
        const built = this.buildList(db, q);
        const same = (a: readonly unknown[], b: readonly unknown[]) =>
          JSON.stringify(a) === JSON.stringify(b);
        compiled =
          same(built.count.parameters, where) && same(built.page.parameters, [...where, limit, offset])
            ? { page: built.page.sql, count: built.count.sql }
            : null;
        if (this.listSql.size >= MAX_LIST_SHAPES) this.listSql.delete(this.listSql.keys().next().value!);
        this.listSql.set(shape, compiled);
      }
      if (compiled)
        return {
          pageSql: compiled.page,
          countSql: compiled.count,
          pageParams: [...where, limit, offset],
          countParams: where,
        };
      const built = this.buildList(db, q);
      return {
        pageSql: built.page.sql,
        countSql: built.count.sql,
        pageParams: built.page.parameters,
        countParams: built.count.parameters,
      };
    };
    const plain = shapeOf(false);
    const { countSql, countParams } = plain;
    let { pageSql, pageParams } = plain;
    const key = JSON.stringify([ids ?? null, text ?? '', names.map((n) => [n, filters[n]])]);
    const total = await this.totals.total(db, key, async () => {
      const [row] = await readQuery<{ total: number | string; span?: number | string | null }>(
        db,
        countSql,
        countParams,
      );
      if (row.span !== undefined) this.idSpan = row.span === null ? undefined : Number(row.span);
      return Number(row.total);
    });
    // PostgreSQL `q` alone: the id buckets when they cost less than every match (freeText.ts walkPays).
    if (ftsPage && this.dialect === 'postgres' && walkPays(total, offset + limit, this.idSpan))
      ({ pageSql, pageParams } = shapeOf(true));
    const rows = await readQuery<Record<string, unknown>>(db, pageSql, pageParams);
    return { list: rows.map((r) => this.toRecord(r) as R), total };
  }

  /** The Kysely page and count queries of a list call, compiled (see {@link listSql}). */
  private buildList(
    db: Db,
    q: {
      ids?: number[];
      text?: string;
      filters: Record<string, unknown>;
      names: string[];
      sort: string;
      order: 'asc' | 'desc';
      ftsPage: boolean;
      limit: number;
      offset: number;
      walk: boolean;
    },
  ) {
    let where = db.selectFrom(this.model.table);
    if (q.ids) where = where.where(this.col('id'), 'in', q.ids.length ? q.ids : [-1]);
    if (q.text && !q.ftsPage) where = where.where(freeText(db, this.model, this.dialect, q.text));
    for (const n of q.names) {
      const [column, op, v] = this.filterClause(n, q.filters[n]);
      where = where.where(this.col(column), op, v);
    }
    const count = where.select((eb) => eb.fn.countAll<number>().as('total'));
    let page = where;
    const slice = { order: q.order, limit: q.limit, offset: q.offset };
    // `q` alone in id order: the page of ids first (freeText.ts), then its records.
    if (q.text && q.ftsPage)
      page = page.where(pageCondition(this.model, this.dialect, q.text, slice, q.walk));
    for (const d of this.model.display) {
      const alias = this.alias.get(d.name)!;
      page = page.leftJoin(`${d.table} as ${alias}`, `${alias}.id`, this.col(d.reference));
    }
    const computed = this.model.counts.some((c) => c.name === q.sort);
    const ordered = this.selection(page)
      .orderBy(computed ? sql.ref(q.sort) : sql.ref(this.col(q.sort)), q.order)
      .orderBy(this.col('id'), 'desc');
    // The FTS page already is the page (its limit and offset bound in the same places as an outer one's).
    const paged = q.ftsPage ? ordered : ordered.limit(q.limit).offset(q.offset);
    return {
      page: paged.compile(),
      count: q.ftsPage ? countMatches(db, this.model, this.dialect, q.text!) : count.compile(),
    };
  }

  /**
   * Whole records matching a list query's ids, `q` and filters (plus `extra`), unordered and unpaged: the
   * select a streaming read (kernel/server/exportRoutes.ts) orders and walks by keyset itself.
   */
  matching(db: Db, query: ListQuery, extra: Record<string, unknown> = {}) {
    const [ids, text] = [parseIds(query.ids), query.q?.trim()];
    let qb = this.records(db);
    if (ids) qb = qb.where(this.col('id'), 'in', ids.length ? ids : [-1]);
    if (text) qb = qb.where(freeText(db, this.model, this.dialect, text));
    for (const [n, value] of Object.entries({ ...filtersOf(query), ...extra })) {
      const [column, op, v] = this.filterClause(n, value);
      qb = qb.where(this.col(column), op, v);
    }
    return qb;
  }

  /** The SQL of getOne, compiled once (the dialect of a repository never changes). */
  private getOneSql?: string;

  /** The record with `id`, or throws 404. */
  async getOne(db: Db, id: number): Promise<R> {
    return (await this.getRecord(db, id)) as R;
  }

  private async getRecord(db: Db, id: number): Promise<RecordOut> {
    const text = (this.getOneSql ??= this.records(db).where(this.col('id'), '=', 0).compile().sql);
    const rows = await readQuery<Record<string, unknown>>(db, text, [id]);
    if (!rows.length) throw notFound(schemaLabel(this.model.schemaId), id);
    return this.toRecord(rows[0]);
  }

  /** Column values of the fields `body` names (records.ts `columnValues`). */
  private valuesOf(body: Record<string, unknown>): Record<string, unknown> {
    return columnValues(this.model, body);
  }

  private async checkReferences(db: Db, values: Record<string, unknown>): Promise<void> {
    for (const r of this.model.references) {
      const v = values[r.field];
      if (v === undefined || v === null) continue;
      const found = await db.selectFrom(r.table).select('id').where('id', '=', v).executeTakeFirst();
      if (!found) {
        const label = (this.models.get(r.resource)?.label ?? r.resource).toLowerCase();
        throw invalidField(r.field, 'reference', `${label} ${String(v)} does not exist`, { id: v });
      }
    }
  }

  private async checkUnique(db: Db, values: Record<string, unknown>, exceptId?: number): Promise<void> {
    const { table, representation, label } = this.model;
    for (const field of this.model.unique) {
      const v = values[field];
      if (v === undefined || v === null) continue;
      let q = db
        .selectFrom(table)
        .select(['id', `${representation} as rep`])
        .where(field, '=', v);
      if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
      const holder = await q.executeTakeFirst();
      if (holder)
        throw uniqueConflict(field, v, `${label.toLowerCase()} ${holder.id} ("${String(holder.rep)}")`);
    }
  }

  private referenceFields(): string[] {
    return this.model.references.filter((r) => r.foreignKey).map((r) => r.field);
  }

  private stamp(values: Record<string, unknown>, op: 'create' | 'write'): void {
    const now = nowText();
    for (const [column, when] of Object.entries(this.model.timestamps))
      if (op === 'create' || when === 'write') values[column] = now;
  }

  /** Inserts a record (validated `<id>.create` body) and answers it as stored; audited when `actor` is given. */
  async create(db: Db, record: Partial<R>, actor?: WriteActor): Promise<R> {
    const body = record as Record<string, unknown>;
    const values = this.valuesOf(body);
    try {
      return await inTransaction(db, async (trx) => {
        await this.checkReferences(trx, values);
        await checkSchemaFrom(trx, this.model, this.schemaFrom, values);
        await this.checkUnique(trx, values);
        this.stamp(values, 'create');
        await this.hooks.beforeWrite?.({ db: trx, dialect: this.dialect, values, body, actor });
        const { id } = await trx
          .insertInto(this.model.table)
          .values(values)
          .returning('id')
          .executeTakeFirstOrThrow();
        if (actor)
          await recordAudit(trx, actor, {
            resource: this.model.name,
            recordId: Number(id),
            after: await storedRow(trx, this.model.table, Number(id)),
            stateColumns: stateOf(this.model),
          });
        return this.getOne(trx, Number(id));
      });
    } catch (e) {
      throw mapConstraintError(e, 'write', values, this.referenceFields());
    } finally {
      this.totals.clear();
    }
  }

  /**
   * Updates exactly the fields `body` names besides `id` (validated `<id>.update`); 404 for an unknown id.
   * With `revision` (the revision the caller's copy has: `If-Match` or the body's, {@link REVISION}), a
   * record at another revision is not changed: 409 with the current record (revisions.ts `staleRevision`).
   */
  async update(db: Db, body: Partial<R> & { id: number; revision?: number }, actor?: WriteActor): Promise<R> {
    const { id, [REVISION]: yours, ...patch } = body as Record<string, unknown> & { id: number };
    const values = this.valuesOf(patch);
    try {
      return await inTransaction(db, async (trx) => {
        await lockRow(trx, this.dialect, this.model.table, id);
        const current = await this.getRecord(trx, id);
        if (typeof yours === 'number' && current[REVISION] !== yours)
          throw await staleRevision(trx, this.model, current, yours);
        const frozen = this.model.schema['x-frozen'];
        if (frozen && isFinal(frozen.when, current))
          throw invalidField(Object.keys(patch)[0] ?? 'id', frozen.keyword, frozen.message);
        const before = actor && (await storedRow(trx, this.model.table, id));
        checkMerged(this.model, current, patch);
        await this.checkReferences(trx, values);
        await checkSchemaFrom(trx, this.model, this.schemaFrom, values, current);
        const changed = Object.fromEntries(Object.entries(values).filter(([k, v]) => current[k] !== v));
        await this.checkUnique(trx, changed, id);
        this.stamp(values, 'write');
        await this.hooks.beforeWrite?.({
          db: trx,
          dialect: this.dialect,
          values,
          body: patch,
          current,
          actor,
        });
        if (Object.keys(values).length)
          await trx.updateTable(this.model.table).set(values).where('id', '=', id).execute();
        if (actor) {
          await ensureBaseRevision(trx, this.model.name, id, before, stateOf(this.model));
          await recordAudit(trx, actor, {
            resource: this.model.name,
            recordId: id,
            before,
            after: await storedRow(trx, this.model.table, id),
            stateColumns: stateOf(this.model),
          });
        }
        return this.getOne(trx, id);
      });
    } catch (e) {
      throw mapConstraintError(e, 'write', values, this.referenceFields());
    } finally {
      this.totals.clear();
    }
  }

  /**
   * Deletes records, all-or-nothing (see the module doc); audited when `actor` is given. With `revision`
   * (one id only: the revision the caller's copy has), a record at another revision is kept: 409 with the
   * current record, as {@link update}.
   */
  async deleteMany(db: Db, ids: number[], actor?: WriteActor, revision?: number): Promise<{ ids: number[] }> {
    const { table, representation, label, name } = this.model;
    try {
      return await inTransaction(db, async (trx) => {
        const rows = await trx
          .selectFrom(table)
          .select(['id', `${representation} as rep`])
          .where('id', 'in', ids)
          .execute();
        const missing = ids.filter((id) => !rows.some((r) => r.id === id));
        if (missing.length) throw notFound(schemaLabel(this.model.schemaId), missing.join(', '));
        if (revision !== undefined && ids.length === 1) {
          await lockRow(trx, this.dialect, this.model.table, ids[0]);
          const current = await this.getRecord(trx, ids[0]);
          if (current[REVISION] !== revision) throw await staleRevision(trx, this.model, current, revision);
        }
        for (const referrer of this.models.values())
          for (const r of referrer.references) {
            if (r.resource !== name || r.onDelete !== 'restrict') continue;
            const used = await trx
              .selectFrom(referrer.table)
              .select([`${r.field} as ref`, (eb) => eb.fn.countAll<number>().as('n')])
              .where(r.field, 'in', ids)
              .groupBy(r.field)
              .execute();
            if (!used.length) continue;
            const referrerLabel = schemaLabel(referrer.schemaId, true);
            const busy = (lang: 'en' | 'zh') =>
              used
                .map((u) => {
                  const row = rows.find((x) => x.id === Number(u.ref))!;
                  return lang === 'en'
                    ? `"${String(row.rep)}" (${Number(u.n)} ${referrer.name})`
                    : `“${String(row.rep)}”（${Number(u.n)} 个${referrerLabel.zh}）`;
                })
                .join(lang === 'en' ? ', ' : '、');
            const own = schemaLabel(this.model.schemaId);
            throw conflict(
              msg('record.deleteReferenced', {
                records: { en: busy('en'), zh: busy('zh') },
                label: { en: label.toLowerCase(), zh: own.zh },
                referrerResources: { en: referrer.name, zh: referrerLabel.zh },
              }),
              { ids: used.map((u) => Number(u.ref)) },
            );
          }
        const frozen = this.model.schema['x-frozen'];
        if (frozen) {
          let query = trx.selectFrom(table).select('id').where('id', 'in', ids);
          for (const [field, value] of Object.entries(frozen.when))
            query = query.where(this.col(field), '=', value as never);
          const final = (await query.execute()).map((r) => Number(r.id));
          if (final.length)
            throw new ApiError(Codes.CONFLICT, 409, msg('request.fields'), {
              errors: [
                {
                  field: 'id',
                  keyword: frozen.keyword,
                  params: { ids: final },
                  message: `id: ${label.toLowerCase()} ${final.join(', ')}: ${frozen.message}`,
                },
              ],
            });
        }
        await this.hooks.beforeDelete?.({ db: trx, dialect: this.dialect, ids });
        const before = actor ? await Promise.all(ids.map((id) => storedRow(trx, table, id))) : [];
        await trx.deleteFrom(table).where('id', 'in', ids).execute();
        if (actor)
          for (const [i, id] of ids.entries()) {
            await ensureBaseRevision(trx, name, id, before[i], stateOf(this.model));
            await recordAudit(trx, actor, { resource: name, recordId: id, before: before[i] });
          }
        return { ids };
      });
    } catch (e) {
      throw mapConstraintError(e, 'delete');
    } finally {
      this.totals.clear();
    }
  }
}

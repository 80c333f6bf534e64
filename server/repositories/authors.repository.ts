/**
 * Authors: plain functions over `db` (or a transaction). Records are returned in the schema's shape
 * (schemas/author.schema.json), with `artWorks` = the number of artworks stored for the author.
 */
import { sql, type Kysely } from 'kysely';
import type { Author as AuthorRecord } from '../../common/generated/types';
import { nowText, type Author, type Database } from '../db/database';
import { conflict, notFound } from '../plugins/app/errors';
import { direction, filtersOf, paging, parseIds, textMatch, type ListQuery } from './listQuery';

type Db = Kysely<Database>;
type Dialect = 'sqlite' | 'postgres';

const artWorksCount = sql<number>`(select count(*) from artworks where artworks.author = authors.id)`;

function toRecord(row: Author & { artWorks: number | string }): AuthorRecord {
  return {
    id: row.id,
    authorName: row.authorName,
    introduction: row.introduction,
    portrait: row.portrait,
    artWorks: Number(row.artWorks),
    isBlock: row.isBlock as 0 | 1,
    chain: row.chain,
    blockTime: row.blockTime,
    createTime: row.createTime,
    wxIsEnable: row.wxIsEnable as 0 | 1,
    wxCode: row.wxCode,
    wxUrl: row.wxUrl,
    wxCreateTime: row.wxCreateTime,
    sourceId: row.sourceId,
  };
}

function base(db: Db) {
  return db.selectFrom('authors').selectAll('authors').select(artWorksCount.as('artWorks'));
}

/** One page of authors matching the query, and the total. */
export async function listAuthors(db: Db, dialect: Dialect, q: ListQuery) {
  let where = db.selectFrom('authors');
  const ids = parseIds(q.ids);
  if (ids) where = where.where('authors.id', 'in', ids.length ? ids : [-1]);
  if (q.q?.trim())
    where = where.where(textMatch(['authors.authorName', 'authors.introduction'], q.q, dialect));
  for (const [field, value] of Object.entries(filtersOf(q)))
    where = where.where(`authors.${field}` as any, '=', value);
  const { total } = await where
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const { limit, offset } = paging(q);
  const sortable = q.sort ?? 'id';
  const rows = await where
    .selectAll('authors')
    .select(artWorksCount.as('artWorks'))
    .orderBy(
      sortable === 'artWorks' ? sql.ref('artWorks') : sql.ref(`authors.${sortable}`),
      direction(q.order),
    )
    .orderBy('authors.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return { list: rows.map(toRecord), total: Number(total) };
}

/** The author with `id`, or throws 404. */
export async function getAuthor(db: Db, id: number): Promise<AuthorRecord> {
  const row = await base(db).where('authors.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Author', id);
  return toRecord(row);
}

/** Inserts an author (validated `author.create` body) and answers the stored record. */
export async function createAuthor(db: Db, body: Partial<AuthorRecord>): Promise<AuthorRecord> {
  const now = nowText();
  const { id } = await db
    .insertInto('authors')
    .values({
      authorName: body.authorName!.trim(),
      introduction: body.introduction ?? null,
      portrait: body.portrait ?? null,
      wxIsEnable: body.wxIsEnable ?? 0,
      wxCode: body.wxCode ?? null,
      wxUrl: body.wxUrl ?? null,
      wxCreateTime: body.wxCode ? now : null,
      createTime: now,
      updateTime: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return getAuthor(db, id);
}

/** Updates the fields present in `body` (validated `author.update`); 404 for an unknown id. */
export async function updateAuthor(
  db: Db,
  body: Partial<AuthorRecord> & { id: number },
): Promise<AuthorRecord> {
  const { id, ...fields } = body;
  return db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('authors')
      .select(['id', 'wxCode'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!current) throw notFound('Author', id);
    const set: Record<string, unknown> = { ...fields, updateTime: nowText() };
    if (typeof fields.authorName === 'string') set.authorName = fields.authorName.trim();
    if (fields.wxCode !== undefined && fields.wxCode !== current.wxCode)
      set.wxCreateTime = fields.wxCode ? nowText() : null;
    await trx.updateTable('authors').set(set).where('id', '=', id).execute();
    return getAuthor(trx, id);
  });
}

/**
 * Deletes authors; all-or-nothing. Refused with 409 (nothing deleted) while any of them still has
 * artworks, and with 404 when an id is unknown.
 */
export async function deleteAuthors(db: Db, ids: number[]): Promise<{ ids: number[] }> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('authors')
      .select(['id', 'authorName'])
      .select(artWorksCount.as('artWorks'))
      .where('id', 'in', ids)
      .execute();
    const missing = ids.filter((id) => !rows.some((r) => r.id === id));
    if (missing.length) throw notFound('Author', missing.join(', '));
    const busy = rows.filter((r) => Number(r.artWorks) > 0);
    if (busy.length)
      throw conflict(
        `Cannot delete ${busy.map((b) => `"${b.authorName}" (${b.artWorks} artworks)`).join(', ')}: delete or reassign their artworks first`,
        { ids: busy.map((b) => b.id) },
      );
    await trx.deleteFrom('authors').where('id', 'in', ids).execute();
    return { ids };
  });
}

/** Autocomplete: at most 20 authors whose name contains `keyword`, shortest names first. */
export async function searchAuthorNames(db: Db, dialect: Dialect, keyword: string) {
  let qb = db.selectFrom('authors').select(['id', 'authorName', 'isBlock']);
  if (keyword.trim()) qb = qb.where(textMatch(['authorName'], keyword, dialect));
  return qb
    .orderBy(sql`length(${sql.ref('authorName')})`)
    .orderBy('id')
    .limit(20)
    .execute();
}

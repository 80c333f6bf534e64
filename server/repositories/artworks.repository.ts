/**
 * Artworks: plain functions over `db` (or a transaction). Records are returned in the schema's shape
 * (schemas/artwork.schema.json); the JSON columns (images, baseInfo, ...) are parsed, plus `authorName`
 * for display. `author` must reference a stored author and `bid` a stored bid user, else 400 naming the
 * field. A new `classify` value is registered in `art_categories`.
 */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Artwork as ArtworkRecord } from '../../common/generated/types';
import { ARTWORK_JSON_COLUMNS, nowText, parseJson, type ArtworkRow, type Database } from '../db/database';
import { invalidField, notFound } from '../plugins/app/errors';
import { direction, filtersOf, paging, parseIds, textMatch, type ListQuery } from './listQuery';

type Db = Kysely<Database>;
type Dialect = 'sqlite' | 'postgres';
export type ArtworkOut = ArtworkRecord & { authorName: string | null };

const JSON_FALLBACK: Record<string, unknown> = { images: [], traceability: [] };

function toRecord(row: ArtworkRow & { authorName: string | null }): ArtworkOut {
  const out: Record<string, unknown> = {
    id: row.id,
    artWorkName: row.artWorkName,
    author: row.author,
    authorName: row.authorName,
    possessor: row.possessor,
    classify: row.classify,
    texture: row.texture,
    bid: row.bid,
    status: row.status,
    isBlock: row.isBlock,
    chain: row.chain,
    blockTime: row.blockTime,
    createTime: row.createTime,
    sourceId: row.sourceId,
  };
  for (const c of ARTWORK_JSON_COLUMNS) out[c] = parseJson(row[c], JSON_FALLBACK[c] ?? {});
  return out as unknown as ArtworkOut;
}

function base(db: Db) {
  return db
    .selectFrom('artworks')
    .leftJoin('authors', 'authors.id', 'artworks.author')
    .selectAll('artworks')
    .select('authors.authorName');
}

/**
 * The `q` condition of the artworks list: a substring of name, texture, category, owner or the author's
 * name. On SQLite, 3 or more characters use the FTS5 trigram index `artworks_fts` (migration
 * 20261122T0200_search) as a phrase query; shorter text and PostgreSQL (pg_trgm indexes) use LIKE/ILIKE.
 */
function freeText(db: Db, dialect: Dialect, text: string): Expression<SqlBool> {
  if (dialect === 'sqlite' && [...text].length >= 3) {
    const phrase = `"${text.replace(/"/g, '""')}"`;
    return sql<SqlBool>`artworks.id in (select rowid from artworks_fts where artworks_fts match ${phrase})`;
  }
  const own = textMatch(
    ['artworks.artWorkName', 'artworks.texture', 'artworks.classify', 'artworks.possessor'],
    text,
    dialect,
  );
  const byAuthor = db
    .selectFrom('authors')
    .select('authors.id')
    .where(textMatch(['authors.authorName'], text, dialect));
  return sql<SqlBool>`(${own} or artworks.author in (${byAuthor}))`;
}

/**
 * One page of artworks and the total. `q` matches name, texture, category, owner and the author's name;
 * `author` (an author id) restricts to that author's works (getManyReference).
 */
export async function listArtworks(db: Db, dialect: Dialect, q: ListQuery) {
  let where = db.selectFrom('artworks');
  const ids = parseIds(q.ids);
  if (ids) where = where.where('artworks.id', 'in', ids.length ? ids : [-1]);
  const text = q.q?.trim();
  if (text) where = where.where(freeText(db, dialect, text));
  for (const [field, value] of Object.entries(filtersOf(q)))
    where = where.where(`artworks.${field}` as any, '=', value);
  const { total } = await where
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const page = where.leftJoin('authors', 'authors.id', 'artworks.author');
  const { limit, offset } = paging(q);
  const rows = await page
    .selectAll('artworks')
    .select('authors.authorName')
    .orderBy(sql.ref(`artworks.${q.sort ?? 'id'}`), direction(q.order))
    .orderBy('artworks.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return { list: rows.map(toRecord), total: Number(total) };
}

/** The artwork with `id`, or throws 404. */
export async function getArtwork(db: Db, id: number): Promise<ArtworkOut> {
  const row = await base(db).where('artworks.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Artwork', id);
  return toRecord(row);
}

async function checkReferences(db: Db, body: Partial<ArtworkRecord>) {
  if (body.author !== undefined) {
    const a = await db.selectFrom('authors').select('id').where('id', '=', body.author).executeTakeFirst();
    if (!a)
      throw invalidField('author', 'reference', `author ${body.author} does not exist`, { id: body.author });
  }
  if (body.bid !== undefined && body.bid !== null) {
    const b = await db.selectFrom('bid_users').select('id').where('id', '=', body.bid).executeTakeFirst();
    if (!b) throw invalidField('bid', 'reference', `bid user ${body.bid} does not exist`, { id: body.bid });
  }
  if (body.classify !== undefined)
    await db
      .insertInto('art_categories')
      .values({ name: body.classify })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
}

function columns(body: Partial<ArtworkRecord>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === 'id') continue;
    out[k] = (ARTWORK_JSON_COLUMNS as readonly string[]).includes(k)
      ? JSON.stringify(v ?? JSON_FALLBACK[k] ?? {})
      : v;
  }
  if (typeof out.artWorkName === 'string') out.artWorkName = out.artWorkName.trim();
  return out;
}

/** Inserts an artwork (validated `artwork.create` body), in one transaction; answers the stored record. */
export async function createArtwork(db: Db, body: Partial<ArtworkRecord>): Promise<ArtworkOut> {
  return db.transaction().execute(async (trx) => {
    await checkReferences(trx, body);
    const now = nowText();
    const { id } = await trx
      .insertInto('artworks')
      .values({
        images: '[]',
        baseInfo: '{}',
        dealInfo: '{}',
        securityInfo: '{}',
        certificateInfo: '{}',
        traceability: '[]',
        ownership: '{}',
        authenticity: '{}',
        ...(columns(body) as any),
        createTime: now,
        updateTime: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return getArtwork(trx, id);
  });
}

/** Updates the fields present in `body` (validated `artwork.update`); 404 for an unknown id. */
export async function updateArtwork(
  db: Db,
  body: Partial<ArtworkRecord> & { id: number },
): Promise<ArtworkOut> {
  return db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('artworks')
      .select('id')
      .where('id', '=', body.id)
      .executeTakeFirst();
    if (!current) throw notFound('Artwork', body.id);
    await checkReferences(trx, body);
    await trx
      .updateTable('artworks')
      .set({ ...(columns(body) as any), updateTime: nowText() })
      .where('id', '=', body.id)
      .execute();
    return getArtwork(trx, body.id);
  });
}

/** Deletes artworks, all-or-nothing; 404 (nothing deleted) when an id is unknown. */
export async function deleteArtworks(db: Db, ids: number[]): Promise<{ ids: number[] }> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('artworks').select('id').where('id', 'in', ids).execute();
    const missing = ids.filter((id) => !rows.some((r) => r.id === id));
    if (missing.length) throw notFound('Artwork', missing.join(', '));
    await trx.deleteFrom('artworks').where('id', 'in', ids).execute();
    return { ids };
  });
}

/** Categories with the number of artworks in each, by name. */
export async function listCategories(db: Db) {
  const rows = await db
    .selectFrom('art_categories')
    .select(['art_categories.id', 'art_categories.name'])
    .select(
      sql<number>`(select count(*) from artworks where artworks.classify = art_categories.name)`.as('count'),
    )
    .orderBy('art_categories.name')
    .execute();
  const list = rows.map((r) => ({ ...r, count: Number(r.count) }));
  return { list, total: list.length };
}

/**
 * Bid users and platform users (the mini-program's accounts): same shape, two tables
 * (`bid_users`, `platform_users`); records follow schemas/bidUser.schema.json and platformUser.schema.json.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database';
import { notFound } from '../plugins/app/errors';
import { direction, filtersOf, paging, parseIds, textMatch, type ListQuery } from './listQuery';

type Table = 'bid_users' | 'platform_users';

/** One page of users and the total; `q` matches account, nickname and uid. */
export async function listAppUsers(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  table: Table,
  q: ListQuery,
) {
  let where = db.selectFrom(table);
  const ids = parseIds(q.ids);
  if (ids) where = where.where('id', 'in', ids.length ? ids : [-1]);
  if (q.q?.trim()) where = where.where(textMatch(['account', 'nickname', 'uid'], q.q, dialect));
  for (const [field, value] of Object.entries(filtersOf(q))) where = where.where(field as any, '=', value);
  const { total } = await where
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const { limit, offset } = paging(q);
  const list = await where
    .selectAll()
    .orderBy((q.sort ?? 'id') as any, direction(q.order))
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return { list, total: Number(total) };
}

/** The user with `id`, or 404. */
export async function getAppUser(db: Kysely<Database>, table: Table, id: number) {
  const row = await db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(table === 'bid_users' ? 'Bid user' : 'User', id);
  return row;
}

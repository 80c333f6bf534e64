/**
 * `GET /artmanager/dashboard/stats` (admin): registry figures for the dashboard —
 * `{ authors, artworks, authorsOnChain, artworksOnChain, categories: [{name, count}], recent: [artwork...],
 *    createdPerDay: [{day: 'YYYY-MM-DD', count}] (last 30 days with records) }`.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { ok } from '../../../plugins/app/envelope';

export default async function dashboardRoutes(app: FastifyInstance) {
  app.get('/stats', { onRequest: app.requireRoles(['admin']) }, async () => {
    const db = app.db;
    const count = async (table: 'authors' | 'artworks', onChain: boolean) => {
      let q = db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
      if (onChain) q = q.where('isBlock', '=', 1);
      return Number((await q.executeTakeFirstOrThrow()).n);
    };
    const categories = await db
      .selectFrom('artworks')
      .select(['classify as name', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('classify')
      .orderBy('count', 'desc')
      .execute();
    const day = sql<string>`substr(${sql.ref('createTime')}, 1, 10)`;
    const perDay = await db
      .selectFrom('artworks')
      .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(day)
      .orderBy(day, 'desc')
      .limit(30)
      .execute();
    const recent = await app.resources.artworks.list(db, { page: 1, pageSize: 5, sort: 'id', order: 'DESC' });
    return ok({
      authors: await count('authors', false),
      artworks: await count('artworks', false),
      authorsOnChain: await count('authors', true),
      artworksOnChain: await count('artworks', true),
      categories: categories.map((c) => ({ name: c.name, count: Number(c.count) })),
      recent: recent.list,
      createdPerDay: perDay.map((d) => ({ day: d.day, count: Number(d.count) })).reverse(),
    });
  });
}

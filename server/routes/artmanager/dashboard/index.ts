/**
 * `GET /artmanager/dashboard/stats` (admin): the registry's figures for the dashboard, over real
 * dimensions of the data (the import date of the seed is not one: every Tate record shares it):
 * ```
 * { authors, artworks, authorsOnChain, artworksOnChain,
 *   categories: [{name, count}]                      works per category, largest first;
 *   acquisitionsPerYear: [{year, count}]             Tate's `dealInfo.acquisitionYear`, ascending years;
 *   acquisitionYearUnknown: number                   works without an acquisition year;
 *   onChainPerDay: [{day: 'YYYY-MM-DD', authors, artworks, authorsTotal, artworksTotal}]
 *                                                    records put on chain per day (by blockTime) and the
 *                                                    running totals (the on-chain progress), ascending;
 *   accountsPerRole: [{role, count}]                 console accounts per role (an account may have several);
 *   recent: [artwork...] }                           the five latest artworks (list shape).
 * ```
 * The category groups and the per-day on-chain counts scan an index (the schemas' `x-storage.indexes`:
 * `artworks_classify`, `artworks_blockTime`, `authors_blockTime`), not the rows. The acquisition years
 * live in the `dealInfo` JSON column, which the schemas' storage cannot index: that group reads every
 * artwork row once (a TODO for a stored column or a maintained counter). Transactions per hour are the
 * ledger's (`GET /baas-api/dashboard`).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { ok } from '../../../plugins/app/envelope';
import { NO_QUERY } from '../../../../kernel/server/validation';

export interface OnChainDay {
  day: string;
  authors: number;
  artworks: number;
  authorsTotal: number;
  artworksTotal: number;
}

/** Per-day on-chain counts of authors and artworks merged by day, ascending, with running totals. */
export function onChainProgress(
  authors: { day: string; count: number }[],
  artworks: { day: string; count: number }[],
): OnChainDay[] {
  const days = new Map<string, { authors: number; artworks: number }>();
  for (const a of authors) days.set(a.day, { authors: a.count, artworks: 0 });
  for (const a of artworks) days.set(a.day, { authors: days.get(a.day)?.authors ?? 0, artworks: a.count });
  let authorsTotal = 0;
  let artworksTotal = 0;
  return [...days.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([day, c]) => ({
      day,
      ...c,
      authorsTotal: (authorsTotal += c.authors),
      artworksTotal: (artworksTotal += c.artworks),
    }));
}

export default async function dashboardRoutes(app: FastifyInstance) {
  const options = { onRequest: app.requireRoles(['admin']), schema: { querystring: NO_QUERY } };
  app.get('/stats', options, async () => {
    const db = app.db;
    const pg = app.dialect === 'postgres';
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
    const year = pg
      ? sql`((("dealInfo")::jsonb ->> 'acquisitionYear')::integer)`
      : sql`json_extract("dealInfo", '$.acquisitionYear')`;
    const years = await sql<{ year: number | null; count: number | string }>`
      SELECT ${year} AS year, count(*) AS count FROM artworks GROUP BY ${year} ORDER BY ${year}`.execute(db);
    const day = sql<string>`substr(${sql.ref('blockTime')}, 1, 10)`;
    const perDay = (table: 'authors' | 'artworks') =>
      db
        .selectFrom(table)
        .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('count')])
        .where('blockTime', 'is not', null)
        .groupBy(day)
        .execute()
        .then((rows) => rows.map((r) => ({ day: r.day, count: Number(r.count) })));
    const [authorsPerDay, artworksPerDay] = [await perDay('authors'), await perDay('artworks')];
    const roleRows = await db.selectFrom('accounts').select('roles').execute();
    const perRole = new Map<string, number>();
    for (const r of roleRows) {
      let roles: unknown;
      try {
        roles = JSON.parse(r.roles);
      } catch {
        roles = [];
      }
      for (const role of Array.isArray(roles) ? roles : [])
        if (typeof role === 'string') perRole.set(role, (perRole.get(role) ?? 0) + 1);
    }
    const recent = await app.resources.artworks.list(db, { page: 1, pageSize: 5, sort: 'id', order: 'DESC' });
    const yearRows = years.rows.map((r) => ({
      year: r.year === null ? null : Number(r.year),
      count: Number(r.count),
    }));
    return ok({
      authors: await count('authors', false),
      artworks: await count('artworks', false),
      authorsOnChain: await count('authors', true),
      artworksOnChain: await count('artworks', true),
      categories: categories.map((c) => ({ name: c.name, count: Number(c.count) })),
      acquisitionsPerYear: yearRows.filter((r) => r.year !== null) as { year: number; count: number }[],
      acquisitionYearUnknown: yearRows.find((r) => r.year === null)?.count ?? 0,
      onChainPerDay: onChainProgress(authorsPerDay, artworksPerDay),
      accountsPerRole: [...perRole.entries()]
        .map(([role, n]) => ({ role, count: n }))
        .sort((a, b) => b.count - a.count || a.role.localeCompare(b.role)),
      recent: recent.list,
    });
  });
}

/**
 * `GET /medicine-api/company/tracking?id=&page=&pageSize=` (admin): Medicine > Tracking, the history of a
 * company's records from the audit trail (server/db/audit.ts, table `audit_log`): every write of the
 * company itself, of its notifications, and of its administrators' console accounts (who, when, which
 * call, which record, digests before and after), newest first → `{list, total}` (entries as
 * `GET /dev-api/audit/list` answers them). 404 for an unknown company; 400 naming a bad parameter.
 * Entries of records deleted since (a deleted draft notification) are found by the company's record ids
 * still stored; a deleted company has no tracking page (404), its entries stay in Audit > System.
 */
import { MAX_PAGE } from '../../../../kernel/dialect/schemaRegistry';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { schemaLabel } from '../../../../common/messages/index';
import { AUDIT_TABLE } from '../../../db/audit';
import { paging } from '../../../../kernel/server/listQuery';
import { ok } from '../../../plugins/app/envelope';
import { notFound } from '../../../errors';
import { ADMIN_SLOTS } from '../../../../kernel/hooks/companies';

const query = {
  type: 'object',
  properties: {
    id: { type: 'integer', minimum: 1, maximum: 2147483647 },
    // The kernel's paging bounds (PAGING), without its defaults: this call has its own.
    page: { type: 'integer', minimum: 1, maximum: MAX_PAGE },
    pageSize: { type: 'integer', minimum: 1, maximum: 100 },
  },
  required: ['id'],
  additionalProperties: false,
};

export default async function companyTrackingRoutes(app: FastifyInstance) {
  app.get(
    '/tracking',
    {
      onRequest: app.requireRoles(['admin']),
      schema: { querystring: query, summary: 'Tracking: the history of a company and its records' },
    },
    async (request) => {
      const q = request.query as { id: number; page?: number; pageSize?: number };
      const company = (await app.db
        .selectFrom('companies')
        .selectAll()
        .where('id', '=', q.id)
        .executeTakeFirst()) as Record<string, unknown> | undefined;
      if (!company) throw notFound(schemaLabel('company'), q.id);
      const usernames = ADMIN_SLOTS.map((s) => String(company[`${s}Account`]).toLowerCase());
      const accountIds = (
        await app.db
          .selectFrom('accounts')
          .select('id')
          .where(sql`lower(username)`, 'in', usernames)
          .execute()
      ).map((a) => String(a.id));
      const notificationIds = (
        await app.db.selectFrom('notifications').select('id').where('companyId', '=', q.id).execute()
      ).map((n) => String(n.id));
      const where = app.db
        .selectFrom(AUDIT_TABLE)
        .where((eb) =>
          eb.or([
            eb.and([eb('resource', '=', 'companies'), eb('recordId', '=', String(q.id))]),
            ...(accountIds.length
              ? [eb.and([eb('resource', '=', 'accounts'), eb('recordId', 'in', accountIds)])]
              : []),
            ...(notificationIds.length
              ? [eb.and([eb('resource', '=', 'notifications'), eb('recordId', 'in', notificationIds)])]
              : []),
          ]),
        );
      const { total } = await where
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow();
      const { limit, offset } = paging(q);
      const rows = await where.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute();
      const list = rows.map((r) => ({ ...r, changed: JSON.parse(String(r.changed ?? '[]')) as string[] }));
      return ok({ list, total: Number(total) });
    },
  );
}

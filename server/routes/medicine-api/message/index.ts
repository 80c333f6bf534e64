/**
 * `/medicine-api/message/*`: Medicine > Messages, the signed-in account's inbox: the notifications
 * (schemas/notification.schema.json) sent to it, i.e. whose `recipients` hold its username. Role `company`
 * (and admin, which holds every role; an operator's inbox is usually empty).
 * - GET getList `?page&pageSize&status` (status `sent` = unread, `read`) → `{list, total}`: the caller's
 *   notifications as the notifications calls answer them, newest sent first (page of at most 100);
 * - GET unreadCount → `{count}`: the caller's notifications still `sent` (the navbar's badge);
 * - POST read `{id}` → the notification, now `read` with `readBy` (the caller) and `readTime` (audited, in the
 *   same transaction); reading one already read answers it unchanged. 404 for an id that is not in the
 *   caller's inbox (another account's notification, a draft, or none).
 * - GET company → `{list}`: the companies whose administrator or backup administrator the caller is
 *   (server/routes/medicine-api/company/hooks.ts `companiesOf`), as the companies calls answer them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { schemaLabel } from '../../../../common/messages/index';
import { nowText } from '../../../db/database';
import { actorOf, recordAudit, storedRow } from '../../../kernel/audit';
import { likePattern, paging } from '../../../kernel/listQuery';
import { ok } from '../../../plugins/app/envelope';
import { notFound } from '../../../plugins/app/errors';
import { COMPANY_ROLE, companiesOf } from '../company/hooks';

/** The caller's inbox: sent notifications whose recipients name `username` (JSON text holds `"username"`). */
function inbox(db: Kysely<any>, username: string, dialect: 'sqlite' | 'postgres') {
  // LIKE with the username quoted as JSON text: `_` and `%` in it are escaped (likePattern). A username is
  // matched as stored (recipients hold the accounts' own spelling), on both dialects.
  void dialect;
  return db
    .selectFrom('notifications')
    .where('sent', '=', 1)
    .where(sql<boolean>`"recipients" LIKE ${likePattern(JSON.stringify(username))} ESCAPE '\\'`);
}

const listQuery = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 100000 },
    pageSize: { type: 'integer', minimum: 1, maximum: 100 },
    status: { type: 'string', enum: ['sent', 'read'] },
  },
  additionalProperties: false,
};

const idBody = {
  type: 'object',
  properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } },
  required: ['id'],
  additionalProperties: false,
};

export default async function messageRoutes(app: FastifyInstance) {
  const guard = app.requireRoles([COMPANY_ROLE]);
  const repo = app.resources.notifications;
  const me = (request: FastifyRequest) => request.account!.account;

  app.get(
    '/getList',
    { onRequest: guard, schema: { querystring: listQuery, summary: 'Messages: the caller’s inbox' } },
    async (request) => {
      const q = request.query as { page?: number; pageSize?: number; status?: 'sent' | 'read' };
      let where = inbox(app.db, me(request), app.dialect);
      if (q.status) where = where.where('status', '=', q.status);
      const { total } = await where
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow();
      const { limit, offset } = paging(q);
      const ids = (
        await where
          .select('id')
          .orderBy('sendTime', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .offset(offset)
          .execute()
      ).map((r) => Number(r.id));
      const page = ids.length
        ? (await repo.list(app.db, { ids, pageSize: 100, sort: 'sendTime', order: 'DESC' })).list
        : [];
      return ok({ list: page, total: Number(total) });
    },
  );

  app.get(
    '/unreadCount',
    { onRequest: guard, schema: { summary: 'Messages: the caller’s unread count' } },
    async (request) => {
      const { count } = await inbox(app.db, me(request), app.dialect)
        .where('status', '=', 'sent')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      return ok({ count: Number(count) });
    },
  );

  app.post(
    '/read',
    {
      onRequest: guard,
      schema: { body: idBody, summary: 'Messages: mark one of the caller’s messages read' },
    },
    async (request) => {
      const { id } = request.body as { id: number };
      await app.db.transaction().execute(async (trx) => {
        const mine = await inbox(trx, me(request), app.dialect)
          .where('id', '=', id)
          .select(['id', 'status'])
          .executeTakeFirst();
        if (!mine) throw notFound(schemaLabel('notification'), id);
        if (mine.status === 'read') return;
        const before = await storedRow(trx, 'notifications', id);
        await trx
          .updateTable('notifications')
          .set({ status: 'read', readBy: me(request), readTime: nowText(), updateTime: nowText() })
          .where('id', '=', id)
          .execute();
        await recordAudit(trx, actorOf(request), {
          resource: 'notifications',
          recordId: id,
          before,
          after: await storedRow(trx, 'notifications', id),
        });
      });
      repo.totals.clear();
      return ok(await repo.getOne(app.db, id));
    },
  );

  app.get(
    '/company',
    { onRequest: guard, schema: { summary: 'Messages: the caller’s companies' } },
    async (request) => {
      const ids = (await companiesOf(app.db, me(request))).map((c) => c.id);
      const list = ids.length
        ? (await app.resources.companies.list(app.db, { ids, pageSize: 100, sort: 'id', order: 'ASC' })).list
        : [];
      return ok({ list });
    },
  );
}

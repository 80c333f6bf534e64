/**
 * `/medicine-api/message/*`: Medicine > Messages, the signed-in account's inbox: the notifications
 * (schemas/notification.schema.json) sent to it, i.e. whose `recipients` hold its username. Role `company`
 * (and admin, which holds every role; an operator's inbox is usually empty). Each recipient has its own read
 * state (table `notification_reads`, migration 20261123T0540): the administrator reading a message leaves it
 * unread for the backup administrator.
 * - GET getList `?page&pageSize&status` (status `sent` = unread by the caller, `read` = read by the caller)
 *   → `{list, total}`: the caller's notifications as the notifications calls answer them, except that
 *   `status`, `readBy` and `readTime` are the caller's own (`sent`/null/null until the caller reads it),
 *   newest sent first (page of at most 100);
 * - GET unreadCount → `{count}`: the caller's notifications the caller has not read (the navbar's badge);
 * - POST read `{id}` → the notification as the caller now sees it (`read`, `readBy` the caller, `readTime`).
 *   The notification itself gains the caller in `readers` (and `readBy`/`readTime` if it is the first
 *   reader) and turns `read` once every recipient has read it; audited in the same transaction. Reading one
 *   the caller already read answers it unchanged. 404 for an id that is not in the caller's inbox (another
 *   account's notification, a draft, or none).
 * - GET company → `{list}`: the companies whose administrator or backup administrator the caller is
 *   (kernel/hooks/companies.ts `companiesOf`), as the companies calls answer them.
 */
import { MAX_PAGE } from '../../../../kernel/dialect/schemaRegistry';
import { idBody } from '../../../ledger/routeHelpers';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { schemaLabel } from '../../../../common/messages/index';
import { nowText } from '../../../db/database';
import { actorOf, auditedUpdate } from '../../../db/audit';
import { likePattern, paging } from '../../../../kernel/server/listQuery';
import { ok } from '../../../plugins/app/envelope';
import { notFound } from '../../../errors';
import { COMPANY_ROLE, companiesOf } from '../../../../kernel/hooks/companies';
import { NO_QUERY } from '../../../../kernel/server/validation';

/**
 * The caller's inbox: sent notifications whose recipients name `username` (JSON text holds `"username"`),
 * each with the caller's own read row (`readTime` null while unread). Selects nothing: callers add columns.
 */
function inbox(db: Kysely<any>, username: string) {
  // LIKE with the username quoted as JSON text: `_` and `%` in it are escaped (likePattern). A username is
  // matched as stored (recipients hold the accounts' own spelling), on both dialects.
  return db
    .selectFrom('notifications as n')
    .leftJoin('notification_reads as r', (join) =>
      join.onRef('r.notificationId', '=', 'n.id').on('r.account', '=', username),
    )
    .where('n.sent', '=', 1)
    .where(sql<boolean>`n."recipients" LIKE ${likePattern(JSON.stringify(username))} ESCAPE '\\'`);
}

/** A notification record as `username` sees it in its inbox: its own status, reader and read time. */
function asSeenBy<T extends object>(record: T, username: string, readTime: string | null) {
  return readTime
    ? { ...record, status: 'read', readBy: username, readTime }
    : { ...record, status: 'sent', readBy: null, readTime: null };
}

const listQuery = {
  type: 'object',
  properties: {
    // The kernel's paging bounds (PAGING), without its defaults: this call has its own.
    page: { type: 'integer', minimum: 1, maximum: MAX_PAGE },
    pageSize: { type: 'integer', minimum: 1, maximum: 100 },
    status: { type: 'string', enum: ['sent', 'read'] },
  },
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
      const username = me(request);
      let where = inbox(app.db, username);
      if (q.status === 'sent') where = where.where('r.account', 'is', null);
      if (q.status === 'read') where = where.where('r.account', 'is not', null);
      const { total } = await where
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow();
      const { limit, offset } = paging(q);
      const rows = await where
        .select(['n.id as id', 'r.readTime as readTime'])
        .orderBy('n.sendTime', 'desc')
        .orderBy('n.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      const ids = rows.map((r) => Number(r.id));
      const readTimes = new Map(rows.map((r) => [Number(r.id), (r.readTime as string | null) ?? null]));
      const page = ids.length
        ? (await repo.list(app.db, { ids, pageSize: 100, sort: 'sendTime', order: 'DESC' })).list
        : [];
      const list = page.map((n) => asSeenBy(n, username, readTimes.get(Number(n.id)) ?? null));
      return ok({ list, total: Number(total) });
    },
  );

  app.get(
    '/unreadCount',
    { onRequest: guard, schema: { summary: 'Messages: the caller’s unread count', querystring: NO_QUERY } },
    async (request) => {
      const { count } = await inbox(app.db, me(request))
        .where('r.account', 'is', null)
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
      const username = me(request);
      const readTime = await app.db.transaction().execute(async (trx) => {
        // Two recipients reading at once: the row lock orders their updates of `readers` (PostgreSQL;
        // SQLite runs one write transaction at a time).
        let lock = trx.selectFrom('notifications').select('id').where('id', '=', id);
        if (app.dialect === 'postgres') lock = lock.forUpdate();
        await lock.execute();
        const mine = await inbox(trx, username)
          .where('n.id', '=', id)
          .select(['n.id as id', 'r.readTime as readTime'])
          .executeTakeFirst();
        if (!mine) throw notFound(schemaLabel('notification'), id);
        if (mine.readTime) return mine.readTime as string;
        const now = nowText();
        return auditedUpdate(trx, actorOf(request), 'notifications', id, async (before) => {
          await trx
            .insertInto('notification_reads')
            .values({ notificationId: id, account: username, readTime: now })
            .execute();
          const recipients = JSON.parse(String(before!.recipients)) as string[];
          const readers = [...(JSON.parse(String(before!.readers)) as string[]), username];
          await trx
            .updateTable('notifications')
            .set({
              readers: JSON.stringify(readers),
              status: recipients.every((r) => readers.includes(r)) ? 'read' : 'sent',
              readBy: (before!.readBy as string | null) ?? username,
              readTime: (before!.readTime as string | null) ?? now,
              updateTime: now,
            })
            .where('id', '=', id)
            .execute();
          return now;
        });
      });
      repo.totals.clear();
      const record = await repo.getOne(app.db, id);
      return ok(asSeenBy(record, username, readTime));
    },
  );

  app.get(
    '/company',
    { onRequest: guard, schema: { summary: 'Messages: the caller’s companies', querystring: NO_QUERY } },
    async (request) => {
      const ids = (await companiesOf(app.db, me(request))).map((c) => c.id);
      const list = ids.length
        ? (await app.resources.companies.list(app.db, { ids, pageSize: 100, sort: 'id', order: 'ASC' })).list
        : [];
      return ok({ list });
    },
  );
}

/** `/artmanager/bidUser/*`: list and detail of the bid_users table (roles from schemas/bidUser.schema.json). */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../../plugins/app/envelope';
import { getAppUser, listAppUsers } from '../../../repositories/appUsers.repository';
import type { ListQuery } from '../../../repositories/listQuery';
import { guardFor } from '../common';

export default async function routes(app: FastifyInstance) {
  const onRequest = guardFor(app, 'bidUser');
  app.get('/getList', { onRequest, schema: { querystring: { $ref: 'bidUser.listQuery' } } }, async (req) =>
    ok(await listAppUsers(app.db, app.dialect, 'bid_users', req.query as ListQuery)),
  );
  app.get(
    '/getInfo',
    {
      onRequest,
      schema: {
        querystring: {
          type: 'object',
          properties: { uid: { type: 'string', minLength: 1, maxLength: 64 } },
          required: ['uid'],
          additionalProperties: false,
        },
      },
    },
    async (req) => ok(await getAppUser(app.db, 'bid_users', (req.query as { uid: string }).uid)),
  );
}

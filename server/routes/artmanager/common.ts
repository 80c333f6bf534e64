/**
 * Pieces shared by the `/artmanager` route folders: the role guard taken from a schema's `x-roles`
 * (the server enforces it; the console only mirrors it), and the `{id}` / `{ids}` body of delete calls.
 */
import type { FastifyInstance } from 'fastify';
import { MAX_ID, schemas } from '../../../common/schemaRegistry';
import { ok } from '../../plugins/app/envelope';
import { getAppUser, listAppUsers } from '../../repositories/appUsers.repository';
import type { ListQuery } from '../../repositories/listQuery';

/** onRequest hook that admits the roles a schema's `x-roles` names (admin always). */
export function guardFor(app: FastifyInstance, schemaId: string) {
  return app.requireRoles(schemas[schemaId]['x-roles'] ?? ['admin']);
}

/** Body of a delete call: `{id}` or `{ids: [...]}` (1..100 ids). */
export const deleteBody = {
  type: 'object',
  properties: {
    id: { type: 'integer', minimum: 1, maximum: MAX_ID },
    ids: {
      type: 'array',
      items: { type: 'integer', minimum: 1, maximum: MAX_ID },
      minItems: 1,
      maxItems: 100,
    },
  },
  minProperties: 1,
  maxProperties: 1,
  additionalProperties: false,
};

/** The ids a delete body names. */
export const idsOf = (body: { id?: number; ids?: number[] }): number[] => body.ids ?? [body.id!];

/** Query `{<name>: integer}` required, for getOne-style calls. */
export const idQuery = (name: string) => ({
  type: 'object',
  properties: { [name]: { type: 'integer', minimum: 1, maximum: MAX_ID } },
  required: [name],
  additionalProperties: false,
});

/**
 * Routes of a mini-program user table (`bid_users` or `platform_users`): `GET /getList` (the schema's
 * listQuery) and `GET /getInfo?id=`, guarded by the schema's x-roles.
 */
export function appUserRoutes(table: 'bid_users' | 'platform_users', schemaId: string) {
  return async function routes(app: FastifyInstance) {
    const onRequest = guardFor(app, schemaId);
    app.get(
      '/getList',
      { onRequest, schema: { querystring: { $ref: `${schemaId}.listQuery` } } },
      async (req) => ok(await listAppUsers(app.db, app.dialect, table, req.query as ListQuery)),
    );
    app.get('/getInfo', { onRequest, schema: { querystring: idQuery('id') } }, async (req) =>
      ok(await getAppUser(app.db, table, (req.query as { id: number }).id)),
    );
  };
}

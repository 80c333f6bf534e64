/**
 * `/artmanager/authors/*` (admin only, from schemas/author.schema.json `x-roles`); see docs/api.md.
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../../plugins/app/envelope';
import {
  createAuthor,
  deleteAuthors,
  getAuthor,
  listAuthors,
  updateAuthor,
} from '../../../repositories/authors.repository';
import { listArtworks } from '../../../repositories/artworks.repository';
import type { ListQuery } from '../../../repositories/listQuery';
import { buildVariant, schemas } from '../../../../common/schemaRegistry';
import { deleteBody, guardFor, idQuery, idsOf } from '../common';

/** `artwork.listQuery` plus the required author `id` (getManyReference of artworks by author). */
function artworksOfAuthorQuery() {
  const { $id: _id, ...query } = buildVariant(schemas.artwork, 'listQuery');
  return {
    ...query,
    properties: { ...query.properties, id: { type: 'integer', minimum: 1 } },
    required: ['id'],
  };
}

export default async function authorRoutes(app: FastifyInstance) {
  const onRequest = guardFor(app, 'author');

  app.get('/getList', { onRequest, schema: { querystring: { $ref: 'author.listQuery' } } }, async (req) =>
    ok(await listAuthors(app.db, app.dialect, req.query as ListQuery)),
  );

  app.post('/authorSearch', { onRequest, schema: { body: { $ref: 'author.listBody' } } }, async (req) =>
    ok(await listAuthors(app.db, app.dialect, req.body as ListQuery)),
  );

  app.get('/getInfo', { onRequest, schema: { querystring: idQuery('id') } }, async (req) =>
    ok(await getAuthor(app.db, (req.query as { id: number }).id)),
  );

  app.get(
    '/getArtworkList',
    {
      onRequest,
      schema: {
        querystring: artworksOfAuthorQuery(),
      },
    },
    async (req) => {
      const { id, ...query } = req.query as ListQuery & { id: number };
      await getAuthor(app.db, id); // 404 for an unknown author
      return ok(await listArtworks(app.db, app.dialect, { ...query, author: id }));
    },
  );

  app.post('/addAuthors', { onRequest, schema: { body: { $ref: 'author.create' } } }, async (req) =>
    ok(await createAuthor(app.db, req.body as any)),
  );

  app.post('/updateInfo', { onRequest, schema: { body: { $ref: 'author.update' } } }, async (req) =>
    ok(await updateAuthor(app.db, req.body as any)),
  );

  app.post('/deleteAuthors', { onRequest, schema: { body: deleteBody } }, async (req) =>
    ok(await deleteAuthors(app.db, idsOf(req.body as any))),
  );
}

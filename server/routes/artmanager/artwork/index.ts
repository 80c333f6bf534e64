/**
 * `/artmanager/artwork/*` (admin only, from schemas/artwork.schema.json `x-roles`); see docs/api.md.
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../../plugins/app/envelope';
import {
  createArtwork,
  deleteArtworks,
  getArtwork,
  listArtworks,
  updateArtwork,
} from '../../../repositories/artworks.repository';
import { searchAuthorNames } from '../../../repositories/authors.repository';
import type { ListQuery } from '../../../repositories/listQuery';
import { deleteBody, guardFor, idQuery, idsOf } from '../common';

export default async function artworkRoutes(app: FastifyInstance) {
  const onRequest = guardFor(app, 'artwork');

  app.post('/searchArtworkList', { onRequest, schema: { body: { $ref: 'artwork.listBody' } } }, async (req) =>
    ok(await listArtworks(app.db, app.dialect, req.body as ListQuery)),
  );

  app.get('/ArtInfoByArtId', { onRequest, schema: { querystring: idQuery('artId') } }, async (req) =>
    ok(await getArtwork(app.db, (req.query as { artId: number }).artId)),
  );

  app.post('/addArtwork', { onRequest, schema: { body: { $ref: 'artwork.create' } } }, async (req) =>
    ok(await createArtwork(app.db, req.body as any)),
  );

  app.post('/baseInfo', { onRequest, schema: { body: { $ref: 'artwork.update' } } }, async (req) =>
    ok(await updateArtwork(app.db, req.body as any)),
  );

  app.post('/deleteArt', { onRequest, schema: { body: deleteBody } }, async (req) =>
    ok(await deleteArtworks(app.db, idsOf(req.body as any))),
  );

  app.get(
    '/searchAuthor',
    {
      onRequest,
      schema: {
        querystring: {
          type: 'object',
          properties: { keyword: { type: 'string', maxLength: 100 } },
          additionalProperties: false,
        },
      },
    },
    async (req) =>
      ok(await searchAuthorNames(app.db, app.dialect, (req.query as { keyword?: string }).keyword ?? '')),
  );
}

/** `/artmanager/artSort/*`: artwork categories with their artwork counts (admin only). */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../../plugins/app/envelope';
import { listCategories } from '../../../repositories/artworks.repository';
import { guardFor } from '../common';

export default async function artSortRoutes(app: FastifyInstance) {
  app.get('/artcateList', { onRequest: guardFor(app, 'artCategory') }, async () =>
    ok(await listCategories(app.db)),
  );
}

/**
 * `GET /artmanager/artwork/searchAuthor?keyword=` (admin, from schemas/artwork.schema.json `x-roles`): the
 * author autocomplete of the artwork form — at most 20 `{id, authorName, isBlock}` whose name contains
 * `keyword`, shortest names first. Not a react-admin verb; the artworks' CRUD calls come from the schema
 * (kernel/server/resources.ts).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { schemas } from '../../../../kernel/dialect/schemaRegistry';
import { ok } from '../../../plugins/app/envelope';
import { textMatch } from '../../../../kernel/server/listQuery';

export default async function artworkRoutes(app: FastifyInstance) {
  app.get<{ Querystring: { keyword?: string } }>(
    '/searchAuthor',
    {
      onRequest: app.requireRoles(schemas.artwork['x-roles'] ?? ['admin']),
      schema: {
        querystring: {
          type: 'object',
          properties: { keyword: { type: 'string', maxLength: 100 } },
          additionalProperties: false,
        },
      },
    },
    async (req) => {
      const keyword = req.query.keyword ?? '';
      let qb = app.db.selectFrom('authors').select(['id', 'authorName', 'isBlock']);
      if (keyword.trim()) qb = qb.where(textMatch(['authorName'], keyword, app.dialect));
      const rows = await qb
        .orderBy(sql`length(${sql.ref('authorName')})`)
        .orderBy('id')
        .limit(20)
        .execute();
      return ok(rows);
    },
  );
}

/**
 * The product's artwork picture calls (admin, from schemas/artwork.schema.json `x-roles`); limits from the
 * schema: `images.maxItems` (9) pictures, each within `images.x-upload` (an image, at most 2 MB, checked by
 * content). The first picture is the main one.
 * - `POST /artmanager/artwork/addPicture`: multipart, text field `artId` then the image `file` → the
 *   artwork with the picture appended. 400 naming `images` (keyword `maxItems`, params `{limit}`) when the
 *   artwork already has the limit, naming `file` past the size or type, `artId` when missing; 404 for an
 *   unknown artwork. Nothing is stored when refused.
 * - `POST /artmanager/artwork/deletePicture` `{artId, url}` → the artwork without that picture; 400 naming
 *   `url` when the artwork has no such picture, 404 for an unknown artwork.
 * Writes go through the artworks' repository (the same checks and hooks as `baseInfo`).
 */
import type { FastifyInstance } from 'fastify';
import { uploadSpecAt } from '../../../../common/fileTypes';
import { MAX_ID, schemas } from '../../../../kernel/dialect/schemaRegistry';
import { ok } from '../../../plugins/app/envelope';
import { invalidField } from '../../../plugins/app/errors';
import { receiveUpload } from '../../../storage/uploads';
import { idField } from '../authors/registry';
import { actorOf } from '../../../../kernel/server/audit';
import multipart from '../../../plugins/external/multipart';

export default async function pictureRoutes(app: FastifyInstance) {
  // multipart/form-data parsing (and @fastify/multipart's per-request hooks) only in this context (issue 10).
  await app.register(multipart);
  const schema = schemas.artwork;
  const onRequest = app.requireRoles(schema['x-roles'] ?? ['admin']);
  const spec = uploadSpecAt(schema, 'images')!;
  const max = schema.properties.images.maxItems as number;
  const artworks = () => app.resources.artworks;

  app.post('/addPicture', { onRequest }, async (req) => {
    let id = 0;
    let images: string[] = [];
    const got = await receiveUpload(app, req, spec, 'artworks/images', {
      allowPolicy: false,
      check: async (fields) => {
        id = idField(fields, 'artId');
        images = ((await artworks().getOne(app.db, id)) as { images?: string[] }).images ?? [];
        if (images.length >= max)
          throw invalidField('images', 'maxItems', `at most ${max} images; remove one first`, { limit: max });
      },
    });
    return ok(await artworks().update(app.db, { id, images: [...images, got.url] }, actorOf(req)));
  });

  app.post<{ Body: { artId: number; url: string } }>(
    '/deletePicture',
    {
      onRequest,
      schema: {
        body: {
          type: 'object',
          properties: {
            artId: { type: 'integer', minimum: 1, maximum: MAX_ID },
            url: { type: 'string', minLength: 1, maxLength: 1000 },
          },
          required: ['artId', 'url'],
          additionalProperties: false,
        },
      },
    },
    async (req) => {
      const { artId, url } = req.body;
      const images = ((await artworks().getOne(app.db, artId)) as { images?: string[] }).images ?? [];
      if (!images.includes(url)) throw invalidField('url', 'enum', `artwork ${artId} has no picture ${url}`);
      return ok(
        await artworks().update(app.db, { id: artId, images: images.filter((u) => u !== url) }, actorOf(req)),
      );
    },
  );
}

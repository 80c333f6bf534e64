/**
 * `GET /image-cache?url=<source>[&w=<px>]` (no login, as `/uploads/`): a catalogue picture served from the
 * console's origin through the remote image cache (server/imageCache/imageCache.ts): `url` is an absolute
 * http(s) URL of a host in `IMAGE_CACHE_HOSTS` or an uploaded picture (`/uploads/<name>`); `w` asks for a
 * square thumbnail at least that wide (lists). Answers the image (its type by content, cached by browsers
 * for a day), or, when the host is not allowed, unreachable, or the body is no image or too large, a
 * neutral SVG placeholder with status 200 and `X-Image-Cache: placeholder; reason=<reason>` (never cached),
 * so a page shows a clean placeholder with no failing request and no console error.
 */
import { join } from 'node:path';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance } from 'fastify';
import { ImageCache, PLACEHOLDER_SVG } from '../../imageCache/imageCache';

export default async function imageCacheRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<JsonSchemaToTsProvider>();
  const cache = new ImageCache({
    dir: join(app.config.dataDir, 'image-cache'),
    readUpload: async (key) => (await app.storage.get(key))?.bytes,
    hosts: app.config.imageCacheHosts,
    maxBytes: app.config.imageCacheMaxBytes,
  });
  app.get(
    '/',
    {
      schema: {
        summary: 'Catalogue picture (image cache)',
        querystring: {
          type: 'object',
          properties: {
            url: { type: 'string', minLength: 1, maxLength: 2048 },
            w: { type: 'integer', minimum: 16, maximum: 2048 },
          },
          required: ['url'],
          additionalProperties: false,
        },
      },
    },
    async (req, reply) => {
      const image = await cache.get(req.query.url, req.query.w);
      if (image.placeholder) {
        req.log.debug(
          { url: req.query.url, reason: image.placeholder, detail: image.detail },
          'image placeholder',
        );
        return reply
          .header('Cache-Control', 'no-store')
          .header('X-Image-Cache', `placeholder; reason=${image.placeholder}`)
          .type('image/svg+xml')
          .send(PLACEHOLDER_SVG);
      }
      return reply
        .header('Cache-Control', 'public, max-age=86400')
        .header('X-Image-Cache', 'hit')
        .type(image.contentType)
        .send(image.bytes);
    },
  );
}

/**
 * `GET /uploads/<key>` from a shared store (PostgreSQL or S3; server/storage/storeConfig.ts): any instance
 * answers any upload, whichever instance received it. The disk store is served by @fastify/static instead
 * (server/plugins/external/static.ts). Keys are content-addressed (`<sha256>.<ext>`), so the answer is
 * cacheable for a year; an invalid or unknown key answers the 404 envelope (the not-found handler).
 * The Content-Type is the one stored at upload (checked by content then), and `nosniff` stands (helmet).
 */
import type { FastifyInstance } from 'fastify';
import { isValidKey } from '../../storage/blobStore';

/** Registers the route on `app` (whose `app.storage` is not the disk store). */
export async function storedUploads(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { '*': string } }>('/uploads/*', { schema: { hide: true } }, async (req, reply) => {
    const key = req.params['*'];
    const blob = isValidKey(key) ? await app.storage.get(key) : undefined;
    if (!blob) return reply.callNotFound();
    return reply
      .type(blob.contentType)
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .header('Content-Length', blob.bytes.length)
      .send(blob.bytes);
  });
}

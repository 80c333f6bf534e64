/**
 * @fastify/multipart for uploads (image upload, chaincode source); per-route limits are set where used.
 * Registered by the upload calls' own route plugins (server/routes/artmanager/upload, artwork/pictures,
 * authors/registry, traceability, baas-api/chaincode), not on the whole app: the plugin adds an async
 * onRequest hook (a `close` listener per request) and an async onResponse hook, which every other call
 * paid for nothing (issue 10's detail profile). Elsewhere a multipart/form-data body is refused as an
 * unsupported Content-Type (415, the envelope plugin).
 *
 * Its parser's errors on a malformed body become 400s in server/storage/multipartError.ts.
 */
import fp from 'fastify-plugin';
import multipart from '@fastify/multipart';

export default fp(async (app) => {
  await app.register(multipart, { limits: { files: 1, fileSize: 10 * 1024 * 1024 } });
});

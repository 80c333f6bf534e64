/** @fastify/multipart for uploads (image upload, chaincode source); per-route limits are set where used. */
import fp from 'fastify-plugin';
import multipart from '@fastify/multipart';

export default fp(async (app) => {
  await app.register(multipart, { limits: { files: 1, fileSize: 10 * 1024 * 1024 } });
});

/** @fastify/rate-limit, off by default and switched on per route (`config.rateLimit`), e.g. login. */
import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';

export default fp(async (app) => {
  await app.register(rateLimit, { global: false });
});

/**
 * @fastify/static: uploads under `/uploads/` and, when built (`dist/`), the console at `/` with a
 * single-page-app fallback (any unknown GET outside the API answers index.html). API paths that match no
 * route answer the 404 envelope.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { languageOf, msg, renderMessage } from '../../../common/messages/index';
import { Codes } from '../../../common/envelope';
import { apiPrefixes } from '../../../common/schemaRegistry';

/** The API's path prefixes (common/schemaRegistry.ts `apiPrefixes`). */
const API_PREFIXES = apiPrefixes();

export default fp(async (app) => {
  const uploads = join(app.config.dataDir, 'uploads');
  mkdirSync(uploads, { recursive: true });
  await app.register(fastifyStatic, {
    root: uploads,
    prefix: '/uploads/',
    decorateReply: false,
    index: false,
  });
  const consoleBuilt = existsSync(join(app.config.consoleDir, 'index.html'));
  if (consoleBuilt)
    await app.register(fastifyStatic, {
      root: app.config.consoleDir,
      prefix: '/',
      wildcard: false,
      index: ['index.html'],
    });

  app.setNotFoundHandler((request, reply) => {
    const isApi = API_PREFIXES.some((p) => request.url.startsWith(p));
    if (request.method === 'GET' && consoleBuilt && !isApi)
      return reply.type('text/html').sendFile('index.html', app.config.consoleDir);
    const message = msg('request.noSuchCall', { method: request.method, path: request.url.split('?')[0] });
    return reply.status(404).send({
      code: Codes.NOT_FOUND,
      msg: renderMessage(languageOf(request.headers['accept-language']), message),
      data: null,
      ...message,
    });
  });
});

/**
 * @fastify/static: uploads under `/uploads/` (the disk store; a shared store is served by
 * server/plugins/app/storedUploads.ts) and, when built (`dist/`), the console at `/` with a
 * single-page-app fallback (any unknown GET outside the API answers index.html). API paths that match no
 * route answer the 404 envelope.
 *
 * The console is served compressed and cacheable: the build writes `.br` and `.gz` beside each asset
 * (vite.config.ts), sent by `preCompressed` as the request's Accept-Encoding allows (brotli first).
 * Hashed assets (`/assets/*`: Vite puts the content hash in their names) carry
 * `Cache-Control: public, max-age=31536000, immutable`; everything else (index.html, the SPA fallback,
 * unhashed files of `public/`) carries `no-cache`, so a new build is picked up at the next load.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { languageOf, msg, renderMessage } from '../../../common/messages/index';
import { Codes } from '../../../common/envelope';
import { apiPrefixes } from '../../../kernel/dialect/schemaRegistry';
import { storedUploads } from '../app/storedUploads';

/** Cache-Control of the console's content-hashed assets (one year, never revalidated). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Cache-Control of index.html and other unhashed console files: revalidate on every load. */
export const NO_CACHE = 'no-cache';

/** The API's path prefixes (kernel/dialect/schemaRegistry.ts `apiPrefixes`). */
const API_PREFIXES = apiPrefixes();

export default fp(async (app) => {
  if (app.storage.kind === 'disk') {
    const uploads = join(app.config.dataDir, 'uploads');
    mkdirSync(uploads, { recursive: true });
    await app.register(fastifyStatic, {
      root: uploads,
      prefix: '/uploads/',
      decorateReply: false,
      index: false,
    });
  } else await storedUploads(app);
  const consoleBuilt = existsSync(join(app.config.consoleDir, 'index.html'));
  if (consoleBuilt)
    await app.register(fastifyStatic, {
      root: app.config.consoleDir,
      prefix: '/',
      wildcard: false,
      index: ['index.html'],
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, path) => {
        const hashed = relative(app.config.consoleDir, path).split(sep)[0] === 'assets';
        reply.header('Cache-Control', hashed ? IMMUTABLE : NO_CACHE);
      },
    });

  app.setNotFoundHandler((request, reply) => {
    const isApi = API_PREFIXES.some((p) => request.url.startsWith(p));
    if (request.method === 'GET' && consoleBuilt && !isApi)
      return reply.type('text/html').sendFile('index.html', app.config.consoleDir, { cacheControl: false });
    const message = msg('request.noSuchCall', { method: request.method, path: request.url.split('?')[0] });
    return reply.status(404).send({
      code: Codes.NOT_FOUND,
      msg: renderMessage(languageOf(request.headers['accept-language']), message),
      data: null,
      ...message,
    });
  });
});

/**
 * The platform API as a Fastify plugin tree (`buildApp`), in the manner of fastify's demo application:
 * external plugins, then our app plugins (validation, envelope, db, auth), then the resources' CRUD routes
 * from the schemas (kernel/server/resources.ts, with the hooks of kernel/hooks/) and the hand-written routes mirroring the URL paths. Used by server.ts (the standalone server) and by tests through `app.inject`.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AppConfig } from './config';
import helmet from './plugins/external/helmet';
import rateLimit from './plugins/external/rateLimit';
import staticFiles from './plugins/external/static';
import swagger from './plugins/external/swagger';
import validation, { cachedSchemaController } from '../kernel/server/validation';
import envelope, { clientErrorHandler } from './plugins/app/envelope';
import db from './plugins/app/db';
import auth from './plugins/app/auth';
import { lazyChildLogger } from './plugins/app/requestLogger';
import ledger from './plugins/app/ledger';
import witnesses from './plugins/app/witnesses';
import storage from './plugins/app/storage';
import health from './plugins/app/health';
import metrics from './plugins/app/metrics';
import requestLog, { requestIdGenerator } from './plugins/app/requestLog';
import userRoutes, { accountRoutes } from './routes/dev-api/user/index';
import resourceRoutes from '../kernel/server/resources';
import { resourceHooks } from '../kernel/hooks/index';
import artworkRoutes from './routes/artmanager/artwork/index';
import uploadRoutes from './routes/artmanager/upload/index';
import dashboardRoutes from './routes/artmanager/dashboard/index';
import authorBlockChainRoute from './routes/artmanager/authors/blockChain';
import artworkBlockChainRoute from './routes/artmanager/artwork/blockChain';
import baasApiRoutes from './routes/baas-api/index';
import authorRegistryRoutes from './routes/artmanager/authors/registry';
import pictureRoutes from './routes/artmanager/artwork/pictures';
import traceabilityRoutes from './routes/artmanager/traceability/index';
import ossRoutes from './routes/artmanager/oss/index';
import imageCacheRoutes from './routes/image-cache/index';
import pigeonholeRoutes from './routes/data-api/pigeonhole';
import messageRoutes from './routes/medicine-api/message/index';
import companyTrackingRoutes from './routes/medicine-api/company/tracking';
import importRoutes from './routes/dev-api/import/index';
import platformUserRoutes from './routes/app-api/user/index';
import historyRoutes from './routes/dev-api/history/index';
import viewRoutes from './routes/dev-api/views/index';
import eventRoutes from './routes/dev-api/events/index';

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    /**
     * Every route registered (Fastify's onRoute hook): method, URL and the request schemas, in
     * registration order. Read by tests/api/fuzz-routes.test.ts, which fuzzes each one.
     */
    routeTable: RegisteredRoute[];
  }
}

/** One registered route: its method(s), full URL and request schemas (querystring, body, params). */
export interface RegisteredRoute {
  method: string | string[];
  url: string;
  schema?: { querystring?: unknown; body?: unknown; params?: unknown };
}

/**
 * Builds the app (not listening). Migrations run while it boots; `await app.ready()` before use.
 * @param config from `loadConfig()`; tests pass `sqliteFile: ':memory:'` or a temp DATA_DIR
 * @param opts Fastify options (logger etc.)
 */
export async function buildApp(config: AppConfig, opts: FastifyServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    bodyLimit: 2 * 1024 * 1024,
    // Errors of Node's HTTP parser (e.g. 431 for a URL or headers over 16 KiB) in the envelope.
    clientErrorHandler,
    // Behind a reverse proxy: X-Forwarded-Proto/-For are believed from it (request.protocol, request.ip).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    // request.log made on first use (plugins/app/requestLogger.ts).
    childLoggerFactory: lazyChildLogger,
    // X-Request-Id from a trusted proxy, else a new UUID (plugins/app/requestLog.ts).
    genReqId: requestIdGenerator(config),
    // Response serializers compiled once per process (kernel/server/validation.ts).
    schemaController: cachedSchemaController,
    ...opts,
  });
  app.decorate('config', config);
  const routeTable: RegisteredRoute[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (r) => {
    routeTable.push({ method: r.method, url: r.url, schema: r.schema as RegisteredRoute['schema'] });
  });

  await app.register(requestLog);
  await app.register(helmet);
  await app.register(validation);
  await app.register(envelope);
  await app.register(db);
  // After the database: on PostgreSQL the limiter counts there, shared by every instance.
  await app.register(rateLimit);
  await app.register(auth);
  await app.register(ledger);
  await app.register(witnesses);
  await app.register(storage);
  await app.register(staticFiles);
  await app.register(swagger);
  // Operations (issue 20): /healthz, /readyz, /metrics and the metrics' hooks.
  await app.register(health);
  await app.register(metrics);

  await app.register(userRoutes, { prefix: '/dev-api/user' });
  // Every resource's CRUD calls, from the schemas' x-endpoints; then the hand-written calls beside them.
  await app.register(resourceRoutes, { hooks: resourceHooks });
  await app.register(accountRoutes, { prefix: '/dev-api/user' });
  await app.register(artworkRoutes, { prefix: '/artmanager/artwork' });
  await app.register(uploadRoutes, { prefix: '/artmanager/upload' });
  await app.register(dashboardRoutes, { prefix: '/artmanager/dashboard' });
  await app.register(authorBlockChainRoute, { prefix: '/artmanager/authors' });
  await app.register(artworkBlockChainRoute, { prefix: '/artmanager/artwork' });
  await app.register(baasApiRoutes, { prefix: '/baas-api' });
  // The registry's product calls beyond CRUD (issue 8): portrait, mini-program code, pictures, traceability, oss.
  await app.register(authorRegistryRoutes, { prefix: '/artmanager/authors' });
  await app.register(pictureRoutes, { prefix: '/artmanager/artwork' });
  await app.register(traceabilityRoutes, { prefix: '/artmanager/traceability' });
  await app.register(ossRoutes, { prefix: '/artmanager/oss' });
  await app.register(pigeonholeRoutes, { prefix: '/data-api/pigeonhole' });
  await app.register(imageCacheRoutes, { prefix: '/image-cache' });
  await app.register(messageRoutes, { prefix: '/medicine-api/message' });
  await app.register(companyTrackingRoutes, { prefix: '/medicine-api/company' });
  // The platform users' (mini-program) sign-in and sessions: their login count and last login.
  await app.register(platformUserRoutes, { prefix: '/app-api/user' });
  // The console's import of CSV, XLSX and JSON files into any resource (kernel/server/importJobs.ts).
  await app.register(importRoutes, { prefix: '/dev-api/import' });
  // Record history and revert of every stored resource, from the audit trail (issue 21 item 3).
  await app.register(historyRoutes, { prefix: '/dev-api/history' });
  // Saved views of lists, per account, and each list's last view (issue 21 item 4).
  await app.register(viewRoutes, { prefix: '/dev-api/views' });
  // Live updates: the record events the caller may read, as server-sent events (issue 32).
  await app.register(eventRoutes, { prefix: '/dev-api' });
  return app;
}

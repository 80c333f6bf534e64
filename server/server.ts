/**
 * The standalone server: reads the configuration (config.ts), builds the app, runs the start-up steps
 * that write (startup.ts: creates the first accounts, printing generated passwords once, and loads the
 * Tate seed into an empty database), listens on PORT and
 * closes gracefully on SIGINT/SIGTERM. Before building the app it prepares the ledger's key directory
 * (server/ledger/keyDir.ts). A refused configuration (configError.ts `ConfigError`: a malformed variable,
 * a key dir inside DATA_DIR in production, a LEDGER_ORIGIN that differs from the log's) ends the start
 * with one line on stderr and exit status 1; any other failure keeps its stack trace.
 */
import { createServer } from 'node:http';
import { LogController, type FastifyInstance } from 'fastify';
import { loadConfig, type AppConfig } from './config';
import { buildApp } from './app';
import { exitOnConfigError } from './configError';
import { prepareKeyDir } from './ledger/keyDir';
import { runStartup } from './startup';

let config: AppConfig;
let app: FastifyInstance;
try {
  config = loadConfig();
  prepareKeyDir(config, (line) => console.warn(line));
  app = await buildApp(config, {
    logger: { level: config.logLevel },
    // Fastify's own two lines per request only at debug; plugins/app/requestLog.ts writes one at info.
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' }),
  });
  await app.ready();
} catch (err) {
  exitOnConfigError(err);
}

// The start-up steps that write (startup.ts): migrations pending, the first accounts, the seed.
try {
  await runStartup(app, config, (line) => console.log(`\n  ${line}\n`));
} catch (err) {
  await app.close();
  exitOnConfigError(err);
}

// The metrics on an address of their own, without a token (METRICS_PORT; plugins/app/metrics.ts).
if (config.metricsPort !== undefined) {
  const metricsServer = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    app.metrics.text().then(
      (text) => res.writeHead(200, { 'content-type': app.metrics.registry.contentType }).end(text),
      (err) => res.writeHead(500).end(String(err)),
    );
  });
  metricsServer.listen(config.metricsPort, config.metricsHost);
  process.once('exit', () => metricsServer.close());
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    app.log.info(`${signal}: closing`);
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });

await app.listen({ port: config.port, host: config.host });
console.log(
  `\n  ledger signing key ${app.checkpoints.key.name}: SHA-256 fingerprint ${app.checkpoints.key.fingerprint}\n  verifier key ${app.checkpoints.key.vkey}`,
);
console.log(
  `\n  baas-admin console: http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}/\n`,
);

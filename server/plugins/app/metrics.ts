/**
 * Prometheus metrics (issue 20) with prom-client, in a registry of the app's own (several apps may live
 * in one test process). Exposition: Prometheus' text format 0.0.4, at
 * - `GET /metrics` on the API's port, only with `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise;
 *   the route does not exist when METRICS_TOKEN is unset);
 * - and/or `GET /metrics` on a listener of its own, `METRICS_PORT` on `METRICS_HOST` (default
 *   127.0.0.1), without a token: keep that address private (server.ts starts it).
 *
 * Series (names `baas_*` besides prom-client's default process and Node.js metrics):
 * - `baas_http_request_duration_seconds{method,route,status_code}` (histogram): each request, by its
 *   route pattern (`(unmatched)` for 404s), from Fastify's `reply.elapsedTime`;
 * - `baas_db_query_duration_seconds{dialect}` (histogram): each database query (server/db/connect.ts
 *   `observeQueries`); `baas_db_pool_connections{state}` (PostgreSQL: total, idle, waiting clients and the pool's max);
 * - `baas_ledger_height` (blocks over every channel), `baas_ledger_transactions`,
 *   `baas_ledger_pending_transactions` (submitted, not yet in a block), `baas_ledger_orderer` (1 when
 *   this process cuts blocks), read from the ledger at each scrape;
 * - `baas_ledger_witness_lag{witness}`: how many entries a witness's latest cosigned checkpoint is behind
 *   the latest signed checkpoint (the largest over the channels), read from `ledger_witness_status` and
 *   `ledger_checkpoint` at each scrape (absent while no witness is configured);
 * - `baas_ledger_halted{channel}` (1 while a rollback or fork alarm halts it),
 *   `baas_ledger_witness_cosigned_size{witness,origin}` (the largest size a witness is known to have
 *   cosigned) and `baas_ledger_witness_reachable{witness}` (0 after a question or push it did not answer);
 * - `baas_import_progress_ratio{phase}` (bytes read / total) and `baas_import_rows{phase,outcome}`
 *   (read, imported, rejected, skipped) of the import running in this process (the first-start seed);
 * - `baas_login_failures_total{route,status_code}`: refused sign-ins (4xx of a `/login` call: bad
 *   credentials, disabled account, invalid body, rate limit).
 */
import { timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { Codes } from '../../../common/envelope';
import { languageOf, msg, renderMessage } from '../../../common/messages/index';
import { observeQueries, pgPool } from '../../db/connect';
import { isOrderer } from './health';
import type { ImportProgress } from '../../import/importer';

/** What the app's code reports to the metrics (`app.metrics`). */
export interface AppMetrics {
  registry: Registry;
  /** Entries a witness is behind, by witness name: for the ledger's witness code to set. */
  witnessLag: Gauge<'witness'>;
  /** Reports an import's progress (importer.ts `onProgress`). */
  importProgress(p: ImportProgress): void;
  /** The exposition text of every series (Prometheus text format 0.0.4). */
  text(): Promise<string>;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: AppMetrics;
  }
}

/** Buckets of the request and query histograms, seconds (1 ms to 10 s). */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/** Whether `given` equals `expected` (constant time in the length of `expected`). */
function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export default fp(
  async function metrics(app: FastifyInstance) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const requests = new Histogram({
      name: 'baas_http_request_duration_seconds',
      help: 'HTTP requests by route pattern, method and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: BUCKETS,
      registers: [registry],
    });
    const queries = new Histogram({
      name: 'baas_db_query_duration_seconds',
      help: 'Database queries',
      labelNames: ['dialect'],
      buckets: BUCKETS,
      registers: [registry],
    });
    observeQueries(app.db, (s) => queries.observe({ dialect: app.dialect }, s));
    const pool = pgPool(app.db);
    if (pool)
      new Gauge({
        name: 'baas_db_pool_connections',
        help: 'PostgreSQL pool clients by state (total, idle, waiting; max: the pool size, DATABASE_POOL_MAX)',
        labelNames: ['state'],
        registers: [registry],
        collect() {
          this.set({ state: 'total' }, pool.totalCount);
          this.set({ state: 'idle' }, pool.idleCount);
          this.set({ state: 'waiting' }, pool.waitingCount);
          this.set({ state: 'max' }, pool.options.max);
        },
      });
    // The ledger's figures, read once per scrape (text() forgets them) for the three gauges.
    let totals: Promise<{ blocks: number; transactions: number; pending: number }> | undefined;
    const ledgerTotals = () => (totals ??= app.ledger.totals());
    const ledgerGauge = (
      name: string,
      help: string,
      pick: (t: Awaited<ReturnType<typeof ledgerTotals>>) => number,
    ) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          this.set(pick(await ledgerTotals()));
        },
      });
    ledgerGauge('baas_ledger_height', 'Blocks over every ledger channel', (t) => t.blocks);
    ledgerGauge('baas_ledger_transactions', 'Transactions in blocks', (t) => t.transactions);
    ledgerGauge(
      'baas_ledger_pending_transactions',
      'Transactions submitted, not yet in a block',
      (t) => t.pending,
    );
    new Gauge({
      name: 'baas_ledger_orderer',
      help: '1 when this process cuts the blocks (the orderer), else 0',
      registers: [registry],
      collect() {
        this.set(isOrderer(app) ? 1 : 0);
      },
    });
    const witnessLag = new Gauge({
      name: 'baas_ledger_witness_lag',
      help: "Entries between the tree size and a witness's latest cosigned checkpoint",
      labelNames: ['witness'],
      registers: [registry],
      // At each scrape, from the shared tables (any instance answers alike): per witness, the largest
      // gap over the channels between the latest signed checkpoint's size and the size it cosigned.
      async collect() {
        const { rows } = await sql<{ witness: string; lag: number | string }>`
          SELECT s.witness, MAX(c.size - s."cosignedSize") AS lag
          FROM ledger_witness_status s
          JOIN (SELECT "channelId", MAX(size) AS size FROM ledger_checkpoint GROUP BY "channelId") c
            ON c."channelId" = s."channelId"
          GROUP BY s.witness`.execute(app.db);
        for (const r of rows) this.set({ witness: r.witness }, Math.max(0, Number(r.lag)));
      },
    });
    new Gauge({
      name: 'baas_ledger_halted',
      help: '1 while a ledger alarm (rollback or fork) halts the channel: nothing is signed, puts answer 503',
      labelNames: ['channel'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const ch of await app.ledger.channels()) this.set({ channel: ch.name }, 0);
        for (const a of app.checkpoints.alarms.values()) this.set({ channel: a.channel }, 1);
      },
    });
    new Gauge({
      name: 'baas_ledger_witness_cosigned_size',
      help: 'The largest tree size a witness is known to have cosigned (its answers and the monitoring call)',
      labelNames: ['witness', 'origin'],
      registers: [registry],
      collect() {
        this.reset();
        // The memory keeps one checkpoint per witness and origin, the largest (witnessMemory.ts `remember`).
        for (const w of app.witnessMemory.witnesses)
          for (const c of app.witnessMemory.checkpointsOf(w.vkey.name))
            this.set({ witness: c.witness, origin: c.origin }, c.size);
      },
    });
    new Gauge({
      name: 'baas_ledger_witness_reachable',
      help: '1 when a witness answered the last time the log asked or pushed, else 0 (readyz: degraded)',
      labelNames: ['witness'],
      registers: [registry],
      collect() {
        this.reset();
        for (const r of app.witnessMemory.reachability()) this.set({ witness: r.witness }, r.ok ? 1 : 0);
      },
    });
    const importRatio = new Gauge({
      name: 'baas_import_progress_ratio',
      help: 'Bytes read over bytes in the file of the running import phase',
      labelNames: ['phase'],
      registers: [registry],
    });
    const importRows = new Gauge({
      name: 'baas_import_rows',
      help: 'Rows of the import by phase and outcome',
      labelNames: ['phase', 'outcome'],
      registers: [registry],
    });
    const loginFailures = new Counter({
      name: 'baas_login_failures_total',
      help: 'Refused sign-ins by route and status code',
      labelNames: ['route', 'status_code'],
      registers: [registry],
    });

    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? '(unmatched)';
      const status_code = String(reply.statusCode);
      requests.observe({ method: request.method, route, status_code }, reply.elapsedTime / 1000);
      if (route.endsWith('/login') && reply.statusCode >= 400 && reply.statusCode < 500)
        loginFailures.inc({ route, status_code });
    });

    const appMetrics: AppMetrics = {
      registry,
      witnessLag,
      importProgress(p) {
        importRatio.set({ phase: p.phase }, p.bytesTotal ? p.bytesRead / p.bytesTotal : 0);
        for (const outcome of ['read', 'imported', 'rejected', 'skipped'] as const)
          importRows.set({ phase: p.phase, outcome }, p.summary[outcome]);
      },
      text: () => {
        totals = undefined;
        return registry.metrics();
      },
    };
    app.decorate('metrics', appMetrics);

    const token = app.config.metricsToken;
    if (token)
      app.get(
        '/metrics',
        { schema: { tags: ['operations'], summary: 'Prometheus metrics (METRICS_TOKEN bearer token)' } },
        async (request, reply) => {
          const auth = request.headers.authorization ?? '';
          if (!auth.startsWith('Bearer ') || !sameToken(auth.slice(7), token)) {
            const message = msg('metrics.token');
            return reply.status(401).send({
              code: Codes.UNAUTHENTICATED,
              msg: renderMessage(languageOf(request.headers['accept-language']), message),
              data: null,
              ...message,
            });
          }
          return reply.type(registry.contentType).send(await appMetrics.text());
        },
      );
  },
  { name: 'metrics', dependencies: ['ledger'] },
);

/**
 * Server configuration from the environment (documented in README.md):
 * - `PORT` (default 8080), `HOST` (default 127.0.0.1; 0.0.0.0 to listen on every interface);
 * - `DATA_DIR` (default `./data`): the SQLite file `baas.sqlite` and `uploads/`;
 * - `DATABASE_URL`: a `postgres://` URL to use PostgreSQL instead of the embedded SQLite file;
 *   `DATABASE_POOL_MAX` (default twice the cores, at least 4; server/db/connect.ts `defaultPoolMax`): most
 *   connections this process opens to it;
 * - `ADMIN_PASSWORD`, `USER_PASSWORD`: passwords of the accounts `admin` and `user` when the first start
 *   (or a start that finds one missing) creates them, 8 to 256 characters; when unset, generated, stored as
 *   hashes and printed once. Never applied to an existing account (server/plugins/app/auth.ts);
 * - `TOKEN_TTL_HOURS` (default 24): lifetime of a login token;
 * - `SCRYPT_COST` (default 16384): scrypt's cost N of new password hashes, a power of two up to 131072;
 *   from 1024 only when `NODE_ENV=test` (server/plugins/app/password.ts `scryptCost`);
 * - `LOG_LEVEL` (default info), `SEED` (default 1: load the Tate seed into an empty database; 0 to skip);
 * - `LEDGER_BATCH_SIZE`, `LEDGER_BATCH_TIMEOUT_MS`: block cutting (see docs/ledger.md);
 * - `NODE_ENV` (default unset): `production` is production mode, where the server refuses to start with a
 *   key directory that is DATA_DIR or inside it (server/ledger/keyDir.ts);
 * - `LEDGER_SIGNING_KEY` (default unset: `<LEDGER_KEY_DIR>/ledger-signing-key.pem`, created at first
 *   start): the checkpoint signing key, a PKCS#8 PEM Ed25519 key or the base64 of a 32-byte seed;
 *   `LEDGER_KEY_DIR` (default `<DATA_DIR>-keys`, a sibling of DATA_DIR, created with mode 0700; DATA_DIR
 *   itself for an old installation whose key is there, with a warning, refused in production): where the
 *   generated key and the last signed checkpoints are kept, never in DATA_DIR's backups;
 *   `LEDGER_ORIGIN` (default: derived once and stored): the origin prefix of the logs, channel C's origin
 *   being `<LEDGER_ORIGIN>/C` (docs/ledger.md 10); `LEDGER_ORIGIN_SHARED=1` accepts an example name;
 *   `LEDGER_KEY_NAME` (default `baas-admin`): the chain's display name;
 * - `LEDGER_WITNESSES` (default empty): the witnesses the log sends its checkpoints to (C2SP tlog-witness),
 *   entries `<submission URL> <witness vkey>` separated by commas or newlines; `LEDGER_WITNESS_POLICY`
 *   (default unset: no quorum required): a C2SP tlog-policy file whose quorum verifiers require (its
 *   `witness` lines with a URL are pushed to as well); `LEDGER_WITNESS_INTERVAL_MS` (default 10000): how
 *   often the log retries witnesses besides after each block (docs/witnesses.md section 11);
 * - `TRUST_PROXY` (default unset: no proxy): Fastify's `trustProxy` — `true` (believe any proxy), a hop
 *   count (`1`), or a comma-separated list of proxy addresses/CIDRs (`127.0.0.1,10.0.0.0/8`). With it,
 *   X-Forwarded-Proto from the proxy says whether the client used HTTPS (HSTS is sent only then);
 * - `IMAGE_CACHE_HOSTS` (default empty: nothing fetched): hosts whose pictures the image cache fetches and
 *   serves from `/image-cache` (e.g. `www.tate.org.uk`); `IMAGE_CACHE_MAX_BYTES` (default 10 MiB): the
 *   largest picture it keeps (server/imageCache/imageCache.ts);
 * - `METRICS_TOKEN` (default unset): `GET /metrics` on the API's port with `Authorization: Bearer <token>`;
 *   `METRICS_PORT` (default unset) / `METRICS_HOST` (default 127.0.0.1): a listener of its own serving
 *   `GET /metrics` without a token (server/plugins/app/metrics.ts);
 * - `REQUEST_LOG` (default 1): one info line per request (0 to switch off; server/plugins/app/requestLog.ts);
 * - `UPLOAD_STORE` (default `pg` on PostgreSQL, `disk` on SQLite) and the `S3_*` variables of the S3
 *   store: where uploads are kept (server/storage/storeConfig.ts);
 * - `IMPORT_MAX_BYTES` (default 100 MiB): the largest file the console's import takes (streamed to
 *   `<DATA_DIR>/import-uploads/` while it is checked, server/routes/dev-api/import); other uploads keep
 *   their own limits (`UPLOAD_LIMIT_BYTES`, the schemas' `x-upload`).
 */
import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from './configError';
import { chooseKeyDir } from './ledger/keyDir';
import { scryptCost } from './plugins/app/password';
import type { S3StoreOptions } from './storage/s3Store';
import { s3Options, storeKind, type StoreKind } from './storage/storeConfig';

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** `DATABASE_POOL_MAX`: most PostgreSQL connections of this process; undefined: the default. */
  databasePoolMax?: number;
  /** ':memory:' in tests; otherwise the file `<dataDir>/baas.sqlite`. */
  sqliteFile?: string;
  adminPassword?: string;
  userPassword?: string;
  tokenTtlHours: number;
  logLevel: string;
  seed: boolean;
  /** Directory of the built console (Vite `dist/`), served at `/` when it exists. */
  consoleDir: string;
  /** Largest accepted upload, bytes. */
  uploadLimitBytes: number;
  /** `IMPORT_MAX_BYTES`: largest file the console's import takes, bytes. */
  importMaxBytes: number;
  ledgerBatchSize: number;
  ledgerBatchTimeoutMs: number;
  /** `LEDGER_SIGNING_KEY`: PEM or base64 seed; undefined = the key file in dataDir. */
  ledgerSigningKey?: string;
  /**
   * `LEDGER_PREVIOUS_SIGNING_KEY`: the key being rotated out (PEM or base64 seed); set for the first
   * start with a new `LEDGER_SIGNING_KEY`, the signer then adds the new key's signature to each channel's
   * latest checkpoint signed by this one (the transition checkpoint; docs/ledger.md section 10).
   */
  ledgerPreviousSigningKey?: string;
  /** `LEDGER_KEY_NAME`: the chain's display name on the dashboard (default `baas-admin`). */
  ledgerKeyName: string;
  /** `LEDGER_WITNESSES`: the witnesses to push checkpoints to (server/ledger/witnessPush.ts). */
  ledgerWitnesses?: string;
  /** `LEDGER_WITNESS_POLICY`: path of a tlog-policy file (common/ledger/policy.ts). */
  ledgerWitnessPolicy?: string;
  /** `LEDGER_WITNESS_INTERVAL_MS`: period of the witness push retries, ms. */
  ledgerWitnessIntervalMs: number;
  /** `LEDGER_ORIGIN`: the origin prefix of the channels' logs (server/ledger/origin.ts); unset: derived once. */
  ledgerOrigin?: string;
  /** `LEDGER_ORIGIN_SHARED=1`: accept an example origin two deployments would share (tests, demos). */
  ledgerOriginShared: boolean;
  /**
   * `LEDGER_KEY_DIR` (default `<DATA_DIR>-keys`): where the generated signing key and the last signed
   * checkpoints (`ledger-signed-checkpoints.json`) are kept, outside DATA_DIR and its backups.
   */
  ledgerKeyDir: string;
  /** `ledgerKeyDir` is DATA_DIR because an old installation keeps its key there (server/ledger/keyDir.ts). */
  ledgerKeyDirLegacy: boolean;
  /** `NODE_ENV=production`: production mode (refuses a key dir inside DATA_DIR). */
  production: boolean;
  /** Calls of `/baas-api/public/*` allowed per IP per minute (`PUBLIC_RATE_LIMIT`, default 600). */
  publicRateLimit: number;
  /** Login attempts allowed per IP per minute. */
  loginRateLimit: number;
  /** Fastify's `trustProxy` (from `TRUST_PROXY`): false, true, a hop count or a list of addresses/CIDRs. */
  trustProxy: boolean | number | string;
  /** Hosts the image cache may fetch from (`IMAGE_CACHE_HOSTS`), lower case; empty: none. */
  imageCacheHosts: string[];
  /** Largest picture the image cache keeps, bytes. */
  imageCacheMaxBytes: number;
  /** `METRICS_TOKEN`: bearer token of `GET /metrics` on the API port; undefined: no such route. */
  metricsToken?: string;
  /** `METRICS_PORT`: port of the separate metrics listener; undefined: none. */
  metricsPort?: number;
  /** `METRICS_HOST` (default 127.0.0.1): address of the separate metrics listener. */
  metricsHost: string;
  /** `REQUEST_LOG` (default true): one info line per request. */
  requestLog: boolean;
  /** `UPLOAD_STORE`: where uploads are kept; undefined: `pg` on PostgreSQL, `disk` on SQLite. */
  uploadStore?: StoreKind;
  /** The S3 store's settings (`S3_*`), when `UPLOAD_STORE=s3`. */
  s3?: S3StoreOptions;
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new ConfigError(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

/** A positive integer setting. @throws ConfigError naming the variable otherwise */
function positive(value: string, name: string): number {
  const n = int(value, 0, name);
  if (n < 1) throw new ConfigError(`${name} must be a positive integer, got "${value}"`);
  return n;
}

/**
 * The real directory behind `dir` when it exists: `dist` is a symbolic link that scripts/build.ts
 * switches to each new build, and a running server keeps serving the build it started with (its
 * index.html names the lazy chunks of that build only).
 */
function pinned(dir: string): string {
  return existsSync(dir) ? realpathSync(dir) : dir;
}

/** `TRUST_PROXY` as Fastify's `trustProxy`: unset/`false`/`0` → false, `true`, a hop count, or addresses. */
function trustProxy(value: string | undefined): boolean | number | string {
  const v = (value ?? '').trim();
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}

/** `IMAGE_CACHE_HOSTS` (comma or space separated) as lower-case `host` / `host:port` entries. */
export function parseHosts(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
}

/** Reads the configuration; throws (ConfigError) with the variable's name on a malformed value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = resolve(env.DATA_DIR || './data');
  const keyDir = chooseKeyDir(env.LEDGER_KEY_DIR, dataDir);
  // Refused at start rather than at the first password hash (password.ts reads it at each hash).
  scryptCost(env);
  return {
    port: int(env.PORT, 8080, 'PORT'),
    host: env.HOST || '127.0.0.1',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolMax: env.DATABASE_POOL_MAX ? positive(env.DATABASE_POOL_MAX, 'DATABASE_POOL_MAX') : undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    userPassword: env.USER_PASSWORD || undefined,
    tokenTtlHours: int(env.TOKEN_TTL_HOURS, 24, 'TOKEN_TTL_HOURS'),
    logLevel: env.LOG_LEVEL || 'info',
    seed: env.SEED !== '0',
    consoleDir: pinned(resolve(env.CONSOLE_DIR || './dist')),
    uploadLimitBytes: int(env.UPLOAD_LIMIT_BYTES, 2 * 1024 * 1024, 'UPLOAD_LIMIT_BYTES'),
    importMaxBytes: positive(env.IMPORT_MAX_BYTES || String(100 * 1024 * 1024), 'IMPORT_MAX_BYTES'),
    ledgerBatchSize: int(env.LEDGER_BATCH_SIZE, 10, 'LEDGER_BATCH_SIZE'),
    ledgerBatchTimeoutMs: int(env.LEDGER_BATCH_TIMEOUT_MS, 200, 'LEDGER_BATCH_TIMEOUT_MS'),
    ledgerSigningKey: env.LEDGER_SIGNING_KEY || undefined,
    ledgerPreviousSigningKey: env.LEDGER_PREVIOUS_SIGNING_KEY || undefined,
    ledgerKeyName: env.LEDGER_KEY_NAME || 'baas-admin',
    ledgerWitnesses: env.LEDGER_WITNESSES || undefined,
    ledgerWitnessPolicy: env.LEDGER_WITNESS_POLICY || undefined,
    ledgerWitnessIntervalMs: int(env.LEDGER_WITNESS_INTERVAL_MS, 10_000, 'LEDGER_WITNESS_INTERVAL_MS'),
    ledgerOrigin: env.LEDGER_ORIGIN || undefined,
    ledgerOriginShared: env.LEDGER_ORIGIN_SHARED === '1',
    ledgerKeyDir: keyDir.dir,
    ledgerKeyDirLegacy: keyDir.legacy,
    production: env.NODE_ENV === 'production',
    loginRateLimit: int(env.LOGIN_RATE_LIMIT, 20, 'LOGIN_RATE_LIMIT'),
    publicRateLimit: int(env.PUBLIC_RATE_LIMIT, 600, 'PUBLIC_RATE_LIMIT'),
    trustProxy: trustProxy(env.TRUST_PROXY),
    imageCacheHosts: parseHosts(env.IMAGE_CACHE_HOSTS),
    imageCacheMaxBytes: int(env.IMAGE_CACHE_MAX_BYTES, 10 * 1024 * 1024, 'IMAGE_CACHE_MAX_BYTES'),
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsPort: env.METRICS_PORT ? int(env.METRICS_PORT, 0, 'METRICS_PORT') : undefined,
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    requestLog: env.REQUEST_LOG !== '0',
    uploadStore: storeKind(env),
    s3: storeKind(env) === 's3' ? s3Options(env) : undefined,
  };
}

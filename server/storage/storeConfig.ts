/**
 * Which BlobStore a server uses (issue 20 item 4; README "Run in production", upload stores):
 * - `UPLOAD_STORE`: `disk` (files under `<DATA_DIR>/uploads`, one instance only), `pg` (the database's
 *   `upload_blob` table, pgStore.ts) or `s3` (s3Store.ts). Default: `pg` when `DATABASE_URL` is
 *   PostgreSQL, else `disk`.
 * - For `s3`: `S3_BUCKET` (required), `S3_REGION` (default `us-east-1`), `S3_ENDPOINT` (an S3-compatible
 *   service's URL; unset: AWS), `S3_FORCE_PATH_STYLE` (`1`: `<endpoint>/<bucket>/<key>` URLs, as MinIO
 *   wants), `S3_PREFIX` (default '': prepended to every object name), credentials `S3_ACCESS_KEY_ID` and
 *   `S3_SECRET_ACCESS_KEY` (unset: the SDK's default chain, e.g. `AWS_ACCESS_KEY_ID` or an instance role).
 * Read by server/config.ts (`loadConfig`); `openStore` makes the store the storage plugin decorates.
 */
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { LocalDiskStore, type BlobStore } from './blobStore';
import { PgBlobStore, type UploadBlobTable } from './pgStore';
import { S3BlobStore, type S3StoreOptions } from './s3Store';
import { ConfigError } from '../configError';

export type StoreKind = BlobStore['kind'];

/**
 * The store kind `env` asks for (`UPLOAD_STORE`, see the module doc); undefined when unset (the default
 * then follows the database: {@link defaultKind}). @throws Error naming UPLOAD_STORE on another value
 */
export function storeKind(env: NodeJS.ProcessEnv): StoreKind | undefined {
  const v = (env.UPLOAD_STORE ?? '').trim().toLowerCase();
  if (v === '') return undefined;
  if (v !== 'disk' && v !== 'pg' && v !== 's3')
    throw new ConfigError(`UPLOAD_STORE must be disk, pg or s3, got "${env.UPLOAD_STORE}"`);
  return v;
}

/** The S3 settings of `env` (see the module doc). @throws Error when S3_BUCKET is missing */
export function s3Options(env: NodeJS.ProcessEnv): S3StoreOptions {
  if (!env.S3_BUCKET)
    throw new ConfigError('UPLOAD_STORE=s3 needs S3_BUCKET (and S3_ENDPOINT for a non-AWS service)');
  const credentials =
    env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
      ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
      : undefined;
  return {
    bucket: env.S3_BUCKET,
    prefix: env.S3_PREFIX ?? '',
    client: {
      region: env.S3_REGION || 'us-east-1',
      endpoint: env.S3_ENDPOINT || undefined,
      forcePathStyle: env.S3_FORCE_PATH_STYLE === '1' || env.S3_FORCE_PATH_STYLE === 'true',
      credentials,
    },
  };
}

/** The store used when UPLOAD_STORE is unset: `pg` on PostgreSQL, `disk` on SQLite. */
export const defaultKind = (dialect: 'sqlite' | 'postgres'): StoreKind =>
  dialect === 'postgres' ? 'pg' : 'disk';

/** The store of `kind` for a server with `dataDir` and `db`. */
export function openStore(
  kind: StoreKind,
  { dataDir, db, s3 }: { dataDir: string; db: Kysely<any>; s3?: S3StoreOptions },
): BlobStore {
  if (kind === 'pg') return new PgBlobStore(db as Kysely<UploadBlobTable>);
  if (kind === 's3') {
    if (!s3) throw new ConfigError('UPLOAD_STORE=s3 needs S3_BUCKET');
    return new S3BlobStore(s3);
  }
  return new LocalDiskStore(join(dataDir, 'uploads'));
}

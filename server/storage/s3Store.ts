/**
 * The BlobStore of an S3 bucket (issue 20 item 4), through `@aws-sdk/client-s3`: PutObject, GetObject,
 * HeadObject and ListObjectsV2 (with `Delimiter: '/'`) of the S3 REST API, so any S3-compatible service
 * (AWS S3, MinIO, Ceph RGW, ...) works. Objects are named `<S3_PREFIX><key>` and still served by the
 * instances at `/uploads/<key>` (the bucket need not be public). Configuration: storeConfig.ts.
 */
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import {
  checkedKey,
  cleanPrefix,
  timeText,
  type BlobEntry,
  type BlobStore,
  type StoredBlob,
} from './blobStore';

/** Where the bucket is and how to reach it. */
export interface S3StoreOptions {
  bucket: string;
  /** Prepended to every key (e.g. `baas/`); '' for none. */
  prefix: string;
  /** The client's settings: region, endpoint, forcePathStyle, credentials. */
  client: S3ClientConfig;
}

/** True for the SDK's "no such object" errors (404 of HeadObject/GetObject). */
function notFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}

/** The AWS SDK's S3 module. */
type S3Sdk = typeof import('@aws-sdk/client-s3');
/** The SDK, loaded at the first use of a bucket, not at every server start (a tenth of a second of CPU). */
const loadSdk = (): Promise<S3Sdk> => import('@aws-sdk/client-s3');

/** The BlobStore of an S3 bucket (see the module doc). Errors of S3 other than 404 are rethrown. */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3';
  private connection?: Promise<{ s3: S3Sdk; client: S3Client }>;

  constructor(
    private readonly opts: S3StoreOptions,
    private readonly urlPrefix = '/uploads/',
  ) {}

  /** The SDK and this bucket's client, made at the first call. */
  private connect(): Promise<{ s3: S3Sdk; client: S3Client }> {
    return (this.connection ??= loadSdk().then((s3) => ({ s3, client: new s3.S3Client(this.opts.client) })));
  }

  private name(key: string): string {
    return `${this.opts.prefix}${checkedKey(key)}`;
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<{ url: string }> {
    const { s3, client } = await this.connect();
    await client.send(
      new s3.PutObjectCommand({
        Bucket: this.opts.bucket,
        Key: this.name(key),
        Body: bytes,
        ContentType: contentType,
      }),
    );
    return { url: `${this.urlPrefix}${key}` };
  }

  async get(key: string): Promise<StoredBlob | undefined> {
    const { s3, client } = await this.connect();
    try {
      const r = await client.send(new s3.GetObjectCommand({ Bucket: this.opts.bucket, Key: this.name(key) }));
      const bytes = Buffer.from(await r.Body!.transformToByteArray());
      return { bytes, contentType: r.ContentType ?? 'application/octet-stream' };
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
  }

  async size(key: string): Promise<number | undefined> {
    const { s3, client } = await this.connect();
    try {
      const r = await client.send(
        new s3.HeadObjectCommand({ Bucket: this.opts.bucket, Key: this.name(key) }),
      );
      return r.ContentLength ?? 0;
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
  }

  async list(prefix: string): Promise<BlobEntry[]> {
    const clean = cleanPrefix(prefix);
    const start = `${this.opts.prefix}${clean ? `${clean}/` : ''}`;
    const out: BlobEntry[] = [];
    let token: string | undefined;
    const { s3, client } = await this.connect();
    do {
      const r = await client.send(
        new s3.ListObjectsV2Command({
          Bucket: this.opts.bucket,
          Prefix: start,
          Delimiter: '/',
          ContinuationToken: token,
        }),
      );
      for (const p of r.CommonPrefixes ?? []) {
        const name = p.Prefix!.slice(start.length).replace(/\/$/, '');
        const key = clean ? `${clean}/${name}` : name;
        out.push({ key, name, dir: true, size: 0, updateTime: timeText(new Date(0)), url: null });
      }
      for (const o of r.Contents ?? []) {
        const name = o.Key!.slice(start.length);
        const key = clean ? `${clean}/${name}` : name;
        out.push({
          key,
          name,
          dir: false,
          size: o.Size ?? 0,
          updateTime: timeText(o.LastModified ?? new Date(0)),
          url: `${this.urlPrefix}${key}`,
        });
      }
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}

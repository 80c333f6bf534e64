/**
 * Upload stores shared by every instance (issue 20 item 4; server/storage/): the same calls — upload,
 * `GET /uploads/<key>`, the oss listing, the image cache — answer alike on the disk, PostgreSQL
 * (`upload_blob`) and S3 stores, and `npm run uploads:migrate` moves existing disk files to a shared
 * store, idempotently. The S3 store runs against s3rver (an S3-compatible server from npm, on a loopback
 * port): the AWS SDK's PutObject, GetObject, HeadObject and ListObjectsV2 go over HTTP to it, and its
 * own files are checked to hold the object. On PostgreSQL (TEST_DATABASE_URL) the pg store runs there.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../../server/storage/s3Store';
import { s3Options } from '../../server/storage/storeConfig';
import { migrateUploads } from '../../server/ops/uploadsMigrate';
import { PgBlobStore } from '../../server/storage/pgStore';
import type { AppConfig } from '../../server/config';
import { createTestApp, multipart, type TestApp } from './helpers';
import { commandArgs, freePort, ROOT } from '../support/serverProcess';

const png = (size = 200) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(size - 8)]);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const s3Dir = mkdtempSync(join(tmpdir(), 'baas-s3rver-'));
let s3rver: S3rver;
let s3Env: Record<string, string>;

beforeAll(async () => {
  const port = await freePort();
  s3rver = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: 'baas-uploads', configs: [] }],
  });
  await s3rver.run();
  s3Env = {
    UPLOAD_STORE: 's3',
    S3_BUCKET: 'baas-uploads',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: 'us-east-1',
    S3_FORCE_PATH_STYLE: '1',
    // s3rver's fixed development credentials.
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  };
});

afterAll(async () => {
  await s3rver?.close();
  rmSync(s3Dir, { recursive: true, force: true });
});

/** Uploads `bytes` through `POST /artmanager/upload` and answers the stored URL. */
async function upload(t: TestApp, bytes: Buffer): Promise<string> {
  const r = await t.call({
    method: 'POST',
    url: '/artmanager/upload',
    ...multipart({}, { bytes, filename: 'p.png' }),
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.url as string;
}

const stores: [string, () => Partial<AppConfig>][] = [
  ['disk', () => ({ uploadStore: 'disk' })],
  ['pg', () => ({ uploadStore: 'pg' })],
  ['s3', () => ({ uploadStore: 's3', s3: s3Options(s3Env) })],
];

describe.each(stores)('the %s store', (kind, config) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(config());
  });
  afterAll(async () => t?.close());

  it('stores an upload under its content hash and serves the same bytes at its URL', async () => {
    expect(t.app.storage.kind).toBe(kind);
    const bytes = png(300);
    const url = await upload(t, bytes);
    expect(url).toBe(`/uploads/${sha(bytes)}.png`);
    const got = await t.app.inject({ method: 'GET', url });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toMatch(kind === 'disk' ? /^image\/png/ : /^image\/png$/);
    expect(Buffer.compare(got.rawPayload, bytes)).toBe(0);
    // The same file twice is one object; an unknown key is the 404 envelope, not a 500.
    expect(await upload(t, bytes)).toBe(url);
    const missing = await t.app.inject({ method: 'GET', url: `/uploads/${'0'.repeat(64)}.png` });
    expect(missing.statusCode).toBe(404);
  });

  it('lists directories and objects alike, through the oss listing', async () => {
    const a = png(120);
    const b = png(140);
    await t.app.storage.put(`listing/${kind}/one/${sha(a)}.png`, a, 'image/png');
    await t.app.storage.put(`listing/${kind}/${sha(b)}.png`, b, 'image/png');
    const r = await t.get(`/artmanager/oss/dir/listing/${kind}`);
    expect(r.status).toBe(200);
    const list = r.body.data.list as { name: string; dir: boolean; size: number; url: string | null }[];
    expect(list.map((e) => [e.name, e.dir, e.size, e.url])).toEqual(
      [
        ['one', true, 0, null],
        [`${sha(b)}.png`, false, 140, `/uploads/listing/${kind}/${sha(b)}.png`],
      ].sort((x, y) => ((x[0] as string) < (y[0] as string) ? -1 : 1)),
    );
    expect((await t.get(`/artmanager/oss/dir/listing/none-${kind}`)).body.data.list).toEqual([]);
  });

  it('round-trips any bytes under any valid key (get and size agree with put)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 0, maxLength: 2000 }),
        fc.stringMatching(/^[a-z0-9_][a-z0-9_-]{0,11}$/),
        async (data, name) => {
          const bytes = Buffer.from(data);
          const key = `prop/${name}/${sha(bytes)}.bin`;
          await t.app.storage.put(key, bytes, 'application/octet-stream');
          expect((await t.app.storage.get(key))?.bytes.equals(bytes)).toBe(true);
          expect(await t.app.storage.size(key)).toBe(bytes.length);
        },
      ),
      { numRuns: 15 },
    );
    expect(await t.app.storage.size('prop/none.bin')).toBeUndefined();
    await expect(t.app.storage.put('../escape.png', png(), 'image/png')).rejects.toThrow(
      /invalid storage key/,
    );
  });

  it('keeps shared uploads out of DATA_DIR', () => {
    const dir = join(t.dataDir, 'uploads');
    const files = existsSync(dir) ? readdirSync(dir, { recursive: true }) : [];
    if (kind === 'disk') expect(files.length).toBeGreaterThan(0);
    else expect(files).toEqual([]);
  });
});

describe('the S3 store speaks S3 to the server', () => {
  it('PutObject lands in s3rver, HeadObject sizes it, GetObject reads it back', async () => {
    const store = new S3BlobStore(s3Options({ ...s3Env, S3_PREFIX: 'tenant-a/' }));
    const bytes = png(500);
    const key = `artworks/${sha(bytes)}.png`;
    await store.put(key, bytes, 'image/png');
    // s3rver keeps each object as a file under <directory>/<bucket>/<name>._S3rver_object.
    const onDisk = readdirSync(join(s3Dir, 'baas-uploads', 'tenant-a', 'artworks'));
    expect(onDisk).toContain(`${sha(bytes)}.png._S3rver_object`);
    expect(await store.size(key)).toBe(500);
    const got = await store.get(key);
    expect(got?.contentType).toBe('image/png');
    expect(got?.bytes.equals(bytes)).toBe(true);
    expect(await store.get('artworks/missing.png')).toBeUndefined();
  });
});

describe('npm run uploads:migrate', () => {
  it('copies the disk uploads to the shared store once; the old URLs then answer from it', async () => {
    const disk = await createTestApp({ uploadStore: 'disk' });
    const files = [png(210), png(220), png(230)];
    const urls: string[] = [];
    for (const f of files) urls.push(await upload(disk, f));
    await disk.app.storage.put('portraits/nested/x.png', files[0], 'image/png');
    const uploadsDir = join(disk.dataDir, 'uploads');

    // The pg store on this same database: the first run copies all, the second copies nothing.
    const pg = new PgBlobStore(disk.app.db as never);
    const first = await migrateUploads(uploadsDir, pg);
    expect(first.copied).toEqual(
      [...urls.map((u) => u.slice('/uploads/'.length)), 'portraits/nested/x.png'].sort(),
    );
    const second = await migrateUploads(uploadsDir, pg);
    expect(second).toEqual({ copied: [], skipped: first.copied, ignored: [] });
    for (const [i, u] of urls.entries()) {
      const got = await pg.get(u.slice('/uploads/'.length));
      expect(got?.contentType).toBe('image/png');
      expect(got?.bytes.equals(files[i])).toBe(true);
    }

    // The command itself, to S3: copies the four, then (run again) none.
    // Asynchronously: s3rver answers from this very process.
    const run = async () =>
      (
        await promisify(execFile)(process.execPath, commandArgs('uploads-migrate', ['--to', 's3']), {
          cwd: ROOT,
          env: {
            ...process.env,
            ...s3Env,
            S3_PREFIX: 'migrated/',
            DATA_DIR: disk.dataDir,
            DATABASE_URL: '',
          },
          encoding: 'utf8',
        })
      ).stdout;
    expect(await run()).toContain('copied 4, already there 0, ignored 0');
    expect(await run()).toContain('copied 0, already there 4, ignored 0');
    const s3 = new S3BlobStore(s3Options({ ...s3Env, S3_PREFIX: 'migrated/' }));
    expect((await s3.get(urls[1].slice('/uploads/'.length)))?.bytes.equals(files[1])).toBe(true);
    await disk.close();
  });
});

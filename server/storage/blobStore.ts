/**
 * Where uploaded files live: the `BlobStore` interface (put an object under a key, read it, ask its size,
 * list the objects under a prefix) and `LocalDiskStore`, the default on SQLite, which keeps them under
 * `<DATA_DIR>/uploads/` (served by @fastify/static at `/uploads/<key>`, see
 * server/plugins/external/static.ts). The stores shared by several instances are in pgStore.ts
 * (PostgreSQL) and s3Store.ts (S3); which one a server uses: storeConfig.ts.
 *
 * Keys are `/`-separated relative paths of lower-case letters, digits, `-`, `_` and `.` (no empty, `.` or
 * `..` segment): a key can never leave the store's root.
 */
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** undefined for a file that is not there (ENOENT, ENOTDIR); other errors are rethrown. */
function missing(e: NodeJS.ErrnoException): undefined {
  if (e.code === 'ENOENT' || e.code === 'ENOTDIR' || e.code === 'EISDIR') return undefined;
  throw e;
}

/** One stored object (or sub-directory, `dir: true`, size 0) as listed. */
export interface BlobEntry {
  /** Its key, relative to the store root (`artworks/images/ab12….png`). */
  key: string;
  /** The last segment of the key. */
  name: string;
  dir: boolean;
  /** Bytes. */
  size: number;
  /** UTC `YYYY-MM-DD HH:mm:ss` of the last write. */
  updateTime: string;
  /** The URL it is served at (`/uploads/<key>`); null for a directory. */
  url: string | null;
}

/** One stored object's content. */
export interface StoredBlob {
  bytes: Buffer;
  /** The MIME type given to `put` (the disk store answers `application/octet-stream`: it keeps none). */
  contentType: string;
}

/** Storage of uploaded files (see the module doc). Errors: `Error` for an invalid key. */
export interface BlobStore {
  /** `disk`, `pg` or `s3`: which store this is (logs, `/readyz`, the migration command). */
  readonly kind: 'disk' | 'pg' | 's3';
  /** Stores `bytes` under `key` (replacing any object there) and answers its URL. */
  put(key: string, bytes: Buffer, contentType: string): Promise<{ url: string }>;
  /** The object under `key`; undefined when there is none. */
  get(key: string): Promise<StoredBlob | undefined>;
  /** The size in bytes of the object under `key`; undefined when there is none. */
  size(key: string): Promise<number | undefined>;
  /** The objects and sub-directories directly under `prefix` ('' = root), names sorted; [] when none. */
  list(prefix: string): Promise<BlobEntry[]>;
}

const SEGMENT = /^[a-z0-9_][a-z0-9_.-]*$/;

/** True when `key` is a valid key or prefix (see the module doc); '' is the root prefix. */
export function isValidKey(key: string, { prefix = false } = {}): boolean {
  if (key === '') return prefix;
  return key.split('/').every((s) => SEGMENT.test(s) && s !== '.' && s !== '..');
}

/** UTC `YYYY-MM-DD HH:mm:ss` of `d` (BlobEntry.updateTime). */
export const timeText = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

/** `key` checked (see the module doc). @throws Error naming the key when invalid */
export function checkedKey(key: string): string {
  if (!isValidKey(key)) throw new Error(`invalid storage key "${key}"`);
  return key;
}

/** `prefix` without leading/trailing `/`, checked. @throws Error naming the prefix when invalid */
export function cleanPrefix(prefix: string): string {
  const clean = prefix.replace(/^\/+|\/+$/g, '');
  if (!isValidKey(clean, { prefix: true })) throw new Error(`invalid storage prefix "${prefix}"`);
  return clean;
}

/**
 * The listing of `prefix` (clean) from the flat keys under it, as object stores keep them: a key with a
 * further `/` becomes its first segment as a directory (once). For the PostgreSQL and S3 stores.
 */
export function listingOf(
  prefix: string,
  objects: { key: string; size: number; updated: Date }[],
  urlPrefix: string,
): BlobEntry[] {
  const start = prefix ? `${prefix}/` : '';
  const byName = new Map<string, BlobEntry>();
  for (const o of objects) {
    if (!o.key.startsWith(start)) continue;
    const rest = o.key.slice(start.length);
    const name = rest.split('/')[0];
    if (!SEGMENT.test(name) || byName.has(name)) continue;
    const dir = rest.includes('/');
    const key = `${start}${name}`;
    byName.set(name, {
      key,
      name,
      dir,
      size: dir ? 0 : o.size,
      updateTime: timeText(o.updated),
      url: dir ? null : `${urlPrefix}${key}`,
    });
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The BlobStore of the local disk: objects are files under `root`. */
export class LocalDiskStore implements BlobStore {
  readonly kind = 'disk';
  /** @param root the directory (`<DATA_DIR>/uploads`); @param urlPrefix where it is served (`/uploads/`) */
  constructor(
    private readonly root: string,
    private readonly urlPrefix = '/uploads/',
  ) {}

  /** The file of `key` under the root. */
  private file(key: string): string {
    return join(this.root, ...checkedKey(key).split('/'));
  }

  async put(key: string, bytes: Buffer): Promise<{ url: string }> {
    const file = this.file(key);
    await mkdir(dirname(file), { recursive: true });
    // Written aside then renamed: a reader (another request, a backup) never sees half a file.
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, file);
    return { url: `${this.urlPrefix}${key}` };
  }

  async get(key: string): Promise<StoredBlob | undefined> {
    const bytes = await readFile(this.file(key)).catch(missing);
    return bytes && { bytes, contentType: 'application/octet-stream' };
  }

  async size(key: string): Promise<number | undefined> {
    const s = await stat(this.file(key)).catch(missing);
    return s?.isFile() ? s.size : undefined;
  }

  async list(prefix: string): Promise<BlobEntry[]> {
    const clean = cleanPrefix(prefix);
    const dir = join(this.root, ...(clean ? clean.split('/') : []));
    const names = await readdir(dir).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return [] as string[];
      throw e;
    });
    const out: BlobEntry[] = [];
    for (const name of names.sort()) {
      if (!SEGMENT.test(name) || name.endsWith('.tmp')) continue;
      const s = await stat(join(dir, name));
      const key = clean ? `${clean}/${name}` : name;
      out.push({
        key,
        name,
        dir: s.isDirectory(),
        size: s.isDirectory() ? 0 : s.size,
        updateTime: timeText(s.mtime),
        url: s.isDirectory() ? null : `${this.urlPrefix}${key}`,
      });
    }
    return out;
  }
}

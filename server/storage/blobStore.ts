/**
 * Where uploaded files live: the `BlobStore` interface (what an S3-compatible store would implement: put an
 * object under a key, list the objects under a prefix) and `LocalDiskStore`, the one used today, which keeps
 * them under `<DATA_DIR>/uploads/` (served by @fastify/static at `/uploads/<key>`, see
 * server/plugins/external/static.ts).
 *
 * Keys are `/`-separated relative paths of lower-case letters, digits, `-`, `_` and `.` (no empty, `.` or
 * `..` segment): a key can never leave the store's root.
 */
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

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

/** Storage of uploaded files (see the module doc). Errors: `Error` for an invalid key. */
export interface BlobStore {
  /** Stores `bytes` under `key` (replacing any object there) and answers its URL. */
  put(key: string, bytes: Buffer, contentType: string): Promise<{ url: string }>;
  /** The objects and sub-directories directly under `prefix` ('' = root), names sorted; [] when none. */
  list(prefix: string): Promise<BlobEntry[]>;
}

const SEGMENT = /^[a-z0-9_][a-z0-9_.-]*$/;

/** True when `key` is a valid key or prefix (see the module doc); '' is the root prefix. */
export function isValidKey(key: string, { prefix = false } = {}): boolean {
  if (key === '') return prefix;
  return key.split('/').every((s) => SEGMENT.test(s) && s !== '.' && s !== '..');
}

const timeText = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

/** The BlobStore of the local disk: objects are files under `root`. */
export class LocalDiskStore implements BlobStore {
  /** @param root the directory (`<DATA_DIR>/uploads`); @param urlPrefix where it is served (`/uploads/`) */
  constructor(
    private readonly root: string,
    private readonly urlPrefix = '/uploads/',
  ) {}

  async put(key: string, bytes: Buffer): Promise<{ url: string }> {
    if (!isValidKey(key)) throw new Error(`invalid storage key "${key}"`);
    const parts = key.split('/');
    await mkdir(join(this.root, ...parts.slice(0, -1)), { recursive: true });
    await writeFile(join(this.root, ...parts), bytes);
    return { url: `${this.urlPrefix}${key}` };
  }

  async list(prefix: string): Promise<BlobEntry[]> {
    const clean = prefix.replace(/^\/+|\/+$/g, '');
    if (!isValidKey(clean, { prefix: true })) throw new Error(`invalid storage prefix "${prefix}"`);
    const dir = join(this.root, ...(clean ? clean.split('/') : []));
    const names = await readdir(dir).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return [] as string[];
      throw e;
    });
    const out: BlobEntry[] = [];
    for (const name of names.sort()) {
      if (!SEGMENT.test(name)) continue;
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

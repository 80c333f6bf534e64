/**
 * The remote image cache: catalogue pictures of other sites (the Tate records' `http://www.tate.org.uk/...`
 * URLs) fetched once by the server and served from the console's own origin, so the page's CSP
 * (`img-src 'self' ...`) holds and no picture request leaves the browser for another site.
 *
 * Rules:
 * - Opt-in by host: only URLs whose host is in the allowlist (`IMAGE_CACHE_HOSTS`, e.g.
 *   `www.tate.org.uk`; an entry with a port matches that port only) are fetched; the default list is
 *   empty, so a default start sends nothing to any other host. Redirects are followed (at most 3) only
 *   to allowed hosts, over http or https.
 * - Checked by content: the body must be a JPEG, PNG, GIF or WebP by its magic number (common/fileTypes.ts
 *   `imageKind`), whatever Content-Type the remote said; at most `maxBytes` (IMAGE_CACHE_MAX_BYTES,
 *   default 10 MiB), refused as soon as the declared length or the bytes read exceed it.
 * - Fetched once: stored under `<DATA_DIR>/image-cache/<sha256 of the URL>.<ext>`; concurrent requests for
 *   one URL share one fetch. A host that failed to answer (DNS, refused, timeout after `timeoutMs`) is
 *   not asked again for `retryAfterMs` (default 60 s): the pictures of an unreachable site become
 *   placeholders at once instead of one timeout each.
 * - Thumbnails: `width` (one of {@link THUMB_WIDTHS}, CSS px × 2 for high-density screens) gives a
 *   square WebP cut to that size by sharp (libvips), stored beside as `thumbs/<sha256>-<width>.webp`; the
 *   same for an uploaded picture (`/uploads/<name>`).
 * Anything refused or unreachable resolves to `{ placeholder: reason }`; the route answers a neutral SVG.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { imageKind } from '../../common/fileTypes';

/** Thumbnail widths served (px); a request for another width takes the next larger one. */
export const THUMB_WIDTHS = [96, 192, 320] as const;

export type PlaceholderReason = 'not-allowed' | 'unreachable' | 'not-image' | 'too-large' | 'not-found';

export type CachedImage =
  | { placeholder?: undefined; bytes: Buffer; contentType: string; file: string }
  | { placeholder: PlaceholderReason; detail?: string };

export interface ImageCacheOptions {
  /** `<DATA_DIR>/image-cache` */
  dir: string;
  /** Reads an uploaded picture by its BlobStore key (the app's store), for thumbnails of uploads. */
  readUpload: (key: string) => Promise<Buffer | undefined>;
  /** Allowed hosts, lower case, `host` or `host:port`. */
  hosts: string[];
  maxBytes: number;
  timeoutMs?: number;
  retryAfterMs?: number;
  /** The fetch implementation (tests may count calls); default global fetch. */
  fetch?: typeof fetch;
}

const CONTENT_TYPES = { jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' } as const;

/** The picture kinds the cache keeps (a BMP, which uploads accept, is not a catalogue picture here). */
function cachedKind(bytes: Buffer): keyof typeof CONTENT_TYPES | undefined {
  const kind = imageKind(bytes);
  return kind && kind in CONTENT_TYPES ? (kind as keyof typeof CONTENT_TYPES) : undefined;
}

/** The nearest served thumbnail width ≥ `w` (the largest when `w` exceeds them all). */
export function thumbWidth(w: number): number {
  return THUMB_WIDTHS.find((t) => t >= w) ?? THUMB_WIDTHS[THUMB_WIDTHS.length - 1];
}

/** True when `url`'s host is in `hosts` (an entry without a port matches the host on any port). */
export function hostAllowed(url: URL, hosts: string[]): boolean {
  const host = url.host.toLowerCase();
  const name = url.hostname.toLowerCase();
  return hosts.some((h) => h === host || (!h.includes(':') && h === name));
}

class Refused extends Error {
  constructor(
    readonly reason: PlaceholderReason,
    detail: string,
  ) {
    super(detail);
  }
}

export class ImageCache {
  private readonly inflight = new Map<string, Promise<CachedImage>>();
  private readonly hostDownUntil = new Map<string, number>();
  private readonly doFetch: typeof fetch;

  constructor(private readonly opts: ImageCacheOptions) {
    this.doFetch = opts.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  }

  /**
   * The picture at `source` (an absolute http(s) URL of an allowed host, or `/uploads/<name>`), as a
   * thumbnail when `width` is given; a placeholder reason when it cannot be had.
   */
  async get(source: string, width?: number): Promise<CachedImage> {
    const original = await this.original(source);
    if (original.placeholder || width === undefined) return original;
    return this.thumbnail(original, thumbWidth(width));
  }

  private async original(source: string): Promise<CachedImage> {
    if (/^\/uploads\/[\w-]+\.(jpg|png|gif|webp)$/.test(source)) {
      const key = source.slice('/uploads/'.length);
      const bytes = await this.opts.readUpload(key).catch(() => undefined);
      const kind = bytes && cachedKind(bytes);
      if (!bytes || !kind) return { placeholder: 'not-found' };
      return { bytes, contentType: CONTENT_TYPES[kind], file: join('uploads', key) };
    }
    let url: URL;
    try {
      url = new URL(source);
    } catch {
      return { placeholder: 'not-allowed', detail: 'not a URL' };
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !hostAllowed(url, this.opts.hosts))
      return { placeholder: 'not-allowed', detail: url.host };
    const key = createHash('sha256').update(url.href).digest('hex');
    for (const ext of Object.keys(CONTENT_TYPES)) {
      const stored = await this.readStored(join(this.opts.dir, `${key}.${ext}`));
      if (stored) return stored;
    }
    const down = this.hostDownUntil.get(url.host);
    if (down && down > Date.now())
      return { placeholder: 'unreachable', detail: `${url.host} did not answer` };
    let p = this.inflight.get(url.href);
    if (!p) {
      p = this.download(url, key).finally(() => this.inflight.delete(url.href));
      this.inflight.set(url.href, p);
    }
    return p;
  }

  private async readStored(file: string): Promise<CachedImage | undefined> {
    try {
      const bytes = await readFile(file);
      const kind = cachedKind(bytes);
      if (!kind) return undefined;
      return { bytes, contentType: CONTENT_TYPES[kind], file };
    } catch {
      return undefined;
    }
  }

  private async download(first: URL, key: string): Promise<CachedImage> {
    const { maxBytes, timeoutMs = 8000, retryAfterMs = 60_000 } = this.opts;
    let url = first;
    try {
      let response: Response | undefined;
      for (let hop = 0; hop <= 3; hop++) {
        try {
          response = await this.doFetch(url, {
            redirect: 'manual',
            signal: AbortSignal.timeout(timeoutMs),
            headers: { Accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif' },
          });
        } catch (err) {
          this.hostDownUntil.set(url.host, Date.now() + retryAfterMs);
          throw new Refused('unreachable', `${url.host}: ${(err as Error).message}`);
        }
        if (response.status < 300 || response.status >= 400) break;
        const location = response.headers.get('location');
        const next = location ? new URL(location, url) : undefined;
        if (
          !next ||
          (next.protocol !== 'http:' && next.protocol !== 'https:') ||
          !hostAllowed(next, this.opts.hosts)
        )
          throw new Refused('not-allowed', `redirect to ${next?.host ?? '?'}`);
        if (hop === 3) throw new Refused('unreachable', 'too many redirects');
        url = next;
      }
      if (!response!.ok) throw new Refused('not-found', `HTTP ${response!.status}`);
      const bytes = await readLimited(response!, maxBytes);
      const kind = cachedKind(bytes);
      if (!kind) throw new Refused('not-image', 'not a JPEG, PNG, GIF or WebP');
      await mkdir(this.opts.dir, { recursive: true });
      const file = join(this.opts.dir, `${key}.${kind}`);
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, bytes);
      await rename(tmp, file); // a reader never sees half a file
      return { bytes, contentType: CONTENT_TYPES[kind], file };
    } catch (err) {
      if (err instanceof Refused) return { placeholder: err.reason, detail: err.message };
      return { placeholder: 'unreachable', detail: (err as Error).message };
    }
  }

  private async thumbnail(
    original: Extract<CachedImage, { bytes: Buffer }>,
    width: number,
  ): Promise<CachedImage> {
    const base = original.file
      .split('/')
      .pop()!
      .replace(/\.\w+$/, '');
    const dir = join(this.opts.dir, 'thumbs');
    const file = join(dir, `${base}-${width}.webp`);
    const stored = await this.readStored(file);
    if (stored) return stored;
    try {
      const sharp = await loadSharp();
      const bytes = await sharp(original.bytes, { limitInputPixels: 50_000_000 })
        .rotate()
        .resize(width, width, { fit: 'cover' })
        .webp({ quality: 78 })
        .toBuffer();
      await mkdir(dir, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, bytes);
      await rename(tmp, file);
      return { bytes, contentType: 'image/webp', file };
    } catch (err) {
      return { placeholder: 'not-image', detail: (err as Error).message };
    }
  }
}

/**
 * sharp, loaded on the first thumbnail: loading libvips costs the process about 8 MB of resident memory
 * and its threads, which a server that never cuts a thumbnail should not pay (issue 10's RSS goal).
 */
let sharpModule: Promise<typeof import('sharp').default> | undefined;
const loadSharp = () => (sharpModule ??= import('sharp').then((m) => m.default));

/** Reads a response body, refusing (`too-large`) past `max` bytes, declared or read. */
async function readLimited(response: Response, max: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel().catch(() => undefined);
    throw new Refused('too-large', `${declared} bytes declared, at most ${max}`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      throw new Refused('too-large', `more than ${max} bytes`);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

/**
 * The placeholder picture: a neutral square with a picture outline (SVG, no text, so no language), what
 * the route answers instead of a failing request.
 */
export const PLACEHOLDER_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" rx="6" fill="#eef0f3"/><g fill="none" stroke="#b4bac4" stroke-width="3" stroke-linejoin="round"><rect x="24" y="28" width="48" height="40" rx="3"/><path d="M28 62l13-14 9 9 6-6 12 11"/></g><circle cx="58" cy="39" r="4" fill="#b4bac4"/></svg>`;

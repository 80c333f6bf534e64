/**
 * The per-row work of the import that needs no database: JSON parsing (readRows.ts), the source digest,
 * mapping and validation (validate.ts). It runs in a worker thread beside the writing thread when it can
 * (prepareWorker.ts), else in the importing thread; both give the same {@link PreparedRow}s in file order.
 *
 * An artwork is checked with a placeholder author id (1): the registry rules on `author` (an integer
 * 1..2147483647) hold for every stored author id, so the outcome is the same; the importer puts the real
 * id into the record.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { primaryArtistId, sourceDigest, type MappedArtwork, type MappedAuthor } from './mapping';
import { readRows, type RowRead } from './readRows';
import { checkArtist, checkArtwork, type Reason } from './validate';

/** What the importer needs of one source row. */
export interface PreparedRow {
  /** 1-based line (0 for whole-document reads). */
  line: number;
  /** The JSON error of an unparsable row. */
  error?: string;
  /** The row is a JSON object. */
  isObject: boolean;
  /** The row's `id` (artist id / Tate artwork id), when it has the key. */
  id?: unknown;
  hasId: boolean;
  /** Artworks: the row's `acno`, `contributors[0].id` and source digest. */
  acno?: unknown;
  artistId?: number;
  digest?: string;
  /** The mapped record when valid, and every reason otherwise. */
  record: MappedArtwork | MappedAuthor | null;
  reasons: Reason[];
}

export type ImportKind = 'artists' | 'artworks';

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Prepares one row read from a file of `kind`. Each outcome is one object literal (no spreads: they cost
 * a twentieth of the import worker's time, issue 10 profile).
 */
export function prepareRow(kind: ImportKind, r: RowRead): PreparedRow {
  const row = r.row;
  const line = r.line;
  if (r.error !== undefined)
    return { line, isObject: false, record: null, reasons: [], error: r.error, hasId: false };
  if (!isObj(row)) {
    const { reasons } = kind === 'artists' ? checkArtist(row) : checkArtwork(row, 1);
    return { line, isObject: false, record: null, reasons, hasId: false };
  }
  if (kind === 'artists') {
    const { id } = row;
    const hasId = 'id' in row;
    const { record, reasons } = checkArtist(row);
    return { line, isObject: true, id, hasId, record, reasons };
  }
  // The digest of the row as read, before validation (whose `useDefaults` may add to it).
  const digest = sourceDigest(row);
  const { acno, id } = row;
  const hasId = 'id' in row;
  const artistId = primaryArtistId(row);
  const { record, reasons } = checkArtwork(row, 1);
  return { line, isObject: true, id, hasId, acno, artistId, digest, record, reasons };
}

/** Byte progress of the file being read. */
export type OnBytes = (read: number, total: number) => void;

/** Batches of prepared rows of `file`, prepared in this thread. */
export async function* preparedInThread(
  file: string,
  kind: ImportKind,
  size: number,
  onBytes: OnBytes,
): AsyncGenerator<PreparedRow[]> {
  let batch: PreparedRow[] = [];
  for await (const r of readRows(file, (p) => onBytes(p.bytesRead, p.bytesTotal))) {
    batch.push(prepareRow(kind, r));
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** Messages of prepareWorker.ts. */
export type WorkerMessage =
  | { type: 'batch'; rows: PreparedRow[]; read: number; total: number }
  | { type: 'done' }
  | { type: 'error'; message: string };

/** Batches the worker may prepare ahead of the writer. */
const AHEAD = 4;

/** Batches prepared by a worker started at once (see {@link startPrepared}). */
export interface PreparedBatches {
  batches: AsyncGenerator<PreparedRow[]>;
  /** Stops the worker (also when `batches` was never read); idempotent. */
  close(): Promise<void>;
}

/**
 * Starts prepareWorker with `workerData`. In the production bundle (scripts/build-server.ts) the worker
 * is the plain-JavaScript `prepareWorker.mjs` beside the running module, started without loader flags.
 * From the sources (tsx: tests, `npm run server`) there is no such file: the worker registers tsx's
 * loader, which it does not inherit, then loads prepareWorker.ts (about 0.3 s of CPU more per worker).
 */
function startWorker(workerData: Record<string, unknown>): Worker {
  const bundled = new URL('./prepareWorker.mjs', import.meta.url);
  if (import.meta.url.endsWith('.mjs') && existsSync(bundled))
    return new Worker(bundled, { workerData, execArgv: [] });
  const url = new URL('./prepareWorker.ts', import.meta.url).href;
  const boot = `import('tsx/esm/api').then((m) => m.register(), () => {}).then(() => import(${JSON.stringify(url)}))`;
  return new Worker(boot, { eval: true, workerData });
}

/**
 * Batches of prepared rows of `file`, prepared by a worker thread (prepareWorker.ts) at most
 * {@link AHEAD} batches ahead of the consumer; in this thread when no worker can start (e.g. a runner
 * that cannot load TypeScript in a worker). The worker starts when the batches are first read.
 */
export async function* prepared(
  file: string,
  kind: ImportKind,
  size: number,
  onBytes: OnBytes,
  onWorker?: () => void,
): AsyncGenerator<PreparedRow[]> {
  const p = startPrepared(file, kind, size, onBytes, onWorker);
  try {
    yield* p.batches;
  } finally {
    await p.close();
  }
}

/**
 * As {@link prepared}, but the worker starts now: the importer starts the artworks' worker before the
 * artists are written, so that its start-up (loading the modules and the validators, about a second) and
 * its first batches overlap the artists phase instead of following it (issue 10). Call `close()` when
 * done, whether or not the batches were read.
 */
export function startPrepared(
  file: string,
  kind: ImportKind,
  size: number,
  onBytes: OnBytes,
  onWorker?: () => void,
): PreparedBatches {
  let worker: Worker | undefined;
  try {
    worker = startWorker({ file, kind, size, ahead: AHEAD });
  } catch {
    worker = undefined;
  }
  if (!worker) return { batches: preparedInThread(file, kind, size, onBytes), close: async () => {} };
  const w = worker;
  const queue: WorkerMessage[] = [];
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  let started = false;
  let exited = false;
  let reported = false;
  w.on('message', (m: WorkerMessage) => {
    started = true;
    queue.push(m);
    wake?.();
  });
  w.on('error', (e) => {
    failure = e;
    wake?.();
  });
  w.on('exit', () => {
    exited = true;
    wake?.();
  });
  let closed: Promise<void> | undefined;
  const close = () => (closed ??= w.terminate().then(() => undefined));
  async function* batches(): AsyncGenerator<PreparedRow[]> {
    try {
      for (;;) {
        while (!queue.length && !failure && !exited) await new Promise<void>((r) => (wake = r));
        if (!queue.length) {
          failure ??= new Error('the import worker stopped before the end of the file');
          if (!started) {
            // The worker could not load: prepare here instead.
            yield* preparedInThread(file, kind, size, onBytes);
            return;
          }
          throw failure;
        }
        const m = queue.shift()!;
        if (m.type === 'done') return;
        if (m.type === 'error') throw new Error(m.message);
        onBytes(m.read, m.total);
        if (!reported) {
          reported = true;
          onWorker?.();
        }
        w.postMessage('next');
        yield m.rows;
      }
    } finally {
      await close();
    }
  }
  return { batches: batches(), close };
}

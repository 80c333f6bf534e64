/**
 * Streams the rows of a Tate-format JSON file, plain or gzipped (detected by the gzip magic bytes
 * 1f 8b, not by the name).
 *
 * Accepted layouts:
 * - a JSON array written one object per line (`[`, `{...},` lines, `]`): the layout of Tate's files in
 *   ../shared/data/tate/ (from the repository root); read line by line, so a 130 MB array never sits in memory whole;
 * - JSON Lines (one object per line, no brackets);
 * - any other JSON array (e.g. pretty-printed or on one line): read whole, then parsed.
 * A line that does not parse in the line layouts is yielded as an error for that row (the run goes on).
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { Transform, type Readable } from 'node:stream';

/** One row read: `row` when its JSON parsed, else `error`. `line` is 1-based (0 for whole-document reads). */
export interface RowRead {
  line: number;
  row?: unknown;
  error?: string;
}

/** Byte progress of the file on disk (compressed bytes for a .gz). */
export interface ReadProgress {
  bytesRead: number;
  bytesTotal: number;
}

async function isGzip(file: string): Promise<boolean> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(2);
    const { bytesRead } = await fh.read(buf, 0, 2, 0);
    return bytesRead === 2 && buf[0] === 0x1f && buf[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

async function byteStream(file: string, onBytes?: (p: ReadProgress) => void): Promise<Readable> {
  const bytesTotal = (await stat(file)).size;
  let bytesRead = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      bytesRead += chunk.length;
      onBytes?.({ bytesRead, bytesTotal });
      cb(null, chunk);
    },
  });
  // Larger reads and inflate chunks than the 64/16 KiB defaults: about half the gunzip time (issue 10).
  const raw = createReadStream(file, { highWaterMark: 1 << 20 }).pipe(counter);
  return (await isGzip(file)) ? raw.pipe(createGunzip({ chunkSize: 1 << 18 })) : raw;
}

/**
 * Yields every row of `file` in order.
 * @param onBytes called as compressed/raw bytes are read (for a progress bar)
 * @throws when the file cannot be read, is not valid gzip, or (whole-document layout) is not a JSON array
 */
export async function* readRows(file: string, onBytes?: (p: ReadProgress) => void): AsyncGenerator<RowRead> {
  const lines = splitLines(await byteStream(file, onBytes));
  let lineNo = 0;
  let layout: 'array-lines' | 'json-lines' | 'whole' | undefined;
  let arrayClosed = false;
  let parsed = 0;
  for await (const raw of lines) {
    lineNo++;
    const text = raw.trim();
    if (!text) continue;
    if (!layout) {
      if (text === '[') {
        layout = 'array-lines';
        continue;
      }
      if (text.startsWith('{') && parses(text.replace(/,$/, ''))) layout = 'json-lines';
      else {
        layout = 'whole';
        break;
      }
    }
    if (layout === 'array-lines' && text === ']') {
      arrayClosed = true;
      continue;
    }
    if (arrayClosed) {
      yield { line: lineNo, error: 'content after the closing "]" of the array' };
      continue;
    }
    const body = text.endsWith(',') ? text.slice(0, -1) : text;
    let row: unknown;
    try {
      row = JSON.parse(body);
    } catch (e) {
      if (layout === 'array-lines' && parsed === 0) {
        // "[" on its own line but the objects are not one per line: read the document whole.
        layout = 'whole';
        break;
      }
      yield { line: lineNo, error: `not valid JSON: ${(e as Error).message}` };
      continue;
    }
    parsed++;
    yield { line: lineNo, row };
  }
  await lines.return(undefined);
  if (layout === 'array-lines' && !arrayClosed)
    yield { line: lineNo, error: 'the array is not closed by "]": the file looks truncated' };
  if (layout !== 'whole') return;
  let whole = '';
  const decoder = new TextDecoder();
  for await (const chunk of await byteStream(file, onBytes))
    whole += decoder.decode(chunk as Buffer, { stream: true });
  whole += decoder.decode();
  const doc: unknown = JSON.parse(whole);
  if (!Array.isArray(doc)) throw new Error(`${file}: expected a JSON array of rows`);
  for (const row of doc) yield { line: 0, row };
}

/**
 * The lines of a byte stream of UTF-8 text, as node:readline gives them with `crlfDelay: Infinity` (a line
 * ends at "\n", "\r\n" or a lone "\r"; a last line without an ending counts). Split on the bytes, each
 * line decoded on its own: the bytes 0x0a and 0x0d never occur inside a UTF-8 sequence, so a line never
 * cuts a character, and no chunk is decoded and concatenated whole (string_decoder and the flattening of
 * `rest + chunk` cost a sixth of the import worker's time, issue 10 profile; readline's async iterator cost
 * a tenth before that). Closing the iterator destroys the stream.
 */
export async function* splitLines(input: Readable): AsyncGenerator<string> {
  /** The start of a line that continues in the next chunk. */
  let rest: Buffer | undefined;
  let pendingCr = false;
  try {
    for await (const data of input) {
      const chunk: Buffer = typeof data === 'string' ? Buffer.from(data) : data;
      let start = 0;
      // A "\r" ending the previous chunk ended a line; a "\n" starting this one belongs to it.
      if (pendingCr && chunk[0] === LF) start = 1;
      pendingCr = false;
      for (;;) {
        const nl = chunk.indexOf(LF, start);
        if (nl < 0) break;
        const line = rest
          ? Buffer.concat([rest, chunk.subarray(start, nl)]).toString('utf8')
          : chunk.toString('utf8', start, nl);
        rest = undefined;
        yield* crParts(line);
        start = nl + 1;
      }
      if (start < chunk.length) rest = rest ? Buffer.concat([rest, chunk]) : chunk.subarray(start);
      if (rest && rest[rest.length - 1] === CR) {
        yield* crParts(rest.toString('utf8'));
        rest = undefined;
        pendingCr = true;
      }
    }
    if (rest?.length) yield* crParts(rest.toString('utf8'));
  } finally {
    input.destroy();
  }
}

const LF = 0x0a;
const CR = 0x0d;

/** The lines of a piece ending at "\n" (or at a "\r" / the end): split at lone "\r"s, one trailing "\r" dropped. */
function* crParts(piece: string): Generator<string> {
  if (!piece.includes('\r')) {
    yield piece;
    return;
  }
  const parts = (piece.endsWith('\r') ? piece.slice(0, -1) : piece).split('\r');
  yield* parts;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

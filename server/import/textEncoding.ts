/**
 * The text encoding of an uploaded table file, detected from its bytes, and its streaming decoding (the
 * console's import, table.ts). What spreadsheet programs save:
 * - UTF-8, with or without a byte-order mark (EF BB BF; the console's own export writes one);
 * - GB18030 / GBK: Excel's "CSV" on a Chinese Windows (code page 936; GB18030 is its superset, the WHATWG
 *   Encoding Standard decodes both labels with the same decoder);
 * - UTF-16 LE or BE with a byte-order mark (FF FE / FE FF): Excel's "Unicode text" (tab-separated);
 *   without one, when the NUL bytes of ASCII text fall on every other byte.
 * Rules, in order: a byte-order mark decides (UTF-32's is refused: TextDecoder has no UTF-32); NUL bytes in
 * the first 4 KiB mean UTF-16 without a mark when they fall on one parity, else binary (refused); the
 * bytes before the first non-ASCII byte are ASCII in every candidate and are passed on as they come; from
 * the first non-ASCII byte, {@link SAMPLE} bytes (or the rest of the file) are tried as UTF-8, then as
 * GB18030, with fatal decoders: the first that decodes them is the file's encoding; none refuses the file.
 * The rest of the file is decoded with a fatal decoder of that encoding: a byte sequence it cannot decode
 * later refuses the file too ({@link EncodingError}), naming the encoding and the byte offset.
 * Limits: any byte string that is valid GB18030 is taken as GB18030, so Big5 or Shift_JIS text, which
 * mostly is, would be read as GB18030 (wrong characters) rather than refused. Node's TextDecoder (full ICU)
 * does the decoding; nothing here holds more than a chunk and the sample.
 */

/** Bytes from the first non-ASCII byte that decide between UTF-8 and GB18030. */
export const SAMPLE = 64 * 1024;
/** Bytes at the start searched for NUL bytes (UTF-16 without a byte-order mark, binary data). */
const HEAD = 4096;

/** An encoding the import reads: the WHATWG label TextDecoder takes. */
export type TextEncodingLabel = 'utf-8' | 'gb18030' | 'utf-16le' | 'utf-16be';

/** What detection found: an encoding to decode with, and how it was told. */
export interface Detected {
  encoding: TextEncodingLabel;
  /** A byte-order mark (it is skipped). */
  bom: boolean;
  /** The encoding's name as people know it, e.g. "UTF-8", "GB18030 (GBK)", "UTF-16 LE". */
  name: string;
}

/**
 * A file the import cannot decode. `found` says what it is, in English and Chinese (a message param,
 * common/messages `{en, zh}`); `message` is the English text.
 */
export class EncodingError extends Error {
  constructor(public readonly found: { en: string; zh: string }) {
    super(found.en);
  }
}

const NAMES: Record<TextEncodingLabel, string> = {
  'utf-8': 'UTF-8',
  gb18030: 'GB18030 (GBK)',
  'utf-16le': 'UTF-16 LE',
  'utf-16be': 'UTF-16 BE',
};

const found = (encoding: TextEncodingLabel, bom: boolean): Detected => ({
  encoding,
  bom,
  name: NAMES[encoding],
});

/** The encoding a byte-order mark at the start of `head` names (or refuses); undefined without one. */
export function byteOrderMark(head: Uint8Array): Detected | undefined {
  const [a, b, c, d] = head;
  if (a === 0xef && b === 0xbb && c === 0xbf) return found('utf-8', true);
  if (a === 0xff && b === 0xfe && c === 0 && d === 0)
    throw new EncodingError({
      en: 'UTF-32 LE (byte-order mark FF FE 00 00)',
      zh: 'UTF-32 LE（字节顺序标记 FF FE 00 00）',
    });
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff)
    throw new EncodingError({
      en: 'UTF-32 BE (byte-order mark 00 00 FE FF)',
      zh: 'UTF-32 BE（字节顺序标记 00 00 FE FF）',
    });
  if (a === 0xff && b === 0xfe) return found('utf-16le', true);
  if (a === 0xfe && b === 0xff) return found('utf-16be', true);
  if (a === 0x84 && b === 0x31 && c === 0x95 && d === 0x33) return found('gb18030', true);
  return undefined;
}

/**
 * UTF-16 without a byte-order mark when `head` has NUL bytes on one parity only (ASCII characters in
 * UTF-16), undefined when it has none; refuses binary data (NUL bytes on both parities).
 */
export function nulPattern(head: Uint8Array): Detected | undefined {
  let even = 0;
  let odd = 0;
  for (let i = 0; i < head.length; i++) {
    if (head[i] !== 0) continue;
    if (i % 2) odd++;
    else even++;
  }
  if (!even && !odd) return undefined;
  const half = Math.floor(head.length / 2);
  if (odd > half * 0.3 && even === 0) return found('utf-16le', false);
  if (even > half * 0.3 && odd === 0) return found('utf-16be', false);
  throw new EncodingError({
    en: 'binary data (NUL bytes), not text',
    zh: '二进制数据（含 NUL 字节），不是文本',
  });
}

const decodes = (label: TextEncodingLabel, bytes: Uint8Array, complete: boolean) => {
  try {
    new TextDecoder(label, { fatal: true }).decode(bytes, { stream: !complete });
    return true;
  } catch {
    return false;
  }
};

/**
 * The encoding of `sample`, bytes from the first non-ASCII byte of a file without a byte-order mark:
 * UTF-8 when they decode as UTF-8, else GB18030 when they decode as GB18030, else refused.
 * @param complete the sample reaches the end of the file (a sequence cut at its end is then an error)
 * @throws EncodingError naming what the bytes are not
 */
export function sniff(sample: Uint8Array, complete: boolean): Detected {
  if (decodes('utf-8', sample, complete)) return found('utf-8', false);
  if (decodes('gb18030', sample, complete)) return found('gb18030', false);
  const hex = Array.from(sample.subarray(0, 4), (b) => b.toString(16).toUpperCase().padStart(2, '0')).join(
    ' ',
  );
  throw new EncodingError({
    en: `an 8-bit encoding such as Windows-1252 or Latin-1, not UTF-8, GB18030 (GBK) or UTF-16 (bytes ${hex} …)`,
    zh: `Windows-1252、Latin-1 等单字节编码，不是 UTF-8、GB18030（GBK）或 UTF-16（字节 ${hex} …）`,
  });
}

/** The index of the first byte of `bytes` from `from` that is not printable ASCII text (≥ 0x80 or NUL), or -1. */
function firstNonAscii(bytes: Uint8Array, from = 0): number {
  for (let i = from; i < bytes.length; i++) if (bytes[i] >= 0x80 || bytes[i] === 0) return i;
  return -1;
}

/**
 * Decodes a byte stream of text (see the module doc) into strings, chunk by chunk.
 * @param onDetected called once with the encoding (before the first non-ASCII text is yielded; a file of
 *   ASCII only is reported as UTF-8 at its end)
 * @throws EncodingError when the encoding is refused, or a later byte sequence does not decode in it
 */
export async function* decodeText(
  chunks: AsyncIterable<Uint8Array>,
  onDetected?: (d: Detected) => void,
): AsyncGenerator<string> {
  let decoder: TextDecoder | undefined;
  let detected: Detected | undefined;
  /** Bytes held back: the start (until HEAD bytes are seen), or the sample after the first non-ASCII byte. */
  let held: Buffer = Buffer.alloc(0);
  /** Bytes of the file before `held` (decoded or passed on). */
  let offset = 0;
  let started = false;
  const decode = (bytes: Uint8Array, last = false): string => {
    try {
      return last ? decoder!.decode(bytes) : decoder!.decode(bytes, { stream: true });
    } catch {
      throw new EncodingError({
        en: `not valid ${detected!.name} after byte ${offset.toLocaleString('en')}`,
        zh: `第 ${offset} 字节之后不是有效的 ${detected!.name}`,
      });
    }
  };
  const choose = (d: Detected) => {
    detected = d;
    decoder = new TextDecoder(d.encoding, { fatal: true, ignoreBOM: false });
    onDetected?.(d);
  };
  for await (const chunk of chunks) {
    if (decoder) {
      const text = decode(chunk);
      offset += chunk.length;
      if (text) yield text;
      continue;
    }
    held = held.length ? Buffer.concat([held, chunk]) : Buffer.from(chunk);
    if (!started) {
      if (held.length < HEAD) continue;
      started = true;
      const d = byteOrderMark(held) ?? nulPattern(held.subarray(0, HEAD));
      if (d) {
        choose(d);
        const text = decode(held);
        offset += held.length;
        held = Buffer.alloc(0);
        if (text) yield text;
        continue;
      }
    }
    const i = firstNonAscii(held);
    if (i !== 0 && held.length) {
      // ASCII reads the same in every candidate: passed on as it comes.
      const ascii = i < 0 ? held.length : i;
      yield held.toString('latin1', 0, ascii);
      offset += ascii;
      held = held.subarray(ascii);
    }
    if (held.length < SAMPLE) continue;
    choose(sniff(held, false));
    const text = decode(held);
    offset += held.length;
    held = Buffer.alloc(0);
    if (text) yield text;
  }
  if (!decoder) {
    const d =
      (!started && (byteOrderMark(held) ?? nulPattern(held))) ||
      (firstNonAscii(held) < 0 ? found('utf-8', false) : undefined);
    if (d) choose(d);
    else {
      const i = firstNonAscii(held);
      if (i > 0) {
        yield held.toString('latin1', 0, i);
        offset += i;
        held = held.subarray(i);
      }
      choose(sniff(held, true));
    }
  }
  const text = decode(held, true);
  if (text) yield text;
}

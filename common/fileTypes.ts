/**
 * The upload file type groups, in ONE place for the server's content check and every upload input of the
 * console. Groups and extensions are the product's (specification §9 "Upload file type groups"): image
 * (png, jpg, jpeg, bmp, gif; plus webp, accepted before), txt, excel (xls, xlsx), word (doc, docx), pdf,
 * ppt (ppt, pptx), video (mp4, m2v, mkv), audio (mp3, wav, wmv: the product lists Windows Media's wmv
 * under audio).
 *
 * A file is recognised by its content (magic numbers), never by the name or type the client sent:
 * - JPEG `FF D8 FF`; PNG `89 50 4E 47 0D 0A 1A 0A`; GIF `GIF87a`/`GIF89a`; WebP `RIFF....WEBP`; BMP `BM`;
 * - PDF `%PDF-`;
 * - Office 97-2003 (xls, doc, ppt): the Compound File header `D0 CF 11 E0 A1 B1 1A E1` (which of the three
 *   is read from the name's extension when it is one of them; the container is the same);
 * - Office Open XML (xlsx, docx, pptx): a ZIP (`PK 03 04`) holding an `xl/`, `word/` or `ppt/` part;
 * - MP4 `ftyp` at byte 4; Matroska (mkv) `1A 45 DF A3`; MPEG-2 video (m2v) `00 00 01 B3` / `00 00 01 BA`;
 * - MP3: an ID3v2 tag (`ID3`) or an MPEG audio layer III frame header (11 sync bits `FF Ex`, layer bits
 *   `01`; ISO/IEC 11172-3 section 2.4.1.3); WAV `RIFF....WAVE`; WMV (ASF) its header object GUID
 *   `30 26 B2 75 8E 66 CF 11 A6 D9 00 AA 00 62 CE 6C`;
 * - txt: valid UTF-8 without NUL bytes.
 * Pure: no Node or DOM API, usable by server and console.
 */
import { deref } from '../kernel/dialect/deref';

/** The names of the groups, as schemas write them in `x-upload.types`. */
export const FILE_GROUPS = ['image', 'txt', 'excel', 'word', 'pdf', 'ppt', 'video', 'audio'] as const;
export type FileGroup = (typeof FILE_GROUPS)[number];

/** Extension → MIME type, per group (the console's `accept` attribute is built from these). */
export const FILE_TYPES: Record<FileGroup, Record<string, string>> = {
  image: {
    png: 'image/png',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    bmp: 'image/bmp',
    gif: 'image/gif',
    webp: 'image/webp',
  },
  txt: { txt: 'text/plain' },
  excel: {
    xls: 'application/vnd.ms-excel',
    xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  },
  word: {
    doc: 'application/msword',
    docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  },
  pdf: { pdf: 'application/pdf' },
  ppt: {
    ppt: 'application/vnd.ms-powerpoint',
    pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  },
  video: { mp4: 'video/mp4', m2v: 'video/mpeg', mkv: 'video/x-matroska' },
  audio: { mp3: 'audio/mpeg', wav: 'audio/wav', wmv: 'video/x-ms-wmv' },
};

/** What a file's content was recognised as. */
export interface FileKind {
  group: FileGroup;
  /** The stored file's extension (lower case, no dot). */
  ext: string;
  mime: string;
}

/** The ASF header object's GUID (Windows Media: wmv, wma). */
const ASF = [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9, 0x00, 0xaa, 0x00, 0x62, 0xce, 0x6c];

const CFB = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const startsWith = (b: Uint8Array, sig: number[], at = 0) =>
  b.length >= at + sig.length && sig.every((x, i) => b[at + i] === x);

const ascii = (b: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...b.subarray(from, Math.min(to, b.length)));

/** True when `b` contains the ASCII text `s` (ZIP part names are stored uncompressed in local headers). */
function containsAscii(b: Uint8Array, s: string): boolean {
  const first = s.charCodeAt(0);
  outer: for (let i = 0; i + s.length <= b.length; i++) {
    if (b[i] !== first) continue;
    for (let j = 1; j < s.length; j++) if (b[i + j] !== s.charCodeAt(j)) continue outer;
    return true;
  }
  return false;
}

function isUtf8Text(b: Uint8Array): boolean {
  if (b.length === 0 || b.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
}

const kind = (group: FileGroup, ext: string): FileKind => ({ group, ext, mime: FILE_TYPES[group][ext] });

/**
 * What `bytes` is, by content (see the module doc), or null when it is none of the groups' types.
 * @param filename the client's name, read only to tell xls/doc/ppt apart inside the one Compound File format
 */
export function detectFileKind(bytes: Uint8Array, filename = ''): FileKind | null {
  const b = bytes;
  if (startsWith(b, [0xff, 0xd8, 0xff])) return kind('image', 'jpg');
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return kind('image', 'png');
  if (b.length >= 6 && /^GIF8[79]a$/.test(ascii(b, 0, 6))) return kind('image', 'gif');
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return kind('image', 'webp');
  if (b.length >= 26 && ascii(b, 0, 2) === 'BM') return kind('image', 'bmp');
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WAVE') return kind('audio', 'wav');
  if (startsWith(b, ASF)) return kind('audio', 'wmv');
  if (ascii(b, 0, 3) === 'ID3' || (b.length >= 4 && b[0] === 0xff && (b[1] & 0xe6) === 0xe2))
    return kind('audio', 'mp3');
  if (ascii(b, 0, 5) === '%PDF-') return kind('pdf', 'pdf');
  if (startsWith(b, CFB)) {
    const ext = /\.([a-z]+)$/i.exec(filename)?.[1]?.toLowerCase();
    if (ext === 'doc') return kind('word', 'doc');
    if (ext === 'ppt') return kind('ppt', 'ppt');
    return kind('excel', 'xls');
  }
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04])) {
    if (containsAscii(b, 'word/')) return kind('word', 'docx');
    if (containsAscii(b, 'xl/')) return kind('excel', 'xlsx');
    if (containsAscii(b, 'ppt/')) return kind('ppt', 'pptx');
    return null;
  }
  if (b.length >= 12 && ascii(b, 4, 8) === 'ftyp') return kind('video', 'mp4');
  if (startsWith(b, [0x1a, 0x45, 0xdf, 0xa3])) return kind('video', 'mkv');
  if (startsWith(b, [0x00, 0x00, 0x01, 0xb3]) || startsWith(b, [0x00, 0x00, 0x01, 0xba]))
    return kind('video', 'm2v');
  if (isUtf8Text(b)) return kind('txt', 'txt');
  return null;
}

/**
 * The `accept` attribute of a file input taking `groups`: every extension (with dot) and MIME type;
 * only the extensions `formats` names when given (e.g. `['jpg', 'png']`).
 */
export function acceptOf(groups: readonly FileGroup[], formats?: readonly string[]): string {
  const out = new Set<string>();
  for (const g of groups)
    for (const [ext, mime] of Object.entries(FILE_TYPES[g])) {
      if (formats && !formats.includes(ext) && !(ext === 'jpeg' && formats.includes('jpg'))) continue;
      out.add(`.${ext}`);
      out.add(mime);
    }
  return [...out].join(',');
}

/** How a schema declares an upload field: `x-upload: { types: [group...], formats?: [ext...], maxSize: bytes }`. */
export interface UploadSpec {
  types: FileGroup[];
  /**
   * Narrows the groups to these stored extensions, as content detection names them ({@link FileKind.ext}:
   * `jpg` for every JPEG), e.g. `['jpg', 'png']` for "JPG/PNG only". Absent: every type of the groups.
   */
  formats?: string[];
  /** Largest file in bytes. */
  maxSize: number;
}

/**
 * The group of a stored file's name or URL by its extension (query and fragment ignored), or null: how a
 * screen tells an uploaded image, audio or other file apart from its URL (stored names end in the
 * extension content detection gave them, {@link FileKind.ext}).
 */
export function groupOfName(name: string): FileGroup | null {
  const ext = /\.([a-z0-9]+)$/i.exec(name.split(/[?#]/)[0])?.[1]?.toLowerCase();
  if (!ext) return null;
  return FILE_GROUPS.find((g) => Object.hasOwn(FILE_TYPES[g], ext)) ?? null;
}

/** True when the detected `kind` is one `spec` accepts (its groups, narrowed by its `formats`). */
export function accepts(spec: Pick<UploadSpec, 'types' | 'formats'>, kind: FileKind): boolean {
  return spec.types.includes(kind.group) && (!spec.formats || spec.formats.includes(kind.ext));
}

/** `n` bytes as the product writes limits: "2 MB" (1 MB = 1,048,576 bytes), else KB or bytes. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MB`;
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}

type SchemaNode = { [k: string]: any };

/**
 * The `x-upload` of the property at dotted `path` of a resource schema, walking objects and array items
 * (`images` → the items' spec; `traceability.attachment` → the attachment of a step), or undefined when
 * the property declares none.
 */
export function uploadSpecAt(schema: SchemaNode, path: string): UploadSpec | undefined {
  let node: SchemaNode | undefined = schema;
  for (const part of path.split('.')) {
    node = deref(schema, node);
    if (node?.type === 'array' || (Array.isArray(node?.type) && node.type.includes('array')))
      node = deref(schema, node.items);
    node = node?.properties?.[part];
  }
  node = deref(schema, node);
  const spec = node?.['x-upload'] ?? deref(schema, node?.items)?.['x-upload'];
  return spec as UploadSpec | undefined;
}

/** The image extension for `bytes`, from its magic number, or null when it is not an accepted image. */
export function imageKind(bytes: Uint8Array): 'jpg' | 'png' | 'gif' | 'webp' | 'bmp' | null {
  const k = detectFileKind(bytes);
  return k?.group === 'image' ? (k.ext as 'jpg' | 'png' | 'gif' | 'webp' | 'bmp') : null;
}

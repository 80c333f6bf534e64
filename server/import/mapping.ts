/**
 * Pure mapping from Tate collection rows (tategallery/collection, field meanings in
 * ../shared/data/tate/README.md from the repository root, "Mapping to the registry's entities") to the registry's author and
 * artwork records (schemas/author.schema.json, schemas/artwork.schema.json).
 *
 * The mappers are total: they never throw, whatever the row holds. Values of the wrong type are passed
 * through unchanged so that the registry schema reports them; nothing is shortened. The only
 * normalisation is {@link foldLines} on multi-line texts (dimensions, medium, creditLine).
 *
 * Meaning of createTime: the registry's createTime is when the record entered the registry (the import
 * time, set by the importer); the date the work was made lives in `baseInfo.dateText` /
 * `baseInfo.startYear` / `baseInfo.endYear`, the date Tate acquired it in `dealInfo.acquisitionYear`.
 */
import { sha256Hex } from '../ledger/merkle';

/** Where Tate's `additionalImages[].sizes[].file` paths are relative to (README, artwork fields). */
export const TATE_IMAGE_BASE = 'http://www.tate.org.uk/art/images/work/';
/** The owner of every Tate work. */
export const TATE_POSSESSOR = 'Tate';
/** The owner of ARTIST ROOMS works (`artistRooms: true`), held jointly. */
export const TATE_ARTIST_ROOMS_POSSESSOR = 'Tate and National Galleries of Scotland';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Folds multi-line text onto one line: each line is trimmed, empty lines dropped, the rest joined with
 * "; " ("support: 394 x 419 mm\r\nframe: 500 x 520 mm" → "support: 394 x 419 mm; frame: 500 x 520 mm").
 * Non-strings are returned unchanged.
 */
export function foldLines<T>(value: T): T | string {
  if (typeof value !== 'string') return value;
  if (!/[\r\n]/.test(value)) return value.trim();
  return value
    .split(/\r\n|\r|\n/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .join('; ');
}

/**
 * JSON with object keys sorted at every level (arrays keep their order): a stable text for hashing.
 * Exactly `JSON.stringify` of a copy whose keys were inserted in sorted order (the text digests of
 * earlier imports were made with), so keys that are array indexes ("2", "10") come first in numeric
 * order, as JavaScript orders such keys; written directly (no copy) since it runs on every imported row.
 */
export function canonicalJson(value: unknown): string {
  // Tate's rows come with their keys already sorted: then the text is JSON.stringify's own (native, about
  // four times faster than building it here; the digest was a fifth of the import's time, issue 10).
  if (inOrder(value)) return JSON.stringify(value);
  return canonical(value, false) ?? 'null';
}

/**
 * Whether JSON.stringify of `value` already is its canonical text: every object's keys in canonical
 * order (JavaScript lists index keys first, ascending, so the other keys must ascend), and nothing
 * JSON.stringify would treat specially (undefined, functions, symbols, bigints, toJSON).
 */
function inOrder(value: unknown): boolean {
  if (value === null) return true;
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean') return true;
  if (type !== 'object') return false;
  if (Array.isArray(value)) {
    for (const x of value) if (!inOrder(x)) return false;
    return true;
  }
  const v = value as Record<string, unknown>;
  if (typeof v.toJSON === 'function') return false;
  let previous: string | undefined;
  for (const k in v) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) return false;
    if (!isIndexKey(k)) {
      if (previous !== undefined && !(previous < k)) return false;
      previous = k;
    }
    if (!inOrder(v[k])) return false;
  }
  return true;
}

/** An array-index-like key (`0`, `1`, ..., below 2^32 - 1), which JavaScript lists before the others. */
const isIndexKey = (k: string) => {
  const c = k.charCodeAt(0);
  // Most keys start with a letter: no regular expression for them (it cost 2% of the import's worker).
  return c >= 48 && c <= 57 && /^(?:0|[1-9]\d*)$/.test(k) && Number(k) < 4294967295;
};

/** An object layout's keys in canonical order, each with its JSON text and `:` (see {@link keyOrder}). */
interface KeyOrder {
  keys: string[];
  prefixes: string[];
}

/** Key orders by layout (the keys as `Object.keys` lists them, joined by NUL); rows repeat a few layouts. */
const keyOrders = new Map<string, KeyOrder>();
/** Layouts remembered at most (a file of ever-new layouts falls back to sorting each object). */
const MAX_KEY_ORDERS = 4096;

/** The canonical key order of an object with `keys` (Object.keys order): sorted, index keys first. */
function keyOrder(keys: string[]): KeyOrder {
  const layout = keys.join('\0');
  let order = keyOrders.get(layout);
  if (!order) {
    const sorted = [...keys].sort();
    const ints = sorted.filter(isIndexKey);
    const ordered = ints.length
      ? [...ints.sort((x, y) => Number(x) - Number(y)), ...sorted.filter((k) => !isIndexKey(k))]
      : sorted;
    order = { keys: ordered, prefixes: ordered.map((k) => `${JSON.stringify(k)}:`) };
    if (keyOrders.size < MAX_KEY_ORDERS) keyOrders.set(layout, order);
  }
  return order;
}

/** `JSON.stringify` of one value; undefined for what an object drops (undefined, functions, symbols). */
function canonical(value: unknown, inArray: boolean): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      return inArray ? 'null' : undefined;
  }
  const v = value as Record<string, unknown> & { toJSON?: unknown };
  if (typeof v.toJSON === 'function') return canonical(JSON.parse(JSON.stringify(v)), inArray);
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i ? ',' : '') + canonical(v[i], true);
    return `${out}]`;
  }
  // The key order of each object layout is worked out once (sorting every object's keys was a tenth of
  // the import's time in the issue 10 profile).
  const { keys, prefixes } = keyOrder(Object.keys(v));
  let out = '';
  for (let i = 0; i < keys.length; i++) {
    const text = canonical(v[keys[i]], false);
    if (text === undefined) continue;
    out += (out ? ',' : '') + prefixes[i] + text;
  }
  return `{${out}}`;
}

/** SHA-256 (lowercase hex) of the row's {@link canonicalJson}: the artwork's `sourceDigest`. */
export function sourceDigest(row: unknown): string {
  // One-shot hashing (sha256Hex): a Hash object per row cost a twentieth of the import worker's time.
  return sha256Hex(canonicalJson(row));
}

/** The author fields an import writes (validated with `author.create`, stored with `sourceId`). */
export interface MappedAuthor {
  authorName: unknown;
  introduction: string | null;
}

/**
 * Composes an author's introduction from a Tate artist row (Tate has no biography text):
 * "<life dates>. Born <birth place>; died <death place>. <movement>, <movement>." — each part only when
 * the row has it. Turner (id 558) gives
 * "1775–1851. Born London, United Kingdom; died Chelsea, United Kingdom. Picturesque, Romanticism, Sublime."
 * @returns the text, or null when the row has none of the parts.
 */
export function composeIntroduction(artist: Obj): string | null {
  const sentences: string[] = [];
  const date = typeof artist.date === 'string' ? artist.date.trim() : '';
  if (date) sentences.push(date);
  const placeOf = (key: 'birth' | 'death'): string => {
    const event = artist[key];
    const place = isObj(event) ? event.place : undefined;
    const name = isObj(place) ? place.name : undefined;
    return typeof name === 'string' ? name.trim() : '';
  };
  const born = placeOf('birth');
  const died = placeOf('death');
  if (born && died) sentences.push(`Born ${born}; died ${died}`);
  else if (born) sentences.push(`Born ${born}`);
  else if (died) sentences.push(`Died ${died}`);
  const movements = Array.isArray(artist.movements)
    ? [
        ...new Set(
          artist.movements
            .map((m) => (isObj(m) && typeof m.name === 'string' ? m.name.trim() : ''))
            .filter(Boolean),
        ),
      ]
    : [];
  if (movements.length) sentences.push(movements.join(', '));
  if (!sentences.length) return null;
  return sentences.map((s) => (/[.!?]$/.test(s) ? s : `${s}.`)).join(' ');
}

/** Maps a Tate artist row to the author record: authorName = `fc`, introduction composed. */
export function mapArtist(artist: Obj): MappedAuthor {
  return { authorName: foldLines(artist.fc), introduction: composeIntroduction(artist) };
}

/** The artwork fields an import writes, in `artwork.create` shape (author resolved by the importer). */
export interface MappedArtwork {
  artWorkName: unknown;
  author: number;
  possessor: string;
  classify: unknown;
  texture: unknown;
  images: unknown;
  baseInfo: Obj;
  dealInfo: Obj;
}

/**
 * The artwork's image URLs: the row's own `images` list when present (not a Tate field; lets a curated
 * file state its images), else `thumbnailUrl` (the main picture) followed by one absolute URL per
 * `additionalImages` entry (its "large" size when listed, else its last size). The registry allows 9;
 * longer lists are returned whole so that validation reports them.
 */
export function imagesOf(row: Obj): unknown {
  if ('images' in row) return row.images;
  const out: string[] = [];
  if (typeof row.thumbnailUrl === 'string' && row.thumbnailUrl) out.push(row.thumbnailUrl);
  if (Array.isArray(row.additionalImages))
    for (const view of row.additionalImages) {
      const sizes = isObj(view) && Array.isArray(view.sizes) ? view.sizes.filter(isObj) : [];
      const pick = sizes.find((s) => s.size === 'large') ?? sizes[sizes.length - 1];
      if (pick && typeof pick.file === 'string' && pick.file)
        out.push(
          /^https?:\/\//.test(pick.file) ? pick.file : TATE_IMAGE_BASE + pick.file.replace(/^\/+/, ''),
        );
    }
  return out;
}

/** The Tate artist id of the primary author (`contributors[0].id`), or undefined when there is none. */
export function primaryArtistId(row: Obj): number | undefined {
  const first = Array.isArray(row.contributors) ? row.contributors[0] : undefined;
  return isObj(first) && Number.isInteger(first.id) ? (first.id as number) : undefined;
}

const orNull = (v: unknown) => (v === undefined ? null : v);

/**
 * Maps a Tate artwork row to an `artwork.create` record. `authorId` is the registry id of the primary
 * author (contributors[0]), resolved by the caller. Field by field (README mapping table):
 * artWorkName = title; classify = classification; texture = medium (folded); possessor = "Tate", or
 * "Tate and National Galleries of Scotland" when artistRooms; images = {@link imagesOf};
 * baseInfo = {size: dimensions (folded), width, height, depth, units (strings, in `units`), dateText,
 * startYear, endYear (dateRange), acno, url, groupTitle}; dealInfo = {creditLine (folded), acquisitionYear}.
 */
export function mapArtwork(row: Obj, authorId: number): MappedArtwork {
  const range = isObj(row.dateRange) ? row.dateRange : {};
  return {
    artWorkName: row.title,
    author: authorId,
    possessor: row.artistRooms === true ? TATE_ARTIST_ROOMS_POSSESSOR : TATE_POSSESSOR,
    classify: row.classification,
    texture: foldLines(row.medium),
    images: imagesOf(row),
    baseInfo: {
      size: orNull(foldLines(row.dimensions)),
      width: orNull(row.width),
      height: orNull(row.height),
      depth: orNull(row.depth),
      units: orNull(row.units),
      dateText: orNull(row.dateText),
      startYear: orNull(range.startYear),
      endYear: orNull(range.endYear),
      acno: orNull(row.acno),
      url: orNull(row.url),
      groupTitle: orNull(row.groupTitle),
    },
    dealInfo: {
      creditLine: orNull(foldLines(row.creditLine)),
      acquisitionYear: orNull(row.acquisitionYear),
    },
  };
}

/**
 * Registry field path → the Tate field it comes from, so that a rejection names the field the operator
 * can find in the source file. Paths not listed map to themselves.
 */
export const SOURCE_FIELD: Record<string, string> = {
  artWorkName: 'title',
  author: 'contributors',
  classify: 'classification',
  texture: 'medium',
  possessor: 'artistRooms',
  images: 'images',
  baseInfo: 'dateRange',
  'baseInfo.size': 'dimensions',
  'baseInfo.width': 'width',
  'baseInfo.height': 'height',
  'baseInfo.depth': 'depth',
  'baseInfo.units': 'units',
  'baseInfo.dateText': 'dateText',
  'baseInfo.startYear': 'dateRange.startYear',
  'baseInfo.endYear': 'dateRange.endYear',
  'baseInfo.acno': 'acno',
  'baseInfo.url': 'url',
  'baseInfo.groupTitle': 'groupTitle',
  dealInfo: 'dealInfo',
  'dealInfo.creditLine': 'creditLine',
  'dealInfo.acquisitionYear': 'acquisitionYear',
  authorName: 'fc',
};

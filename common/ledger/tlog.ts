/**
 * Transparency-log Merkle tree algorithms, browser-safe and synchronous (SHA-256 from @noble/hashes):
 * RFC 6962 section 2.1 (Merkle Tree Hash, audit paths, consistency proofs) as C2SP `merkle-tree`
 * states it, in the shape of Go's reference package golang.org/x/mod/sumdb/tlog (tlog.go, tile.go), so
 * that every function here has a same-named Go twin and the same results:
 *
 * - record hash = SHA-256(0x00 ‖ entry), node hash = SHA-256(0x01 ‖ left ‖ right) (RFC 6962 2.1);
 * - the **stored hashes** of a log of n records are, in order, for each record i: its record hash, then
 *   the hashes of every complete subtree that record i completes (Go's StoredHashIndex numbering), so a
 *   log only ever appends hashes and never rewrites one;
 * - proofs (`proveRecord`, `proveTree`) read O(log n) stored hashes through a `HashReader`; the checks
 *   (`checkRecord`, `checkTree`) need no storage;
 * - tiles follow C2SP `tlog-tiles` (https://c2sp.org/tlog-tiles): height 8, paths
 *   `tile/<L>/<N>[.p/<W>]` and entry bundles `tile/entries/<N>[.p/<W>]`, each entry prefixed by its
 *   length as a big-endian uint16.
 *
 * Sizes and indexes are JavaScript numbers (exact below 2^53, far beyond any log here); no bitwise
 * operator is used on them, since those truncate to 32 bits. Hashes are 32-byte `Uint8Array`s.
 * Errors: `TlogError` for invalid inputs or a reader that returns the wrong number of hashes; the
 * checks return `false` for a proof that does not verify.
 */
import { sha256 } from '@noble/hashes/sha2.js';

/** Bytes in a hash (SHA-256). */
export const HASH_SIZE = 32;
/** C2SP tlog-tiles tile height: a full tile holds 2^8 = 256 hashes. */
export const TILE_HEIGHT = 8;
/** Hashes (or entries) in a full tile (or entry bundle). */
export const TILE_WIDTH = 256;

/** A hash: 32 bytes. */
export type Hash = Uint8Array;

/**
 * An inner node hash, SHA-256(0x01 ‖ left ‖ right) (RFC 6962 2.1): `nodeHash` here; the server passes
 * node:crypto's (server/ledger/merkle.ts), several times faster than the JavaScript SHA-256.
 */
export type NodeHasher = (left: Hash, right: Hash) => Hash;

/**
 * Reads stored hashes by their stored-hash index (`storedHashIndex`); must return exactly one hash per
 * index, in the order asked. Go's `tlog.HashReader`.
 */
export type HashReader = (indexes: number[]) => Hash[];

/** Invalid input or inconsistent storage (Go's tlog returns these as errors). */
export class TlogError extends Error {
  constructor(message: string) {
    super(`tlog: ${message}`);
    this.name = 'TlogError';
  }
}

const ZERO = new Uint8Array([0]);

/** SHA-256(0x00 ‖ data): the leaf hash of an entry (RFC 6962 2.1, Go's `tlog.RecordHash`). */
export function recordHash(data: Uint8Array): Hash {
  return sha256.create().update(ZERO).update(data).digest();
}

/** SHA-256(0x01 ‖ left ‖ right): an inner node (RFC 6962 2.1, Go's `tlog.NodeHash`). */
export function nodeHash(left: Hash, right: Hash): Hash {
  const buf = new Uint8Array(1 + 2 * HASH_SIZE);
  buf[0] = 1;
  buf.set(left, 1);
  buf.set(right, 1 + HASH_SIZE);
  return sha256(buf);
}

/** Whether two hashes are byte-for-byte equal. */
export function hashEqual(a: Hash, b: Hash): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Number of trailing zero bits of a non-negative integer (0 for 0). */
function trailingZeros(x: number): number {
  if (x === 0) return 0;
  let n = 0;
  while (x % 2 === 0) {
    x /= 2;
    n++;
  }
  return n;
}

/** The largest power of 2 strictly below n (n ≥ 2), and its log2 (Go's `maxpow2`). */
function maxpow2(n: number): [number, number] {
  // Doubling, not `2 ** l` per step: exponentiation in this loop was a third of a proof's time.
  let k = 1;
  let l = 0;
  for (; k * 2 < n; l++) k *= 2;
  return [k, l];
}

function checkInt(name: string, v: number): void {
  if (!Number.isSafeInteger(v)) throw new TlogError(`${name} must be a safe integer, got ${v}`);
}

/**
 * The index, in the stored-hash sequence, of the hash of the subtree at `level` numbered `n` (the n-th
 * node of that level, counted from 0; level 0 are record hashes). Go's `tlog.StoredHashIndex`.
 */
export function storedHashIndex(level: number, n: number): number {
  for (let l = level; l > 0; l--) n = 2 * n + 1;
  let i = 0;
  for (; n > 0; n = Math.floor(n / 2)) i += n;
  return i + level;
}

/** The inverse of `storedHashIndex`: `[level, n]`. Go's `tlog.SplitStoredHashIndex`. */
export function splitStoredHashIndex(index: number): [number, number] {
  let n = Math.floor(index / 2);
  let indexN = storedHashIndex(0, n);
  if (indexN > index) throw new TlogError('bad math in splitStoredHashIndex');
  for (;;) {
    const x = indexN + 1 + trailingZeros(n + 1);
    if (x > index) break;
    n++;
    indexN = x;
  }
  const level = index - indexN;
  return [level, Math.floor(n / 2 ** level)];
}

/** Number of stored hashes of a log of n records. Go's `tlog.StoredHashCount`. */
export function storedHashCount(n: number): number {
  if (n === 0) return 0;
  let numHash = storedHashIndex(0, n - 1) + 1;
  for (let i = n - 1; i % 2 === 1; i = Math.floor(i / 2)) numHash++;
  return numHash;
}

/**
 * The stored-hash indexes `storedHashesForRecordHash(n, …)` reads: the left siblings that record n
 * completes, highest level first.
 */
export function storedHashesIndexes(n: number): number[] {
  const m = trailingZeros(n + 1);
  const indexes = new Array<number>(m);
  for (let i = 0; i < m; i++) indexes[m - 1 - i] = storedHashIndex(i, Math.floor(n / 2 ** i) - 1);
  return indexes;
}

/**
 * The hashes to append to storage when record n (0-based) with record hash h is added to a log of n
 * records: h, then each subtree hash it completes. Go's `tlog.StoredHashesForRecordHash`.
 */
export function storedHashesForRecordHash(n: number, h: Hash, r: HashReader): Hash[] {
  checkInt('n', n);
  const indexes = storedHashesIndexes(n);
  const m = indexes.length;
  const old = m ? readExactly(r, indexes) : [];
  const hashes = [h];
  for (let i = 0; i < m; i++) {
    h = nodeHash(old[m - 1 - i], h);
    hashes.push(h);
  }
  return hashes;
}

/** `storedHashesForRecordHash(n, recordHash(data), r)`. Go's `tlog.StoredHashes`. */
export function storedHashes(n: number, data: Uint8Array, r: HashReader): Hash[] {
  return storedHashesForRecordHash(n, recordHash(data), r);
}

function readExactly(r: HashReader, indexes: number[]): Hash[] {
  const hashes = r(indexes);
  if (hashes.length !== indexes.length) {
    throw new TlogError(`ReadHashes(${indexes.length} indexes) = ${hashes.length} hashes`);
  }
  return hashes;
}

/** Stored-hash indexes of the complete subtrees covering records [lo, hi), left to right. */
function subTreeIndex(lo: number, hi: number, need: number[]): number[] {
  while (lo < hi) {
    const [k, level] = maxpow2(hi - lo + 1);
    if (lo % k !== 0) throw new TlogError('bad math in subTreeIndex');
    need.push(storedHashIndex(level, lo / k));
    lo += k;
  }
  return need;
}

/** Folds the subtree hashes of [lo, hi) (read by `subTreeIndex`) into one; returns it and the rest. */
function subTreeHash(
  lo: number,
  hi: number,
  hashes: Hash[],
  at: number,
  node: NodeHasher = nodeHash,
): [Hash, number] {
  let numTree = 0;
  while (lo < hi) {
    const [k] = maxpow2(hi - lo + 1);
    if (lo % k !== 0 || lo >= hi) throw new TlogError('bad math in subTreeHash');
    numTree++;
    lo += k;
  }
  if (hashes.length - at < numTree) throw new TlogError('bad index math in subTreeHash');
  let h = hashes[at + numTree - 1];
  for (let i = numTree - 2; i >= 0; i--) h = node(hashes[at + i], h);
  return [h, at + numTree];
}

/** The stored-hash indexes `treeHash(n, …)` reads. */
export function treeHashIndexes(n: number): number[] {
  return n === 0 ? [] : subTreeIndex(0, n, []);
}

/**
 * The RFC 6962 Merkle Tree Hash of the first n records, from at most log2(n)+1 stored hashes; the
 * all-zero hash for n = 0 (as Go; RFC 6962 defines MTH({}) as SHA-256 of nothing, which no checkpoint
 * here uses since a log has at least its genesis entry). Go's `tlog.TreeHash`.
 */
export function treeHash(n: number, r: HashReader): Hash {
  checkInt('n', n);
  if (n === 0) return new Uint8Array(HASH_SIZE);
  const indexes = treeHashIndexes(n);
  const hashes = readExactly(r, indexes);
  const [h, at] = subTreeHash(0, n, hashes, 0);
  if (at !== hashes.length) throw new TlogError('bad index math in treeHash');
  return h;
}

function leafProofIndex(lo: number, hi: number, n: number, need: number[]): number[] {
  if (!(lo <= n && n < hi)) throw new TlogError('bad math in leafProofIndex');
  if (lo + 1 === hi) return need;
  const [k] = maxpow2(hi - lo);
  if (n < lo + k) {
    leafProofIndex(lo, lo + k, n, need);
    subTreeIndex(lo + k, hi, need);
  } else {
    subTreeIndex(lo, lo + k, need);
    leafProofIndex(lo + k, hi, n, need);
  }
  return need;
}

function leafProof(
  lo: number,
  hi: number,
  n: number,
  hashes: Hash[],
  at: number,
  node: NodeHasher,
): [Hash[], number] {
  if (!(lo <= n && n < hi)) throw new TlogError('bad math in leafProof');
  if (lo + 1 === hi) return [[], at];
  let p: Hash[];
  let th: Hash;
  const [k] = maxpow2(hi - lo);
  if (n < lo + k) {
    [p, at] = leafProof(lo, lo + k, n, hashes, at, node);
    [th, at] = subTreeHash(lo + k, hi, hashes, at, node);
  } else {
    [th, at] = subTreeHash(lo, lo + k, hashes, at, node);
    [p, at] = leafProof(lo + k, hi, n, hashes, at, node);
  }
  p.push(th);
  return [p, at];
}

/** The stored-hash indexes `proveRecord(t, n, …)` reads (for callers that prefetch them). */
export function recordProofIndexes(t: number, n: number): number[] {
  if (!(t >= 0 && n >= 0 && n < t)) throw new TlogError('invalid inputs in ProveRecord');
  return leafProofIndex(0, t, n, []);
}

/**
 * The inclusion proof (RFC 6962 2.1.1 audit path, leaf to root) of record n in the tree of size t.
 * Go's `tlog.ProveRecord`; the proof has at most ⌈log2 t⌉ hashes. `node` hashes the inner nodes it folds.
 */
export function proveRecord(t: number, n: number, r: HashReader, node: NodeHasher = nodeHash): Hash[] {
  return prove('ProveRecord', t, n, r, recordProofIndexes, leafProof, node);
}

/**
 * A proof between sizes t and n: reads the stored hashes `indexesOf` names, then `build` assembles them
 * (both walk the same tree in the same order, as Go's tlog). `name` is Go's function, for the errors.
 */
function prove(
  name: string,
  t: number,
  n: number,
  r: HashReader,
  indexesOf: (t: number, n: number) => number[],
  build: typeof leafProof,
  node: NodeHasher,
): Hash[] {
  checkInt('t', t);
  checkInt('n', n);
  const indexes = indexesOf(t, n);
  if (indexes.length === 0) return [];
  const hashes = readExactly(r, indexes);
  const [p, at] = build(0, t, n, hashes, 0, node);
  if (at !== hashes.length) throw new TlogError(`bad index math in ${name}`);
  return p;
}

function runRecordProof(p: Hash[], len: number, lo: number, hi: number, n: number, leaf: Hash): Hash | null {
  if (lo + 1 === hi) return len === 0 ? leaf : null;
  if (len === 0) return null;
  const [k] = maxpow2(hi - lo);
  if (n < lo + k) {
    const th = runRecordProof(p, len - 1, lo, lo + k, n, leaf);
    return th && nodeHash(th, p[len - 1]);
  }
  const th = runRecordProof(p, len - 1, lo + k, hi, n, leaf);
  return th && nodeHash(p[len - 1], th);
}

/**
 * Whether `proof` proves that record n with record hash h is in the tree of size t and hash th.
 * Go's `tlog.CheckRecord` (which returns an error where this returns false). Throws `TlogError` on
 * invalid sizes.
 */
export function checkRecord(proof: Hash[], t: number, th: Hash, n: number, h: Hash): boolean {
  if (!(t >= 0 && n >= 0 && n < t)) throw new TlogError('invalid inputs in CheckRecord');
  if (proof.some((x) => x.length !== HASH_SIZE)) return false;
  const th2 = runRecordProof(proof, proof.length, 0, t, n, h);
  return th2 !== null && hashEqual(th2, th);
}

function treeProofIndex(lo: number, hi: number, n: number, need: number[]): number[] {
  if (!(lo < n && n <= hi)) throw new TlogError('bad math in treeProofIndex');
  if (n === hi) return lo === 0 ? need : subTreeIndex(lo, hi, need);
  const [k] = maxpow2(hi - lo);
  if (n <= lo + k) {
    treeProofIndex(lo, lo + k, n, need);
    subTreeIndex(lo + k, hi, need);
  } else {
    subTreeIndex(lo, lo + k, need);
    treeProofIndex(lo + k, hi, n, need);
  }
  return need;
}

function treeProof(
  lo: number,
  hi: number,
  n: number,
  hashes: Hash[],
  at: number,
  node: NodeHasher,
): [Hash[], number] {
  if (!(lo < n && n <= hi)) throw new TlogError('bad math in treeProof');
  if (n === hi) {
    if (lo === 0) return [[], at];
    const [th, at2] = subTreeHash(lo, hi, hashes, at, node);
    return [[th], at2];
  }
  let p: Hash[];
  let th: Hash;
  const [k] = maxpow2(hi - lo);
  if (n <= lo + k) {
    [p, at] = treeProof(lo, lo + k, n, hashes, at, node);
    [th, at] = subTreeHash(lo + k, hi, hashes, at, node);
  } else {
    [th, at] = subTreeHash(lo, lo + k, hashes, at, node);
    [p, at] = treeProof(lo + k, hi, n, hashes, at, node);
  }
  p.push(th);
  return [p, at];
}

/** The stored-hash indexes `proveTree(t, n, …)` reads. */
export function treeProofIndexes(t: number, n: number): number[] {
  if (!(t >= 1 && n >= 1 && n <= t)) throw new TlogError('invalid inputs in ProveTree');
  return treeProofIndex(0, t, n, []);
}

/**
 * The consistency proof (RFC 6962 2.1.2) that the tree of size n is a prefix of the tree of size t
 * (1 ≤ n ≤ t). Go's `tlog.ProveTree`; at most 2⌈log2 t⌉ hashes. `node` hashes the inner nodes it folds.
 */
export function proveTree(t: number, n: number, r: HashReader, node: NodeHasher = nodeHash): Hash[] {
  return prove('ProveTree', t, n, r, treeProofIndexes, treeProof, node);
}

function runTreeProof(
  p: Hash[],
  len: number,
  lo: number,
  hi: number,
  n: number,
  old: Hash,
): [Hash, Hash] | null {
  if (n === hi) {
    if (lo === 0) return len === 0 ? [old, old] : null;
    return len === 1 ? [p[0], p[0]] : null;
  }
  if (len === 0) return null;
  const [k] = maxpow2(hi - lo);
  const last = p[len - 1];
  if (n <= lo + k) {
    const r = runTreeProof(p, len - 1, lo, lo + k, n, old);
    return r && [r[0], nodeHash(r[1], last)];
  }
  const r = runTreeProof(p, len - 1, lo + k, hi, n, old);
  return r && [nodeHash(last, r[0]), nodeHash(last, r[1])];
}

/**
 * Whether `proof` proves that the tree of size t and hash th extends the tree of size n and hash h.
 * Go's `tlog.CheckTree` (error there, false here). Throws `TlogError` on invalid sizes.
 */
export function checkTree(proof: Hash[], t: number, th: Hash, n: number, h: Hash): boolean {
  if (!(t >= 1 && n >= 1 && n <= t)) throw new TlogError('invalid inputs in CheckTree');
  if (proof.some((x) => x.length !== HASH_SIZE)) return false;
  const r = runTreeProof(proof, proof.length, 0, t, n, h);
  return r !== null && hashEqual(r[0], h) && hashEqual(r[1], th);
}

// ---------------------------------------------------------------------------------------------------
// Tiles (Go's tile.go; paths per C2SP tlog-tiles)

/**
 * A tile: height H (8 in C2SP), level L (0 = record hashes; -1 = entry bundle), number N within the level
 * and width W (1..2^H; 2^H is a full tile). Go's `tlog.Tile`.
 */
export interface Tile {
  H: number;
  L: number;
  N: number;
  W: number;
}

function tileForIndexRange(h: number, index: number): { tile: Tile; start: number; end: number } {
  const [level0, n0] = splitStoredHashIndex(index);
  const L = Math.floor(level0 / h);
  const level = level0 - L * h; // level within the tile
  const N = Math.floor((n0 * 2 ** level) / 2 ** h);
  const n = n0 - (N * 2 ** h) / 2 ** level; // n within the tile at that level
  return {
    tile: { H: h, L, N, W: (n + 1) * 2 ** level },
    start: n * 2 ** level * HASH_SIZE,
    end: (n + 1) * 2 ** level * HASH_SIZE,
  };
}

/** The smallest tile of height h holding the stored hash `index`. Go's `tlog.TileForIndex`. */
export function tileForIndex(h: number, index: number): Tile {
  if (h <= 0) throw new TlogError(`TileForIndex: invalid height ${h}`);
  return tileForIndexRange(h, index).tile;
}

function tileHash(data: Uint8Array): Hash {
  if (data.length === 0) throw new TlogError('bad math in tileHash');
  if (data.length === HASH_SIZE) return data.slice();
  const n = data.length / 2;
  return nodeHash(tileHash(data.subarray(0, n)), tileHash(data.subarray(n)));
}

/** The stored hash `index` read from tile t's data. Go's `tlog.HashFromTile`. */
export function hashFromTile(t: Tile, data: Uint8Array, index: number): Hash {
  if (t.H < 1 || t.H > 30 || t.L < 0 || t.L >= 64 || t.W < 1 || t.W > 2 ** t.H) {
    throw new TlogError(`invalid tile ${tilePath(t)}`);
  }
  if (data.length < t.W * HASH_SIZE) throw new TlogError(`data len ${data.length} too short for tile`);
  const { tile, start, end } = tileForIndexRange(t.H, index);
  if (t.L !== tile.L || t.N !== tile.N || t.W < tile.W) {
    throw new TlogError(`index ${index} is in ${tilePath(tile)} not ${tilePath(t)}`);
  }
  return tileHash(data.subarray(start, end));
}

/** The tiles of height h that growing the tree from oldSize to newSize creates. Go's `tlog.NewTiles`. */
export function newTiles(h: number, oldSize: number, newSize: number): Tile[] {
  if (h <= 0) throw new TlogError(`NewTiles: invalid height ${h}`);
  const tiles: Tile[] = [];
  const w = 2 ** h;
  for (let level = 0; Math.floor(newSize / 2 ** (h * level)) > 0; level++) {
    const oldN = Math.floor(oldSize / 2 ** (h * level));
    const newN = Math.floor(newSize / 2 ** (h * level));
    for (let n = Math.floor(oldN / w); n < Math.floor(newN / w); n++)
      tiles.push({ H: h, L: level, N: n, W: w });
    const n = Math.floor(newN / w);
    const maxW = newN - n * w;
    const minW = oldN > n * w ? oldN - n * w : 1;
    for (let ww = minW; ww <= maxW; ww++) tiles.push({ H: h, L: level, N: n, W: ww });
  }
  return tiles;
}

/** The stored-hash indexes of tile t's hashes, left to right. */
export function tileIndexes(t: Tile): number[] {
  const start = t.N * 2 ** t.H;
  const out = new Array<number>(t.W);
  for (let i = 0; i < t.W; i++) out[i] = storedHashIndex(t.H * t.L, start + i);
  return out;
}

/** Tile t's bytes: its W hashes concatenated (W × 32 bytes). Go's `tlog.ReadTileData`. */
export function readTileData(t: Tile, r: HashReader): Uint8Array {
  const indexes = tileIndexes(t);
  const hashes = readExactly(r, indexes);
  const out = new Uint8Array(indexes.length * HASH_SIZE);
  hashes.forEach((h, i) => out.set(h, i * HASH_SIZE));
  return out;
}

/** `<N>` of a tile path: zero-padded 3-digit groups, all but the last prefixed with `x` (C2SP). */
function tileIndexPath(n: number): string {
  let s = String(n % 1000).padStart(3, '0');
  for (n = Math.floor(n / 1000); n > 0; n = Math.floor(n / 1000))
    s = `x${String(n % 1000).padStart(3, '0')}/${s}`;
  return s;
}

/**
 * The C2SP tlog-tiles path of a tile of height 8: `tile/<L>/<N>[.p/<W>]`, or `tile/entries/<N>[.p/<W>]`
 * for L = -1 (an entry bundle). Go's `Tile.Path` differs only in putting the height first
 * (`tile/8/<L>/...`, `data` for entries), the older sumdb layout.
 */
export function tilePath(t: Tile): string {
  const level = t.L === -1 ? 'entries' : String(t.L);
  const partial = t.W !== 2 ** t.H ? `.p/${t.W}` : '';
  return `tile/${level}/${tileIndexPath(t.N)}${partial}`;
}

/**
 * Parses a C2SP tlog-tiles path (`tile/<L>/<N>[.p/<W>]` or `tile/entries/...`, height 8) into a tile,
 * or returns null when it is not one in canonical form (leading zeros, W outside 1..255, L > 63, ...).
 */
export function parseTilePath(path: string): Tile | null {
  const m = /^tile\/(entries|0|[1-9][0-9]?)\/((?:x[0-9]{3}\/)*[0-9]{3})(?:\.p\/([1-9][0-9]{0,2}))?$/.exec(
    path,
  );
  if (!m) return null;
  const L = m[1] === 'entries' ? -1 : Number(m[1]);
  if (L > 63) return null;
  let N = 0;
  for (const part of m[2].split('/')) N = N * 1000 + Number(part.replace('x', ''));
  if (!Number.isSafeInteger(N)) return null;
  const W = m[3] === undefined ? TILE_WIDTH : Number(m[3]);
  if (W > TILE_WIDTH) return null;
  const t = { H: TILE_HEIGHT, L, N, W };
  return tilePath(t) === path ? t : null;
}

/** A C2SP entry bundle: each entry as a big-endian uint16 length, then its bytes. Throws past 65,535 bytes. */
export function encodeEntryBundle(entries: Uint8Array[]): Uint8Array {
  let size = 0;
  for (const e of entries) {
    if (e.length > 0xffff)
      throw new TlogError(`entry of ${e.length} bytes exceeds the 65535 of an entry bundle`);
    size += 2 + e.length;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const e of entries) {
    out[at] = e.length >> 8;
    out[at + 1] = e.length & 0xff;
    out.set(e, at + 2);
    at += 2 + e.length;
  }
  return out;
}

/** The entries of a C2SP entry bundle; throws `TlogError` when a length runs past the end. */
export function decodeEntryBundle(data: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < data.length) {
    if (at + 2 > data.length) throw new TlogError('truncated entry bundle');
    const len = data[at] * 256 + data[at + 1];
    if (at + 2 + len > data.length) throw new TlogError('truncated entry bundle');
    out.push(data.subarray(at + 2, at + 2 + len));
    at += 2 + len;
  }
  return out;
}

/** A `HashReader` over an in-memory array of stored hashes (tests, the bench, the browser). */
export function arrayHashReader(stored: Hash[]): HashReader {
  return (indexes) =>
    indexes.map((i) => {
      const h = stored[i];
      if (!h) throw new TlogError(`stored hash ${i} missing`);
      return h;
    });
}

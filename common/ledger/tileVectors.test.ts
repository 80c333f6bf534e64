/**
 * The tile test vectors of docs/ledger.md section 3a (C2SP tlog-tiles, height 8), read from the document
 * itself and recomputed with common/ledger/tlog.ts: for the log of `leaf 0` .. `leaf 299`, each tile's
 * path (parsed back to the tile), length, SHA-256 of its bytes and first and last hash; the entry
 * bundle's length, SHA-256 and first bytes; the tree hashes stated, and that the level-1 tile's hash is
 * the tree hash of the first 256 entries. Also the tree vectors above them (tree hashes, stored hash
 * count, an inclusion and a consistency proof of Go's TestTree log).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toHex } from './hex';
import { toBase64 } from './note';
import {
  arrayHashReader,
  encodeEntryBundle,
  type Hash,
  parseTilePath,
  proveRecord,
  proveTree,
  readTileData,
  storedHashCount,
  storedHashes,
  TILE_WIDTH,
  treeHash,
} from './tlog';

const doc = readFileSync(join(import.meta.dirname, '../../docs/ledger.md'), 'utf8');
/** The first code block after `marker` in the document. */
const codeAfter = (marker: string) => /```\n([\s\S]*?)```/.exec(doc.slice(doc.indexOf(marker)))![1];
const rows = codeAfter('<!-- tile-vectors:begin -->')
  .trim()
  .split('\n')
  .map((l) => l.trim().split(/\s{2,}/));

const enc = new TextEncoder();
const entries = Array.from({ length: 300 }, (_, i) => enc.encode(`leaf ${i}`));
const stored: Hash[] = [];
for (let i = 0; i < entries.length; i++) stored.push(...storedHashes(i, entries[i], arrayHashReader(stored)));
const read = arrayHashReader(stored);
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('docs/ledger.md section 3a tile test vectors', () => {
  it('has the hash tiles, the entry bundle and the tree hashes', () => {
    expect(rows.map((r) => r[0])).toEqual([
      'tile/0/000',
      'tile/0/001.p/44',
      'tile/1/000.p/1',
      'tile/entries/001.p/44',
      'tree hash, size 256',
      'tree hash, size 300',
    ]);
  });

  it('each hash tile: path, length, SHA-256 of its bytes, first and last hash', () => {
    for (const [path, length, digest, first, last] of rows.filter((r) => /^tile\/\d/.test(r[0]))) {
      const tile = parseTilePath(path)!;
      expect(tile, path).not.toBeNull();
      const data = readTileData(tile, read);
      expect(data.length, path).toBe(Number(length));
      expect(sha(data), path).toBe(digest);
      expect(toBase64(data.subarray(0, 32)), path).toBe(first);
      expect(toBase64(data.subarray(data.length - 32)), path).toBe(last);
    }
  });

  it('the entry bundle: length, SHA-256 and first bytes', () => {
    const [path, length, digest, head] = rows.find((r) => r[0].startsWith('tile/entries/'))!;
    const tile = parseTilePath(path)!;
    const start = tile.N * TILE_WIDTH;
    const bundle = encodeEntryBundle(entries.slice(start, start + tile.W));
    expect(bundle.length).toBe(Number(length));
    expect(sha(bundle)).toBe(digest);
    expect(toHex(bundle.subarray(0, head.length / 2))).toBe(head);
  });

  it('section 3a tree vectors: tree hashes, stored hash count, inclusion proof of entry 37, consistency 13 → 100', () => {
    const section = doc.slice(doc.indexOf('## 3a.'), doc.indexOf('<!-- tile-vectors:begin -->'));
    const text = /\*\*Test vectors\*\*[\s\S]*?```\n([\s\S]*?)```/.exec(section)![1];
    const trees = [...text.matchAll(/^tree hash, size (\d+)\s+(\S+)/gm)];
    expect(trees.length).toBeGreaterThanOrEqual(6);
    for (const [, size, hash] of trees) expect(toBase64(treeHash(Number(size), read)), size).toBe(hash);
    expect(storedHashCount(100)).toBe(Number(/stored hashes, size 100: (\d+)/.exec(text)![1]));
    const proofText = /inclusion proof of entry 37 in size 100[^\n]*\n((?:\s+\S.*\n)+)/.exec(text)![1];
    expect(proveRecord(100, 37, read).map(toBase64)).toEqual(proofText.trim().split(/\s+/));
    const cons = proveTree(100, 13, read);
    expect(cons.length).toBe(Number(/from size 13 to 100: (\d+) hashes/.exec(text)![1]));
    expect(toBase64(cons[0])).toBe(/the first (\S+)/.exec(text)![1]);
  });

  it('the tree hashes; the level-1 tile holds the tree hash of 256 entries', () => {
    for (const [label, hash] of rows.filter((r) => r[0].startsWith('tree hash'))) {
      const size = Number(/size (\d+)/.exec(label)![1]);
      expect(toBase64(treeHash(size, read)), label).toBe(hash);
    }
    const level1 = rows.find((r) => r[0] === 'tile/1/000.p/1')!;
    expect(level1[3]).toBe(rows.find((r) => r[0] === 'tree hash, size 256')![1]);
  });
});

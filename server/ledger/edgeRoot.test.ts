/**
 * The append path's tree hash (tree.ts `edgeRoot`, node:crypto) against Go tlog's `TreeHash` as
 * common/ledger/tlog.ts implements it (the reference the Go interop tests check), for generated logs.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  arrayHashReader,
  recordHash,
  storedHashes,
  treeHash,
  treeHashIndexes,
  type Hash,
} from '../../common/ledger/tlog';
import { edgeRoot } from './tree';

/** The stored hashes of a log of `n` entries ("entry i"), in stored-hash order. */
function storedLog(n: number): Hash[] {
  const stored: Hash[] = [];
  for (let i = 0; i < n; i++)
    stored.push(...storedHashes(i, new TextEncoder().encode(`entry ${i}`), arrayHashReader(stored)));
  return stored;
}

const hex = (h: Uint8Array) => Buffer.from(h).toString('hex');

describe('edgeRoot', () => {
  const stored = storedLog(700);

  it('is the RFC 6962 tree hash of every size up to 700, from the edge hashes alone', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 700 }), (size) => {
        const ix = treeHashIndexes(size);
        const edge = new Map(ix.map((x) => [x, stored[x]]));
        expect(edgeRoot(size, edge)).toBe(hex(treeHash(size, arrayHashReader(stored))));
      }),
    );
  });

  it('answers the one-entry root as the record hash and the empty tree as all zero (as Go)', () => {
    expect(edgeRoot(1, new Map([[0, stored[0]]]))).toBe(hex(recordHash(new TextEncoder().encode('entry 0'))));
    expect(edgeRoot(0, new Map())).toBe('0'.repeat(64));
  });

  it('refuses an edge with a missing stored hash rather than answering another tree', () => {
    const ix = treeHashIndexes(700);
    const edge = new Map(ix.slice(1).map((x) => [x, stored[x]]));
    expect(() => edgeRoot(700, edge)).toThrow(/stored hash \d+ of the tree of size 700 missing/);
  });
});

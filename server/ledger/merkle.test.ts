import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { toHex } from '../../common/ledger/hex';
import { leafHash, merkleProof, merkleRoot, merkleRootHex, rootFromProof } from './merkle';

const H = (...parts: (Uint8Array | number[])[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(Uint8Array.from(p));
  return new Uint8Array(h.digest());
};
const leaf = (s: string) => H([0], new TextEncoder().encode(s));
const node = (a: Uint8Array, b: Uint8Array) => H([1], a, b);

/** RFC 6962 section 2.1 Merkle Tree Hash, written recursively as the RFC states it (split at the largest power of two < n). */
function mth(leaves: Uint8Array[]): Uint8Array {
  if (leaves.length === 1) return leaves[0];
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return node(mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

const letters = (n: number) => Array.from({ length: n }, (_, i) => `tx-${i}`);

describe('Merkle root (RFC 6962, odd node carried up)', () => {
  it('hashes leaves with the 0x00 prefix', () => {
    expect(toHex(leafHash(new TextEncoder().encode('a')))).toBe(toHex(H([0], [0x61])));
  });

  it('1 leaf: the root is the leaf hash', () => {
    const l = [leaf('a')];
    expect(toHex(merkleRoot(l))).toBe(toHex(l[0]));
    expect(merkleProof(l, 0)).toEqual([]);
  });

  it('2 leaves: H(1|l0|l1)', () => {
    const l = ['a', 'b'].map(leaf);
    expect(toHex(merkleRoot(l))).toBe(toHex(node(l[0], l[1])));
  });

  it('3 leaves: the third is carried up, not duplicated (fixed vector)', () => {
    const l = ['a', 'b', 'c'].map(leaf);
    const root = merkleRoot(l);
    expect(toHex(root)).toBe(toHex(node(node(l[0], l[1]), l[2])));
    expect(toHex(root)).toBe('36642e73c2540ab121e3a6bf9545b0a24982cd830eb13d3cd19de3ce6c021ec1');
    expect(toHex(root)).not.toBe(toHex(merkleRoot([...l, l[2]])));
  });

  it('4 leaves: balanced', () => {
    const l = ['a', 'b', 'c', 'd'].map(leaf);
    expect(toHex(merkleRoot(l))).toBe(toHex(node(node(l[0], l[1]), node(l[2], l[3]))));
  });

  it('5 leaves (fixed vector)', () => {
    const l = ['a', 'b', 'c', 'd', 'e'].map(leaf);
    const root = merkleRoot(l);
    expect(toHex(root)).toBe(toHex(node(node(node(l[0], l[1]), node(l[2], l[3])), l[4])));
    expect(toHex(root)).toBe('fe14a5426fbd70c0fa73f52342afed0da0bd23c4838662ccf6b88a3070ead97b');
  });

  for (const n of [1, 2, 3, 4, 5, 6, 7, 9, 1000]) {
    it(`${n} leaves: equals RFC 6962's recursive definition; every proof verifies and tampering fails`, () => {
      const l = letters(n).map(leaf);
      const root = merkleRoot(l);
      expect(toHex(root)).toBe(toHex(mth(l)));
      const maxDepth = Math.ceil(Math.log2(n));
      // Every leaf for small trees; for 1,000 leaves the edges, the middle and every 7th leaf.
      const indices =
        n <= 9
          ? [...Array(n).keys()]
          : [
              ...new Set([
                0,
                1,
                2,
                499,
                500,
                501,
                997,
                998,
                999,
                ...Array.from({ length: 143 }, (_, k) => k * 7),
              ]),
            ];
      for (const i of indices) {
        const proof = merkleProof(l, i);
        expect(proof.length).toBeLessThanOrEqual(maxDepth);
        expect(toHex(rootFromProof(l[i], proof))).toBe(toHex(root));
        // Another leaf does not verify with this path.
        expect(toHex(rootFromProof(leaf(`other-${i}`), proof))).not.toBe(toHex(root));
        if (proof.length > 0) {
          const flipped = proof.map((s, j) =>
            j === 0 ? { ...s, side: s.side === 'left' ? 'right' : 'left' } : s,
          ) as typeof proof;
          expect(toHex(rootFromProof(l[i], flipped))).not.toBe(toHex(root));
          const bent = proof.map((s, j) => (j === proof.length - 1 ? { ...s, hash: leaf('x') } : s));
          expect(toHex(rootFromProof(l[i], bent))).not.toBe(toHex(root));
        }
      }
    });
  }

  it('refuses an empty tree and an index outside the leaves', () => {
    expect(() => merkleRoot([])).toThrow(/at least one/);
    expect(() => merkleProof([leaf('a')], 1)).toThrow(RangeError);
  });
});

// The hex tree is the one the ledger writes and verifies blocks with; it must be RFC 6962's tree.
describe('merkleRootHex', () => {
  it('equals the RFC 6962 Merkle Tree Hash for 1 to 70 leaves', () => {
    for (let n = 1; n <= 70; n++) {
      const l = letters(n).map(leaf);
      expect(merkleRootHex(l.map(toHex))).toBe(toHex(mth(l)));
    }
  });

  it('refuses an empty tree and leaves that are not 32-byte hex', () => {
    const a = toHex(leaf('a'));
    expect(() => merkleRootHex([])).toThrow(/at least one/);
    expect(() => merkleRootHex([a, `${a.slice(0, 62)}zz`])).toThrow(/32-byte hex/);
    expect(() => merkleRootHex([a, a.slice(2)])).toThrow(/32-byte hex/);
    expect(() => merkleRootHex(['abc'])).toThrow(/32-byte hex/);
  });
});

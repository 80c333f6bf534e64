/**
 * common/ledger/tlog.ts against Go's reference golang.org/x/mod/sumdb/tlog: the expected values below
 * were printed by Go's tlog (Debian golang-golang-x-mod-dev) for the log of its own TestTree, whose
 * record i is the ASCII text `leaf <i>`; the rest mirrors TestTree and TestSplitStoredHashIndex (every
 * proof of every tree up to 100 records verifies, a flipped byte does not) and TestTilePath in the
 * C2SP layout. The Go interop test (tests/api/tlog-interop.test.ts) checks random sizes both ways.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from './note';
import {
  arrayHashReader,
  checkRecord,
  checkTree,
  decodeEntryBundle,
  encodeEntryBundle,
  hashFromTile,
  type Hash,
  newTiles,
  nodeHash,
  parseTilePath,
  proveRecord,
  proveTree,
  readTileData,
  recordHash,
  splitStoredHashIndex,
  storedHashCount,
  storedHashes,
  storedHashIndex,
  type Tile,
  tileForIndex,
  tilePath,
  treeHash,
} from './tlog';

const enc = new TextEncoder();

/** The log of Go's TestTree: records `leaf 0` .. `leaf 99`, its stored hashes and tree hash per size. */
function goTestLog(size = 100): { stored: Hash[]; trees: Hash[]; leaves: Hash[] } {
  const stored: Hash[] = [];
  const trees: Hash[] = [];
  const leaves: Hash[] = [];
  const r = arrayHashReader(stored);
  for (let i = 0; i < size; i++) {
    const data = enc.encode(`leaf ${i}`);
    stored.push(...storedHashes(i, data, r));
    leaves.push(recordHash(data));
    expect(stored.length).toBe(storedHashCount(i + 1));
    trees.push(treeHash(i + 1, r));
  }
  return { stored, trees, leaves };
}

const GO = {
  trees: {
    1: 'G7l9zCFjXUfiZj79/QoXRobZjdcBNS3SzQbotD/T0wU=',
    2: '/F9riP+FVPdbsvnm85wxsZNtRLaSdu33sSBalVuXYeM=',
    3: '1Pksj7uJcg6ztVZ3x9fvrd/rENEaGoSguo8aIzN/qpU=',
    7: 'WmH8K1T5z6cXdPJDIUPdQMbLKxGUf69lp9PaXLZRmcg=',
    8: 'xcLIIO00L92ozolra5z1uMAKIcxLIHFMxuXTwFw1JAs=',
    13: 'z5tMKkSnyqci1dVI7mT/kKEZsMMaysNETcWDAAo508o=',
    64: '8mHiNpLZeP2sP9lJ21SVlApDeuZxuabd6aphGNADZS8=',
    100: 'E/iJFcVg3JEaHaD7IJ2EoglxBR8pTr60KPs/wpOvJ0M=',
  } as Record<number, string>,
  storedCount100: 197,
  // StoredHashIndex(level, n) for level 0..3, n 0..4
  storedHashIndex: [0, 1, 3, 4, 7, 2, 5, 9, 12, 17, 6, 13, 21, 28, 37, 14, 29, 45, 60, 77],
  // ProveRecord(100, 37)
  record_100_37: [
    's0iJOUVkKQwAxsx9UEPV48IZlITDAcEYKvNGdY3fEbQ=',
    'OFkRC2Ia2bvMlPrsumkqr45ay32xXRqkGmqk4mmKIGk=',
    'W+d7jKTb7oTFmtC8yxfVbHM3UNCm0beA3j2Olp3QMWI=',
    'IFQ7jalskgBDvkqooacH36ByRDZ2D7pWPDROL9wwqIU=',
    'nElKb1se8i1C8FCfRZNrilwF6OoGvvi0IyTxX9Usl9Y=',
    'mltaKilXHK09gVVfNL8yVv2lYnlpHN7DT1fI9ISss/o=',
    'Ww8HmgYW6QBAbUdlvADEdLQtGc3Ps/Qs678QKnwkB/w=',
  ],
  // ProveTree(100, 13)
  tree_100_13: [
    'CVpOddUYLGuKCdkhJy6v7wlByAHUVCde2dc5jkTDNT4=',
    'dvROL2ReQzEnpGTeJhcmsmyd10LVeN0iIXOqUdPEsLQ=',
    'Q//7DzND+Si4n0yTBFc5RzExqo23oWtAk47naT5b8+c=',
    '+uJvkiJatDI3LdWn1I20X3PLXKNr1gvx1VTA+B1uua4=',
    'xcLIIO00L92ozolra5z1uMAKIcxLIHFMxuXTwFw1JAs=',
    'hncrWqPa2Rp3YSXlROedrzpUuw14dRMxZfyatvxIabc=',
    'ka6oYUkKTbHEelZcBYKTca6y97uGVdez6xeq4Ytv3OE=',
    'Ww8HmgYW6QBAbUdlvADEdLQtGc3Ps/Qs678QKnwkB/w=',
  ],
  // index:L/N/W of TileForIndex(2, index)
  tileForIndexH2: [
    '0:0/0/1',
    '1:0/0/2',
    '2:0/0/2',
    '3:0/0/3',
    '4:0/0/4',
    '5:0/0/4',
    '6:1/0/1',
    '7:0/1/1',
    '8:0/1/2',
    '20:0/2/4',
    '33:0/4/2',
    '196:1/6/1',
  ],
  newTilesH2_5_23: ['0/1/4', '0/2/4', '0/3/4', '0/4/4', '0/5/1', '0/5/2', '0/5/3', '1/0/4', '1/1/1', '2/0/1'],
  // ReadTileData(Tile{H: 2, L: 1, N: 1, W: 3})
  tile_h2_l1_n1_w3:
    'r/Q3Qj8iNzv1uzXWcMP4JPbc6O6dptI7IitvLvAUE+RYppKi7YMfKdMgVLPyQbLe99W7zDM4yDUPPm0fscoBS2Oj76zgA4bdpnF9Pj2rWm2sRN0bHlVolOJ9vopG3pVn',
};

const flip = (h: Hash): Hash => {
  const c = h.slice();
  c[0] ^= 1;
  return c;
};

describe('tlog (Go golang.org/x/mod/sumdb/tlog vectors)', () => {
  const log = goTestLog();
  const r = arrayHashReader(log.stored);

  it('tree hashes, stored hash count and stored hash indexes equal Go’s', () => {
    for (const [size, want] of Object.entries(GO.trees))
      expect(toBase64(log.trees[Number(size) - 1])).toBe(want);
    expect(log.stored.length).toBe(GO.storedCount100);
    const idx: number[] = [];
    for (let l = 0; l < 4; l++) for (let n = 0; n < 5; n++) idx.push(storedHashIndex(l, n));
    expect(idx).toEqual(GO.storedHashIndex);
  });

  it('the tree hash of one record is its record hash, of two their node hash (RFC 6962 2.1)', () => {
    expect(log.trees[0]).toEqual(log.leaves[0]);
    expect(log.trees[1]).toEqual(nodeHash(log.leaves[0], log.leaves[1]));
    expect(log.trees[2]).toEqual(nodeHash(nodeHash(log.leaves[0], log.leaves[1]), log.leaves[2]));
  });

  it('inclusion and consistency proofs equal Go’s', () => {
    expect(proveRecord(100, 37, r).map(toBase64)).toEqual(GO.record_100_37);
    expect(proveTree(100, 13, r).map(toBase64)).toEqual(GO.tree_100_13);
  });

  it('every inclusion and consistency proof of every tree up to 40, and of 100, verifies; a flipped byte fails', () => {
    for (const t of [...Array.from({ length: 40 }, (_, i) => i + 1), 100]) {
      const th = log.trees[t - 1];
      for (let n = 0; n < t; n++) {
        const p = proveRecord(t, n, r);
        expect(checkRecord(p, t, th, n, log.leaves[n])).toBe(true);
        expect(checkRecord(p, t, th, n, flip(log.leaves[n]))).toBe(false);
        for (let k = 0; k < p.length; k++) {
          const bad = p.slice();
          bad[k] = flip(bad[k]);
          expect(checkRecord(bad, t, th, n, log.leaves[n])).toBe(false);
        }
        if (p.length > 0) expect(checkRecord(p.slice(0, -1), t, th, n, log.leaves[n])).toBe(false);
      }
      for (let n = 1; n <= t; n++) {
        const p = proveTree(t, n, r);
        expect(checkTree(p, t, th, n, log.trees[n - 1])).toBe(true);
        if (n < t) expect(checkTree(p, t, th, n, flip(log.trees[n - 1]))).toBe(false);
        for (let k = 0; k < p.length; k++) {
          const bad = p.slice();
          bad[k] = flip(bad[k]);
          expect(checkTree(bad, t, th, n, log.trees[n - 1])).toBe(false);
        }
      }
    }
  }, 60_000); // about 1 s alone, several on a loaded machine (pure SHA-256 in JavaScript)

  it('splitStoredHashIndex inverts storedHashIndex (Go TestSplitStoredHashIndex)', () => {
    for (let l = 0; l < 10; l++)
      for (let n = 0; n < 100; n++) expect(splitStoredHashIndex(storedHashIndex(l, n))).toEqual([l, n]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 2 ** 25 }), (l, n) => {
        expect(splitStoredHashIndex(storedHashIndex(l, n))).toEqual([l, n]);
      }),
    );
  });

  it('tile coordinates, new tiles and tile data equal Go’s (height 2)', () => {
    const got = [0, 1, 2, 3, 4, 5, 6, 7, 8, 20, 33, 196].map((x) => {
      const t = tileForIndex(2, x);
      return `${x}:${t.L}/${t.N}/${t.W}`;
    });
    expect(got).toEqual(GO.tileForIndexH2);
    expect(newTiles(2, 5, 23).map((t) => `${t.L}/${t.N}/${t.W}`)).toEqual(GO.newTilesH2_5_23);
    expect(toBase64(readTileData({ H: 2, L: 1, N: 1, W: 3 }, r))).toBe(GO.tile_h2_l1_n1_w3);
  });

  it('every stored hash reads back from its tile (Go TestTree)', () => {
    const tiles = new Map<string, Uint8Array>();
    for (let i = 0; i < 100; i++)
      for (const t of newTiles(2, i, i + 1)) tiles.set(`${t.L}/${t.N}/${t.W}`, readTileData(t, r));
    for (let j = 0; j < log.stored.length; j++) {
      const t = tileForIndex(2, j);
      const data = tiles.get(`${t.L}/${t.N}/${t.W}`);
      expect(data, `tile of hash ${j}`).toBeDefined();
      expect(hashFromTile(t, data!, j)).toEqual(log.stored[j]);
    }
  });

  it('reads Go’s own test vector hashes back from their base64', () => {
    expect(fromBase64(GO.trees[100])).toEqual(log.trees[99]);
  });
});

describe('C2SP tlog-tiles paths and entry bundles', () => {
  const cases: [string, Tile][] = [
    ['tile/0/001', { H: 8, L: 0, N: 1, W: 256 }],
    ['tile/0/001.p/5', { H: 8, L: 0, N: 1, W: 5 }],
    ['tile/5/x123/x456/078', { H: 8, L: 5, N: 123456078, W: 256 }],
    ['tile/1/x001/x234/067.p/255', { H: 8, L: 1, N: 1234067, W: 255 }],
    ['tile/entries/x003/x057/500', { H: 8, L: -1, N: 3057500, W: 256 }],
    ['tile/entries/000.p/1', { H: 8, L: -1, N: 0, W: 1 }],
  ];
  it('formats and parses the spec’s paths', () => {
    for (const [path, tile] of cases) {
      expect(tilePath(tile)).toBe(path);
      expect(parseTilePath(path)).toEqual(tile);
    }
  });
  it('refuses non-canonical paths', () => {
    for (const bad of [
      'tile/0/1',
      'tile/00/001',
      'tile/0/123/456',
      'tile/0/x001',
      'tile/0/001.p/0',
      'tile/0/001.p/256',
      'tile/0/001.p/05',
      'tile/64/000',
      'tile/-1/000',
      'tile/data/000',
      'tile/8/0/000',
    ]) {
      expect(parseTilePath(bad), bad).toBeNull();
    }
  });
  it('entry bundles round-trip, uint16 big-endian length first', () => {
    const a = enc.encode('leaf 0');
    const b = new Uint8Array(300).fill(7);
    const bundle = encodeEntryBundle([a, b, new Uint8Array(0)]);
    expect(Array.from(bundle.subarray(0, 2))).toEqual([0, 6]);
    expect(Array.from(bundle.subarray(8, 10))).toEqual([1, 44]);
    expect(decodeEntryBundle(bundle)).toEqual([a, b, new Uint8Array(0)]);
    expect(() => decodeEntryBundle(bundle.subarray(0, 5))).toThrow(/truncated/);
    expect(() => encodeEntryBundle([new Uint8Array(65536)])).toThrow(/65535/);
  });
});

import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  composeIntroduction,
  foldLines,
  imagesOf,
  mapArtist,
  mapArtwork,
  primaryArtistId,
  sourceDigest,
  TATE_IMAGE_BASE,
} from './mapping';
import { SEED_FILES } from './seed';

// The shipped seed: Tate's sample rows, unmodified (server/db/seed/ATTRIBUTION.md).
const rowsOf = (file: string) =>
  JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as Record<string, any>[];
const artists = rowsOf(SEED_FILES.artists);
const artworks = rowsOf(SEED_FILES.artworks);
const artist = (id: number) => artists.find((a) => a.id === id)!;
const artwork = (acno: string) => artworks.find((a) => a.acno === acno)!;

describe('mapArtist', () => {
  it('maps Turner (id 558) as the data README composes him', () => {
    expect(mapArtist(artist(558))).toEqual({
      authorName: 'Joseph Mallord William Turner',
      introduction:
        '1775–1851. Born London, United Kingdom; died Chelsea, United Kingdom. Picturesque, Romanticism, Sublime.',
    });
  });

  it('leaves out the parts a row lacks', () => {
    expect(
      composeIntroduction({ date: 'born 1930', birth: { place: { name: 'Paris, France' } }, movements: [] }),
    ).toBe('born 1930. Born Paris, France.');
    expect(composeIntroduction({ date: null, death: { place: { name: 'Rome, Italia' } } })).toBe(
      'Died Rome, Italia.',
    );
    expect(composeIntroduction({ date: null, movements: [] })).toBeNull();
  });

  it('composes an introduction for every sample artist within the author schema limit', () => {
    for (const a of artists) {
      const intro = mapArtist(a).introduction;
      if (intro !== null) expect(intro.length).toBeLessThanOrEqual(2000);
    }
  });
});

describe('mapArtwork', () => {
  it('maps a real row field by field (A00006, Blake)', () => {
    const row = artwork('A00006');
    expect(mapArtwork(row, 42)).toEqual({
      artWorkName: 'Ciampolo the Barrator Tormented by the Devils',
      author: 42,
      possessor: 'Tate',
      classify: 'on paper, print',
      texture: 'Line engraving on paper',
      images: ['http://www.tate.org.uk/art/images/work/A/A00/A00006_8.jpg'],
      baseInfo: {
        size: 'image: 240 x 338 mm',
        width: '240',
        height: '338',
        depth: '',
        units: 'mm',
        dateText: '1826–7, reprinted 1892',
        startYear: 1826,
        endYear: 1827,
        acno: 'A00006',
        url: 'http://www.tate.org.uk/art/artworks/blake-ciampolo-the-barrator-tormented-by-the-devils-a00006',
        groupTitle: "Illustrations to Dante's 'Divine Comedy'",
      },
      dealInfo: {
        creditLine:
          'Purchased with the assistance of a special grant from the National Gallery and donations from the Art Fund, Lord Duveen and others, and presented through the the Art Fund 1919',
        acquisitionYear: 1919,
      },
    });
  });

  it('names the joint owner of ARTIST ROOMS works and folds multi-line credit lines', () => {
    const row = artworks.find((r) => r.artistRooms === true && /\r\n/.test(r.creditLine))!;
    const mapped = mapArtwork(row, 1);
    expect(mapped.possessor).toBe('Tate and National Galleries of Scotland');
    expect(mapped.dealInfo.creditLine).toMatch(/^ARTIST ROOMS; Acquired jointly/);
    expect(String(mapped.dealInfo.creditLine)).not.toMatch(/[\r\n]/);
  });

  it('folds multi-line dimensions into one line, keeping every part', () => {
    const row = artworks.find((r) => /\r\n/.test(r.dimensions ?? ''))!;
    const size = String(mapArtwork(row, 1).baseInfo.size);
    expect(size).toBe(
      row.dimensions
        .split('\r\n')
        .map((p: string) => p.trim())
        .filter(Boolean)
        .join('; '),
    );
  });

  it('keeps titles whole, even over the width limit (validation reports them)', () => {
    const long = artworks.find((r) => r.title.length > 60)!;
    expect(mapArtwork(long, 1).artWorkName).toBe(long.title);
  });

  it('lists the thumbnail first, then one absolute URL per additional view', () => {
    const row = artworks.find((r) => r.thumbnailUrl && r.additionalImages?.length >= 2)!;
    const images = imagesOf(row) as string[];
    expect(images[0]).toBe(row.thumbnailUrl);
    expect(images).toHaveLength(1 + row.additionalImages.length);
    for (const url of images.slice(1)) expect(url.startsWith(TATE_IMAGE_BASE)).toBe(true);
  });

  it('takes contributors[0] as the primary author', () => {
    const row = artworks.find((r) => r.contributors.length > 1)!;
    expect(primaryArtistId(row)).toBe(row.contributors[0].id);
    expect(primaryArtistId({ contributors: [] })).toBeUndefined();
    expect(primaryArtistId({ contributors: 'Turner' })).toBeUndefined();
  });

  it('never throws on malformed rows', () => {
    expect(() =>
      mapArtwork({ contributors: 'x', dateRange: 5, additionalImages: [null, { sizes: 'x' }] }, 1),
    ).not.toThrow();
  });
});

describe('foldLines', () => {
  it('joins non-empty trimmed lines with "; " and leaves other values alone', () => {
    expect(foldLines('Etching and engraving on paper\r\n\r\n')).toBe('Etching and engraving on paper');
    expect(foldLines('a\r\n b \nc')).toBe('a; b; c');
    expect(foldLines(null)).toBeNull();
    expect(foldLines(3)).toBe(3);
  });
});

describe('sourceDigest', () => {
  it('does not depend on key order, and changes with any value', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(sourceDigest({ b: 1, a: 2 })).toBe(sourceDigest({ a: 2, b: 1 }));
    expect(sourceDigest({ a: 1 })).not.toBe(sourceDigest({ a: 2 }));
    expect(sourceDigest(artwork('A00006'))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is the text earlier imports hashed (JSON.stringify of a key-sorted copy), so their digests still match', () => {
    const sortedCopy = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(sortedCopy)
        : v && typeof v === 'object'
          ? Object.fromEntries(
              Object.keys(v)
                .sort()
                .map((k) => [k, sortedCopy((v as Record<string, unknown>)[k])]),
            )
          : v;
    const tricky = {
      z: 'line\nquote"\\ \u0001 汉字 \ud800',
      10: [1, -0, 1.5, 1e21, 0.000001, null, { b: [], a: {} }],
      2: true,
      é: 'x',
      B: false,
      a: { '01': 1, '1': 2, '4294967295': 3, '4294967294': 4 },
      u: undefined,
    };
    const rows = [tricky, ...artworks, ...artists];
    for (const row of rows) expect(canonicalJson(row)).toBe(JSON.stringify(sortedCopy(row)));
  });
});

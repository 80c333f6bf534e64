import { describe, expect, it } from 'vitest';
import { resourceSchemas, schemaForResource } from '../../kernel/dialect/schemaRegistry';
import { chainSpecOf, isOnChain, recordName, recordOfTransaction } from './chain';
import { REQUIRED_MARK, requiredMarkFor } from './kindMap';
import { isEmptyValue } from './views';

describe('x-chain', () => {
  it('authors and artworks go on chain; an artwork after its author, whose x-chain exists', () => {
    const names = resourceSchemas()
      .filter((s) => chainSpecOf(s))
      .map((s) => s['x-resource']!.name)
      .sort();
    expect(names).toEqual(['artworks', 'authors']);
    const art = chainSpecOf(schemaForResource('artworks'))!;
    expect(art.after).toEqual({ field: 'author', resource: 'authors' });
    expect(chainSpecOf(schemaForResource(art.after!.resource))?.kind).toBe('author');
    // Each status property exists and each onChain value is one of its enum values.
    for (const s of resourceSchemas()) {
      const spec = chainSpecOf(s);
      if (!spec) continue;
      const prop = s.properties[spec.status];
      expect(prop, `${s.$id}.${spec.status}`).toBeDefined();
      for (const v of spec.onChain)
        expect(prop.enum ?? Object.keys(prop['x-enumLabels'] ?? {}).map(Number)).toContain(v);
    }
  });

  it('isOnChain reads the status property', () => {
    const art = chainSpecOf(schemaForResource('artworks'))!;
    expect(isOnChain(art, { status: 2 })).toBe(true);
    expect(isOnChain(art, { status: 1 })).toBe(false);
    expect(isOnChain(art, { status: 0 })).toBe(false);
    const author = chainSpecOf(schemaForResource('authors'))!;
    expect(isOnChain(author, { isBlock: 1 })).toBe(true);
    expect(isOnChain(author, undefined)).toBe(false);
  });

  it('recordOfTransaction maps putAuthor / putArtwork args[0] to the record; nothing else', () => {
    expect(recordOfTransaction('putArtwork', ['1828', '1', 'ab'])).toEqual({
      resource: 'artworks',
      id: 1828,
      roles: ['admin'],
    });
    expect(recordOfTransaction('putAuthor', ['7', '2', 'cd'])?.resource).toBe('authors');
    expect(recordOfTransaction('approveChaincode', ['3'])).toBeUndefined();
    expect(recordOfTransaction('putArtwork', ['x'])).toBeUndefined();
  });

  it('recordName is the recordRepresentation, else #id', () => {
    expect(recordName('artworks', { id: 3, artWorkName: 'Sunset' })).toBe('Sunset');
    expect(recordName('artworks', { id: 3, artWorkName: '' })).toBe('#3');
  });
});

describe('display and form helpers', () => {
  it('isEmptyValue: null, undefined, blank text and empty lists; not 0 or false', () => {
    for (const v of [null, undefined, '', '  ', []]) expect(isEmptyValue(v)).toBe(true);
    for (const v of [0, false, 'a', [1]]) expect(isEmptyValue(v)).toBe(false);
  });

  it('requiredMarkFor follows the JSON Schema required of the holding object', () => {
    const artwork = schemaForResource('artworks');
    expect(requiredMarkFor(artwork, 'artWorkName')).toBe(REQUIRED_MARK);
    expect(requiredMarkFor(artwork, 'possessor')).toBeUndefined();
    expect((REQUIRED_MARK as unknown as { isRequired: boolean }).isRequired).toBe(true);
    expect(REQUIRED_MARK('', {}, {} as never)).toBeUndefined();
  });
});

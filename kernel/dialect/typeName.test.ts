/** The record type's name derived from a schema's title (kernel/dialect/typeName.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { typeNameOf } from './typeName';

describe('typeNameOf', () => {
  it('makes a human title a PascalCase identifier, keeps the PascalCase titles as they are', () => {
    expect(typeNameOf({ title: 'Loan venue 4' })).toBe('LoanVenue4');
    expect(typeNameOf({ title: 'Artwork' })).toBe('Artwork');
    expect(typeNameOf({ title: 'ArtCategory' })).toBe('ArtCategory');
    expect(typeNameOf({ title: 'crate-label / 2nd copy' })).toBe('CrateLabel2NdCopy');
    expect(typeNameOf({ title: 'Éxpo café' })).toBe('ExpoCafe');
    expect(typeNameOf({ title: '借展', $id: 'loan_venue' })).toBe('LoanVenue');
    expect(typeNameOf({ title: '42' })).toBe('Resource');
  });

  it('always answers a TypeScript identifier', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (title, id) => {
        expect(typeNameOf({ title, $id: id })).toMatch(/^[A-Z][A-Za-z0-9]*$/);
      }),
    );
  });
});

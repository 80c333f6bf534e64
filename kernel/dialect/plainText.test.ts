/**
 * Plain text is stored one way whichever door writes it (kernel/dialect/plainText.ts): the command-line
 * import's rule (`storedPlainText`) gives what the repository stores (kernel/server/records.ts
 * `columnValues`), for any text, at the top level and inside JSON fields.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { modelOf } from '../server/model';
import { columnValues } from '../server/records';
import { storedPlainText, storedPlainTexts, trimmedText } from './plainText';
import { schemaForResource } from './schemaRegistry';

const artworks = schemaForResource('artworks');
const model = modelOf(artworks);
/** Text with spaces, combining marks and precomposed letters around ASCII. */
const text = fc
  .array(fc.constantFrom(' ', 'e', '\u0301', 'é', 'A', '\u030a', 'Å', '\u00a0', 'x'), { maxLength: 12 })
  .map((a) => a.join(''));

describe('storedPlainText', () => {
  it('trims a top-level plain-text string and puts it in NFC; an empty nullable one is null', () => {
    expect(storedPlainText(artworks, 'artWorkName', ' Cafe\u0301 au lait ')).toBe('Caf\u00e9 au lait');
    expect(trimmedText('  ', true)).toBeNull();
    expect(trimmedText('  ', false)).toBe('');
    // Not a property of the schema: as sent.
    expect(storedPlainText(artworks, 'unknown', ' a ')).toBe(' a ');
  });

  it("gives the repository's stored value for any text, top level and inside a JSON field", () => {
    fc.assert(
      fc.property(text, text, (name, size) => {
        const body = { artWorkName: name, baseInfo: { size } };
        const stored = columnValues(model, body);
        const imported = storedPlainTexts(artworks, body);
        expect(imported.artWorkName).toBe(stored.artWorkName);
        expect(JSON.stringify(imported.baseInfo)).toBe(stored.baseInfo);
        // Inside a JSON field: NFC, not trimmed.
        expect((imported.baseInfo as { size: string }).size).toBe(size.normalize('NFC'));
      }),
    );
  });
});

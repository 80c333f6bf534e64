/**
 * A storage migration's file name (scripts/codegen/storage.ts `migrationName`) stays bounded however many
 * tables one codegen run adds (schema fuzzing with many schemas hit ENAMETOOLONG), and stays a valid,
 * distinct-per-stamp migration name.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIGRATION_NAME, MIGRATION_NAME_MAX, migrationName } from './storage';

describe('migrationName', () => {
  it('names the tables when they fit', () => {
    expect(migrationName('20300102T0304', ['companies', 'drugs', 'companies'])).toBe(
      '20300102T0304_storage_companies_drugs',
    );
  });

  it('names the first tables and counts the others when they do not', () => {
    const tables = Array.from({ length: 40 }, (_, i) => `fz_shelf_venue_${i + 1}`);
    const name = migrationName('20300102T0304', tables);
    expect(name).toBe('20300102T0304_storage_fz_shelf_venue_1_fz_shelf_venue_2_and_38_more');
    expect(name.length).toBeLessThanOrEqual(MIGRATION_NAME_MAX);
  });

  it('is a migration name of at most MIGRATION_NAME_MAX characters for any tables', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z][a-z0-9_]{0,62}$/), { minLength: 1, maxLength: 200 }),
        (tables) => {
          const name = migrationName('20300102T0304', tables);
          expect(name).toMatch(MIGRATION_NAME);
          expect(name.length).toBeLessThanOrEqual(MIGRATION_NAME_MAX);
        },
      ),
    );
  });
});

/**
 * The pigeonhole's read scope (kernel/hooks/archivedRecords.ts `archiveReadScope`) with three archivable
 * resources, as when a new schema says `x-archive` (the repository ships two): a `user` who may read two
 * of them lists the archived records of those two (an "IN" scope), not a 403; `admin` reads everything;
 * a caller who may read none, or names a resource they may not read, gets 403 naming the roles.
 */
import { describe, expect, it } from 'vitest';
import { archiveReadScope } from '../../kernel/hooks/archivedRecords';
import { inReadScope } from '../../kernel/server/listQuery';

const THREE = { artworks: ['admin'], contracts: ['admin', 'user'], treatments: ['admin', 'user'] };

/** The 403 an ApiError carries (status and the roles it names), or the scope answered. */
function scopeOrRefusal(roles: string[], filters: Record<string, unknown>) {
  try {
    return archiveReadScope(roles, filters, THREE);
  } catch (e) {
    const err = e as { status?: number; message: string };
    return { refused: err.status, message: err.message };
  }
}

describe('archiveReadScope', () => {
  it('a user reading two of three archived resources lists those two; admin lists all', () => {
    expect(scopeOrRefusal(['user'], {})).toEqual({ resource: ['contracts', 'treatments'] });
    expect(scopeOrRefusal(['admin'], {})).toEqual({});
    expect(scopeOrRefusal(['admin'], { resource: 'artworks' })).toEqual({});
    expect(scopeOrRefusal(['user'], { resource: 'treatments' })).toEqual({ resource: 'treatments' });
  });

  it('refuses a resource the caller may not read, and a caller who may read none (403, naming roles)', () => {
    expect(scopeOrRefusal(['user'], { resource: 'artworks' })).toMatchObject({ refused: 403 });
    expect(scopeOrRefusal(['company'], {})).toMatchObject({ refused: 403 });
    expect(scopeOrRefusal(['company'], {}).message).toMatch(/admin, user/);
  });

  it('a record lies inside an IN scope when its value is one of the scope values', () => {
    const scope = archiveReadScope(['user'], {}, THREE);
    expect(inReadScope({ resource: 'contracts' }, scope)).toBe(true);
    expect(inReadScope({ resource: 'treatments' }, scope)).toBe(true);
    expect(inReadScope({ resource: 'artworks' }, scope)).toBe(false);
    expect(inReadScope({ resource: 'artworks' }, {})).toBe(true);
  });
});

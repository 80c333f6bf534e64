/**
 * A saved view naming a field the schema has since removed (issue 33 item 4) still opens, without it:
 * `restorableView` (src/schema-ui/viewRestore.ts, applied by savedViews.tsx to every saved and last view)
 * leaves out its filter, range bounds, sort and column, and maps the other columns, saved by source, to
 * the datagrid's indexes as they are after the removal (the removed column shifted them).
 */
import { describe, expect, it } from 'vitest';
import { schemaForResource } from '../../kernel/dialect/schemaRegistry';
import {
  columnSources,
  recordFields,
  renamedFields,
  restorableView,
  type AvailableColumn,
} from './viewRestore';

const columnsOf = (sources: string[]): AvailableColumn[] =>
  sources.map((source, i) => ({ index: String(i), source }));
const BEFORE = columnsOf(['id', 'artWorkName', 'possessor', 'classify', 'createTime']);
const AFTER = columnsOf(['id', 'artWorkName', 'classify', 'createTime']);

/** The artwork schema after `x-removed: ["possessor"]`. */
function withoutPossessor() {
  const s = structuredClone(schemaForResource('artworks'));
  delete s.properties.possessor;
  return s;
}

describe('a saved view naming a removed field', () => {
  const saved = {
    filter: { possessor: 'Tate', possessor_gte: 'A', classify: 'painting', author_gte: 3, q: 'sea' },
    sort: { field: 'possessor', order: 'DESC' as const },
    columns: columnSources(['1', '2', '3'], BEFORE),
  };

  it('is saved with its columns by source, which a removal does not shift', () => {
    expect(saved.columns).toEqual(['artWorkName', 'possessor', 'classify']);
  });

  it('opens without the removed field: no filter, bound or sort on it, the other columns kept', () => {
    const fields = recordFields(withoutPossessor());
    expect(fields).toContain('authorName');
    expect(restorableView(saved, AFTER, fields)).toEqual({
      filter: { classify: 'painting', author_gte: 3, q: 'sea' },
      sort: null,
      columns: ['1', '2'], // artWorkName, classify at their new places
    });
  });

  it('is restored unchanged while the schema still has every field it names', () => {
    const fields = recordFields(schemaForResource('artworks'));
    expect(restorableView(saved, BEFORE, fields)).toEqual({ ...saved, columns: ['1', '2', '3'] });
  });

  it('falls back to the default columns when none of its columns is left; old index views still open', () => {
    expect(restorableView({ filter: {}, sort: null, columns: ['possessor'] }, AFTER).columns).toBeNull();
    expect(restorableView({ filter: {}, sort: null, columns: ['0', '3', '9'] }, AFTER).columns).toEqual([
      '0',
      '3',
    ]);
  });

  it('finds a field renamed since (x-renamedFrom) under its new name: filter, bound, sort and column', () => {
    const schema = {
      properties: {
        artWorkName: { type: 'string' },
        medium: { type: 'string', 'x-renamedFrom': 'texture' },
        year: { type: 'integer', 'x-renamedFrom': 'made' },
      },
    };
    const renamed = renamedFields(schema);
    expect(renamed).toEqual({ texture: 'medium', made: 'year' });
    const available: AvailableColumn[] = [
      { index: '0', source: 'artWorkName' },
      { index: '1', source: 'medium' },
      { index: '2', source: 'year' },
    ];
    const view = {
      filter: { texture: 'oil', made_gte: 1800, q: 'sea' },
      sort: { field: 'texture', order: 'DESC' as const },
      columns: ['texture', 'artWorkName'],
    };
    expect(restorableView(view, available, recordFields(schema), renamed)).toEqual({
      filter: { medium: 'oil', year_gte: 1800, q: 'sea' },
      sort: { field: 'medium', order: 'DESC' },
      columns: ['1', '0'],
    });
    // without the renames, the old names are fields no more: left out
    expect(restorableView(view, available, recordFields(schema))).toEqual({
      filter: { q: 'sea' },
      sort: null,
      columns: ['0'],
    });
  });
});

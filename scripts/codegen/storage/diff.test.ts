/**
 * The storage diff (diff.ts) and its checks (rules.ts): refusals at codegen name the table and column;
 * tightened rules give checks with the SQL that finds their rows; widened ones give none.
 */
import { describe, expect, it } from 'vitest';
import { describeSteps, diffStorage, NO_HINTS, type StorageSnapshot } from './diff';
import { tightenedChecks } from './rules';

const table = (columns: Record<string, object>, rules: Record<string, object> = {}): StorageSnapshot => ({
  tables: {
    t: {
      resource: 'ts',
      columns: { id: { type: 'integer', notNull: true, primaryKey: true }, ...columns } as never,
      indexes: {},
      rules: rules as never,
    },
  },
});
const hints = (h: object) => ({
  ...NO_HINTS,
  tables: { t: { renamed: {}, removed: [], onBreak: {}, fill: {}, ...h } },
});

describe('diffStorage', () => {
  const a = table({ title: { type: 'text', notNull: true } }, { title: { type: 'string', maxLength: 50 } });

  it('refuses a column gone without x-removed or x-renamedFrom, and a table gone without --remove-table', () => {
    expect(() => diffStorage(a, table({}))).toThrow(/"t\.title".*x-removed.*x-renamedFrom/);
    expect(() => diffStorage(a, { tables: {} })).toThrow(/--remove-table t/);
  });

  it('refuses a type change with no conversion, accepts integer -> number', () => {
    const int = table({ n: { type: 'integer', notNull: true } }, { n: { type: 'integer' } });
    const str = table({ n: { type: 'text', notNull: true } }, { n: { type: 'string' } });
    const num = table({ n: { type: 'real', notNull: true } }, { n: { type: 'number' } });
    expect(() => diffStorage(int, str)).toThrow(/t\.n changes type integer -> string/);
    expect(describeSteps(diffStorage(int, num))).toEqual(['change column t.n']);
  });

  it('renames, removes and checks as the hints say', () => {
    const b = table({ name: { type: 'text', notNull: true } }, { name: { type: 'string', maxLength: 5 } });
    const steps = diffStorage(
      a,
      b,
      hints({ renamed: { name: 'title' }, onBreak: { name: { truncate: true } } }),
    );
    expect(describeSteps(steps)).toEqual([
      'rename column t.title to name (history follows)',
      'check t.name maxLength 5; breaking rows truncated',
    ]);
    expect(describeSteps(diffStorage(a, table({}), hints({ removed: ['title'] })))).toEqual([
      'remove column t.title (its values kept in removed_values)',
    ]);
  });

  it('keeps the free-text index of a renamed field (its text does not change): the rename carries it', () => {
    const searched = (column: string): StorageSnapshot => {
      const t = table({ [column]: { type: 'text', notNull: true } }).tables.t;
      const search = {
        index: 'trigram' as const,
        columns: [{ name: column, nullable: false }],
        references: [],
      };
      return { tables: { t: { ...t, search: { ...search, pg: 'doc' } } } };
    };
    const steps = diffStorage(searched('title'), searched('name'), hints({ renamed: { name: 'title' } }));
    expect(describeSteps(steps)).toEqual(['rename column t.title to name (history follows)']);
    expect(steps[0]).toMatchObject({ search: { columns: [{ name: 'name' }] } });
  });
});

describe('diffStorage of a table rename', () => {
  const id = { type: 'integer', notNull: true, primaryKey: true };
  const search = (columns: string[], references: object[] = []) => ({
    index: 'trigram' as const,
    columns: columns.map((name) => ({ name, nullable: false })),
    references: references as never,
    pg: 'doc' as const,
  });
  const items = (t: string, kind = 'kind') => ({
    resource: 'items',
    columns: {
      id,
      up: { type: 'integer', notNull: false, references: `${t}.id` },
      [kind]: { type: 'text', notNull: true },
    },
    indexes: { [`${t}_${kind}`]: [kind] },
    search: search([kind]),
  });
  const notes = (t: string) => ({
    resource: 'notes',
    columns: { id, item: { type: 'integer', notNull: false, references: `${t}.id` } },
    indexes: {},
    search: search([], [{ column: 'item', table: t, field: 'kind' }]),
  });
  const before = { tables: { a: items('a'), n: notes('a') } } as unknown as StorageSnapshot;
  const renamed = (h: object = {}) => ({
    ...NO_HINTS,
    tables: { b: { renamed: {}, removed: [], onBreak: {}, fill: {}, renamedFrom: 'a', ...h } },
  });

  it('is one step: references to it, its indexes and every search reading it follow (emit.ts renames them)', () => {
    const after = { tables: { b: items('b'), n: notes('b') } } as unknown as StorageSnapshot;
    const steps = diffStorage(before, after, renamed());
    expect(describeSteps(steps)).toEqual(['rename table a to b']);
    expect(steps[0]).toMatchObject({
      searches: [
        { from: 'a', table: 'b', after: { columns: [{ name: 'kind' }] } },
        { from: 'n', table: 'n', after: { references: [{ table: 'b' }] } },
      ],
    });
  });

  it('renames a column with its plain index, in the same migration', () => {
    const after = { tables: { b: items('b', 'sort'), n: notes('b') } } as unknown as StorageSnapshot;
    after.tables.n.search!.references[0].field = 'sort';
    const steps = diffStorage(before, after, renamed({ renamed: { sort: 'kind' } }));
    expect(describeSteps(steps)).toEqual([
      'rename table a to b',
      'rename column b.kind to sort (history follows)',
      'rebuild the free-text index of n',
    ]);
    expect(steps[1]).toMatchObject({ index: { from: 'b_kind', to: 'b_sort', columns: ['sort'] } });
  });
});

describe('tightenedChecks', () => {
  it('gives one check per tightened rule, none for a widened one', () => {
    const before = { type: 'string' as const, maxLength: 10, enum: ['a', 'b', 'c'] };
    expect(
      tightenedChecks('t', 'c', before, { ...before, maxLength: 20, enum: ['a', 'b', 'c', 'd'] }),
    ).toEqual([]);
    const checks = tightenedChecks('t', 'c', before, {
      type: 'string',
      maxLength: 5,
      enum: ['a', null],
      pattern: '^a',
    });
    expect(checks.map((c) => [c.rule, c.where ?? c.pattern])).toEqual([
      ['maxLength', '"c" IS NOT NULL AND length("c") > 5'],
      ['enum', `"c" IS NOT NULL AND "c" NOT IN ('a')`],
      ['pattern', '^a'],
    ]);
  });
});

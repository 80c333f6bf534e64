import { describe, expect, it } from 'vitest';
import { resourceRow } from './resources';

const schema = (xResource: Record<string, unknown>, properties: Record<string, unknown> = {}) => ({
  $id: 'widget',
  'x-roles': ['admin'],
  'x-resource': xResource,
  'x-endpoints': { getList: {}, getOne: {}, update: {} },
  properties: { id: { type: 'integer', readOnly: true }, ...properties },
});

describe('x-resource → resource registry row', () => {
  it('takes tab paths from the x-ui sections: show all, forms only those with a writable field', () => {
    const row = resourceRow(
      schema(
        { name: 'widgets', group: 'industry/artwork' },
        {
          a: { type: 'string', 'x-ui': { section: 'deal' } },
          b: { type: 'string', readOnly: true, 'x-ui': { section: 'audit' } },
        },
      ),
    );
    expect(row.tabs).toEqual({ show: ['deal', 'audit'], form: ['deal'] });
    expect(row.group).toBe('/industry/artwork');
    expect(row.path).toBe('/industry/artwork/widgets');
    expect(row.roles).toEqual(['admin']);
    expect(row.hidden).toBe(false);
  });

  it('refuses unknown keys, a missing name and a section that shadows a route', () => {
    expect(() => resourceRow(schema({ name: 'w', menuGroup: 'x' }))).toThrow(/unknown key "menuGroup"/);
    expect(() => resourceRow(schema({}))).toThrow(/"name" is required/);
    expect(() =>
      resourceRow(schema({ name: 'w' }, { a: { type: 'string', 'x-ui': { section: 'show' } } })),
    ).toThrow(/section "show" collides/);
  });
});

/**
 * `x-schemaFrom` at every place the dialect admits it (issue 33): the specs found in a schema and the
 * values each reaches in a record (schemaFromSpecs.ts); the server's check is tested through the API
 * (tests/api/dialectKeywords.ts), the generated schemas by the schema fuzz.
 */
import { describe, expect, it } from 'vitest';
import type { ResourceSchema } from './schemaRegistry';
import { schemaFromSpecs, schemaFromTargets } from './schemaFromSpecs';
import { prepareValue } from './formValues';

const from = () => ({ 'x-schemaFrom': { reference: 'template', field: 'paramsSchema' } });
const schema = {
  $id: 'probe',
  type: 'object',
  properties: {
    template: { type: 'integer', 'x-references': { resource: 'contractTemplates' } },
    params: { type: 'object', ...from() },
    terms: { type: 'object', properties: { params: { type: 'object', ...from() } } },
    steps: {
      type: 'array',
      items: { type: 'object', properties: { settings: { type: 'object', ...from() } } },
    },
    byName: { type: 'object', additionalProperties: { type: 'object', ...from() } },
  },
} as unknown as ResourceSchema;

describe('schemaFromSpecs', () => {
  it('finds x-schemaFrom at the top, in an object, in a list’s items and in a map’s values', () => {
    expect(schemaFromSpecs(schema).map((s) => [s.property, s.path.join('/'), s.reference])).toEqual([
      ['params', '', 'template'],
      ['terms', 'params', 'template'],
      ['steps', '[]/settings', 'template'],
      ['byName', '{}', 'template'],
    ]);
  });

  it('refuses a reference that is no top-level x-references property, naming the place', () => {
    const bad = structuredClone(schema) as unknown as { properties: Record<string, any> };
    bad.properties.steps.items.properties.settings['x-schemaFrom'].reference = 'nothing';
    expect(() => schemaFromSpecs(bad as unknown as ResourceSchema)).toThrow(
      'probe.steps.[].settings: x-schemaFrom needs',
    );
  });

  it('reaches every item and map value with its dotted field, skipping absent ones, and sets them', () => {
    const steps = [{ settings: { a: 1 } }, {}, { settings: null }, { settings: { b: 2 } }];
    const targets = schemaFromTargets(steps, 'steps', ['[]', 'settings']);
    expect(targets.map((t) => [t.field, t.value])).toEqual([
      ['steps.0.settings', { a: 1 }],
      ['steps.3.settings', { b: 2 }],
    ]);
    targets[1].set({ b: 3 });
    expect(steps[3]).toEqual({ settings: { b: 3 } });
    expect(schemaFromTargets({ x: {}, y: { n: 1 } }, 'byName', ['{}']).map((t) => t.field)).toEqual([
      'byName.x',
      'byName.y',
    ]);
  });
});

describe('prepareValue in a list of lists', () => {
  it('drops the disallowed nulls of objects inside inner lists, as for any list of objects', () => {
    const prop = {
      type: 'array',
      items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } },
    };
    expect(prepareValue(schema, prop as never, [[{ n: null }, { n: 2 }], []])).toEqual([[{}, { n: 2 }], []]);
  });
});

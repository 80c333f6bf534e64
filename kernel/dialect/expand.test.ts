/**
 * What the dialect derives before anything reads a schema (expand.ts, deref.ts `inlineRefs`, roles.ts):
 * `$ref`s inlined at every depth (the issue's conservation treatment with `$ref`'d items resolves to a
 * kind), a reference that refers back to itself refused with its pointer, the pigeonhole's kinds taken
 * from `x-archive`, and the roles read from the account schema.
 */
import { describe, expect, it } from 'vitest';
import { inlineRefs, RefError } from './deref';
import { expandSchemas } from './expand';
import { fieldSpecs } from './kinds';
import { declaredRoles } from './roles';
import { schemas } from './schemaRegistry';

type Json = Record<string, any>;

const treatment: Json = {
  $id: 'treatment',
  definitions: {
    label: { type: 'string', minLength: 1 },
    intervention: {
      type: 'object',
      properties: { method: { $ref: '#/definitions/label', 'x-i18n': { en: 'Method', zh: '方法' } } },
    },
  },
  properties: {
    interventions: { type: 'array', items: { $ref: '#/definitions/intervention' } },
    title: { $ref: '#/definitions/label', maxLength: 60 },
  },
};

describe('inlineRefs', () => {
  it("inlines $ref'd items and properties at every depth, the node's own keys winning", () => {
    const out = inlineRefs(treatment);
    expect(out.properties.interventions.items).toEqual({
      type: 'object',
      properties: { method: { type: 'string', minLength: 1, 'x-i18n': { en: 'Method', zh: '方法' } } },
    });
    expect(out.properties.title).toEqual({ type: 'string', minLength: 1, maxLength: 60 });
    expect(JSON.stringify(out)).not.toContain('$ref');
    expect(treatment.properties.title.$ref).toBe('#/definitions/label');
  });

  it('gives a list of $ref’d objects its kind (the issue: "cannot resolve a kind for an array of null")', () => {
    const kinds = fieldSpecs(treatment as never).map((f) => [f.name, f.kind]);
    expect(kinds).toEqual([
      ['interventions', 'objectList'],
      ['title', 'text'],
    ]);
  });

  it('refuses a reference that refers back to itself, naming where', () => {
    const loop = {
      $id: 'loop',
      definitions: { node: { type: 'object', properties: { child: { $ref: '#/definitions/node' } } } },
      properties: { tree: { $ref: '#/definitions/node' } },
    };
    expect(() => inlineRefs(loop)).toThrow(RefError);
    try {
      inlineRefs(loop);
    } catch (e) {
      expect((e as RefError).pointer).toBe('/definitions/node/properties/child/$ref');
    }
    const chain = {
      $id: 'chain',
      definitions: { a: { $ref: '#/definitions/b' }, b: { $ref: '#/definitions/a' } },
    };
    expect(() => inlineRefs(chain)).toThrow(/refers to itself/);
  });
});

describe('expandSchemas', () => {
  it('derives the pigeonhole’s kinds from x-archive, a new schema included, labelled by its x-i18n', () => {
    // the repository's schemas (a copy may hold the treatment already: tests/browser/zero-code.test.ts)
    const own = Object.values(schemas).filter((s) => s.$id !== 'treatment') as Json[];
    const list = [
      ...own,
      {
        $id: 'treatment',
        'x-archive': true,
        'x-resource': { name: 'treatments' },
        'x-i18n': { en: 'Treatment |||| Treatments', zh: '修复记录 |||| 修复记录' },
        properties: {},
      },
    ] as Json[];
    const archive = expandSchemas(list).find((s) => s.$id === 'archivedRecord')!;
    expect(archive.properties.resource.enum).toEqual([
      ...own.filter((s) => s['x-archive'] === true).map((s) => s['x-resource'].name),
      'treatments',
    ]);
    expect(archive.properties.resource.enum).toEqual(expect.arrayContaining(['artworks', 'contracts']));
    expect(archive.properties.resource['x-enumLabels'].treatments).toEqual({
      en: 'Treatment',
      zh: '修复记录',
    });
  });

  it('the registry reads the schemas so: no $ref is left', () => {
    expect(JSON.stringify(Object.values(schemas).map((s) => s.properties))).not.toContain('$ref');
  });
});

describe('declaredRoles', () => {
  it("reads the roles from the account schema's roles enum", () => {
    expect(declaredRoles(Object.values(schemas))).toEqual(['admin', 'user', 'company']);
    expect(declaredRoles([{ $id: 'other' }])).toBeUndefined();
  });
});

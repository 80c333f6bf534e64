import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resourceSchemas, schemaForResource, type ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { deref, fieldSpecs, resolveKind, sectionsOf } from '../../kernel/dialect/kinds';
import { nestErrors, prepareValues, schemaValidator } from './validate';
import { kindMap } from './kindMap';
import { FORMATS, KINDS, WIDGETS } from '../../kernel/dialect/kinds';

const artwork = schemaForResource('artworks');
const author = schemaForResource('authors');

describe('resolveKind: widget → reference → enum → format → type', () => {
  it('an explicit widget wins over everything else', () => {
    expect(
      resolveKind({ type: 'integer', enum: [0, 1], 'x-ui': { widget: 'chip', reference: 'x' } }, 'p'),
    ).toBe('chip');
  });
  it('then a reference, then an enum, then a format, then the type', () => {
    expect(resolveKind({ type: 'integer', enum: [1], 'x-ui': { reference: 'authors' } }, 'p')).toBe(
      'reference',
    );
    expect(resolveKind({ type: ['string', 'null'], enum: ['a', null], format: 'uri' }, 'p')).toBe('enum');
    expect(resolveKind({ type: 'string', format: 'date-time' }, 'p')).toBe('datetime');
    expect(resolveKind({ type: ['string', 'null'] }, 'p')).toBe('text');
    expect(resolveKind({ type: ['integer', 'null'] }, 'p')).toBe('integer');
    expect(resolveKind({ type: 'array', items: { type: 'string' } }, 'p')).toBe('stringList');
    expect(resolveKind({ type: 'array', items: { type: 'object' } }, 'p')).toBe('objectList');
    // a list of lists, at any depth
    const lists = { type: 'array', items: { type: 'array', items: { type: 'string' } } } as const;
    expect(resolveKind(lists, 'p')).toBe('listList');
    expect(resolveKind({ type: 'array', items: lists }, 'p')).toBe('listList');
    expect(resolveKind({ type: 'object', properties: {} }, 'p')).toBe('object');
  });
  it('a list of booleans; a value of several types or of none is a JSON value, alone or as items', () => {
    expect(resolveKind({ type: 'array', items: { type: 'boolean' } }, 'p')).toBe('booleanList');
    expect(resolveKind({ type: 'array', items: { type: ['boolean', 'null'] } }, 'p')).toBe('booleanList');
    expect(resolveKind({ type: ['string', 'integer'] }, 'p')).toBe('json');
    expect(resolveKind({}, 'p')).toBe('json');
    expect(resolveKind({ type: 'null' }, 'p')).toBe('json');
    for (const items of [{ type: ['string', 'integer', 'null'] }, {}, { type: 'null' }])
      expect(resolveKind({ type: 'array', items }, 'p')).toBe('jsonList');
    expect(resolveKind({ type: 'array' }, 'p')).toBe('jsonList');
    // integer with number is a number, alone or as items
    expect(resolveKind({ type: ['integer', 'number', 'null'] }, 'p')).toBe('number');
    expect(resolveKind({ type: 'array', items: { type: ['integer', 'number'] } }, 'p')).toBe('numberList');
  });
  it('an unknown widget or format is an explicit error naming the property', () => {
    expect(() => resolveKind({ type: 'string', 'x-ui': { widget: 'rainbow' } }, 'author.x')).toThrow(
      'author.x: unknown x-ui.widget "rainbow"',
    );
    expect(() => resolveKind({ type: 'string', format: 'ipv9' }, 'a.b')).toThrow(
      'a.b: no kind for format "ipv9"',
    );
  });
  it('every property of every schema resolves to a kind the map renders', () => {
    const walk = (s: ResourceSchema, props = s.properties, prefix = ''): void => {
      for (const f of fieldSpecs(s, props, prefix)) {
        expect(kindMap[f.kind], `${s.$id}.${f.source}`).toBeDefined();
        if (f.prop.properties) walk(s, f.prop.properties, f.source);
        if (f.prop.items?.properties) walk(s, f.prop.items.properties, f.source);
      }
    };
    for (const s of resourceSchemas()) walk(s);
    expect(Object.keys(kindMap).sort()).toEqual([...KINDS].sort());
  });
  it('resolves $ref against the definitions, own keys winning', () => {
    const p = deref(artwork, artwork.properties.securityInfo.properties!.watermark);
    expect(p.maxLength).toBe(200);
    expect(p['x-i18n']).toEqual({ en: 'Digital watermark', zh: '数字水印' });
  });
});

describe('sections and order', () => {
  it('artwork: main first, then its sections in order', () => {
    expect(sectionsOf(artwork).map((s) => s.name)).toEqual([
      'main',
      'baseInfo',
      'dealInfo',
      'securityInfo',
      'certificateInfo',
      'traceability',
      'ownership',
      'authenticity',
    ]);
    expect(
      sectionsOf(artwork)[0]
        .fields.slice(0, 4)
        .map((f) => f.source),
    ).toEqual(['id', 'images', 'artWorkName', 'author']);
  });
  it('x-sections.order places the tabs (main first; tabs without an order after, in field order)', () => {
    const schema = {
      $id: 'tabs',
      'x-sections': { b: { en: 'B', zh: '乙', order: 1 }, c: { en: 'C', zh: '丙', order: 0 } },
      properties: {
        id: { type: 'integer' },
        x: { type: 'string', 'x-ui': { section: 'a' } },
        y: { type: 'string', 'x-ui': { section: 'b' } },
        z: { type: 'string', 'x-ui': { section: 'c' } },
      },
    } as unknown as ResourceSchema;
    expect(sectionsOf(schema).map((s) => s.name)).toEqual(['main', 'c', 'b', 'a']);
  });
  it('author: main and wechat', () => {
    expect(sectionsOf(author).map((s) => [s.name, s.fields.length])).toEqual([
      // main includes the read-only chain facts chainDigest and chainVersion (issue 9).
      ['main', 12],
      ['wechat', 4],
    ]);
  });
});

describe('form validation with the shared schema', () => {
  const create = schemaValidator(artwork, 'create', () => 'en');
  const valid = { artWorkName: '虾', author: 1, classify: 'painting', texture: 'ink', images: [] };

  it('a valid artwork has no errors; readOnly fields are ignored', () => {
    expect(create({ ...valid, id: 3, status: 2, createTime: 'x' })).toEqual({});
  });
  it('31 Chinese characters in artWorkName fail x-maxWidth with limit, width and chars', () => {
    expect(create({ ...valid, artWorkName: '山'.repeat(31) })).toEqual({
      artWorkName: { message: 'baas.validation.x-maxWidth', args: { limit: 60, width: 62, chars: 30 } },
    });
    expect(create({ ...valid, artWorkName: '山'.repeat(30) })).toEqual({});
    expect(create({ ...valid, artWorkName: 'a'.repeat(60) })).toEqual({});
  });
  it('emptied required fields read "required", on create and on edit', () => {
    expect(create({ ...valid, artWorkName: null, author: null })).toEqual({
      artWorkName: { message: 'baas.validation.required', args: { missingProperty: 'artWorkName' } },
      author: { message: 'baas.validation.required', args: { missingProperty: 'author' } },
    });
    const update = schemaValidator(artwork, 'update');
    expect(update({ id: 4, ...valid, texture: null })).toEqual({
      texture: { message: 'baas.validation.required', args: { missingProperty: 'texture' } },
    });
    expect(update({ id: 4, ...valid })).toEqual({});
  });
  it('nested and array errors are nested like the form values', () => {
    const errors = create({
      ...valid,
      images: Array(10).fill('/uploads/a.png'),
      baseInfo: { startYear: 1900, endYear: 1800, width: 'wide' },
      traceability: [{ step: 'machineInspection' }, { result: 'ok' }],
    });
    expect(errors).toEqual({
      images: { message: 'baas.validation.maxItems', args: { limit: 9 } },
      baseInfo: {
        width: { message: 'baas.validation.pattern', args: expect.any(Object) },
        endYear: { message: 'baas.validation.x-ordered', args: { first: 'Start year', second: 'End year' } },
      },
      traceability: {
        1: { step: { message: 'baas.validation.required', args: { missingProperty: 'step' } } },
      },
    } as any);
  });
  it('a rule relating two fields names the other one by its label, in the current language', () => {
    const zh = schemaValidator(artwork, 'create', () => 'zh');
    expect(zh({ ...valid, baseInfo: { startYear: 1900, endYear: 1800 } })).toEqual({
      baseInfo: {
        endYear: { message: 'baas.validation.x-ordered', args: { first: '起始年份', second: '结束年份' } },
      },
    });
  });
  it('nullable fields may be null', () => {
    expect(create({ ...valid, possessor: null, baseInfo: { size: null, units: null } })).toEqual({});
  });
  it('prepareValues drops readOnly, unknown and disallowed nulls; keeps id on update', () => {
    expect(
      prepareValues(author, { id: 1, authorName: null, introduction: null, artWorks: 3, foo: 1 }, 'update'),
    ).toEqual({
      introduction: null,
      id: 1,
    });
  });
  it('nestErrors keeps the first message per field', () => {
    expect(
      nestErrors([
        { field: 'a.b', keyword: 'required', params: {}, message: '' },
        { field: 'a.b', keyword: 'type', params: { type: 'string' }, message: '' },
      ]),
    ).toEqual({ a: { b: { message: 'baas.validation.required', args: {} } } });
  });
});

describe('the dialect (schemas/meta.schema.json) and the console agree', () => {
  const meta = JSON.parse(readFileSync('schemas/meta.schema.json', 'utf8'));
  it('x-ui.widget offers exactly the widgets the console renders', () => {
    expect([...meta.definitions.ui.properties.widget.enum].sort()).toEqual(Object.keys(WIDGETS).sort());
  });
  it('every format of the dialect has a kind', () => {
    for (const format of meta.definitions.property.properties.format.enum)
      expect(FORMATS[format]).toBeDefined();
  });
});

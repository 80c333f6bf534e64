import { describe, expect, it } from 'vitest';
import { buildVariant, formatErrors, schemas, withoutDefaults } from './schemaRegistry';
import { createAjv } from './schemaCompiler';
import { queryValidatorFor, validatorFor } from './validators';

describe('custom keywords', () => {
  const v = validatorFor('artwork.create');
  const ok = { artWorkName: 'Sunset', author: 1, classify: 'painting', texture: 'Oil paint on canvas' };
  const errorsOf = (body: unknown) => (v(body) ? [] : formatErrors(v.errors));

  it.each([
    ['a NUL character', 'Sun\u0000set', 'control'],
    ['markup', 'Sunset<script>alert(1)</script>', 'markup'],
    ['only blanks', ' \u3000 ', 'blank'],
  ])('x-plainText refuses %s', (_what, artWorkName, reason) => {
    expect(errorsOf({ ...ok, artWorkName })).toEqual([
      expect.objectContaining({ field: 'artWorkName', keyword: 'x-plainText', params: { reason } }),
    ]);
  });

  it('x-notFuture refuses a year after this one and accepts this one', () => {
    const year = new Date().getUTCFullYear();
    expect(errorsOf({ ...ok, dealInfo: { acquisitionYear: year } })).toEqual([]);
    expect(errorsOf({ ...ok, dealInfo: { acquisitionYear: year + 1 } })).toEqual([
      expect.objectContaining({
        field: 'dealInfo.acquisitionYear',
        keyword: 'x-notFuture',
        params: { limit: year },
      }),
    ]);
  });

  it('x-ordered refuses an end year before the start year', () => {
    expect(errorsOf({ ...ok, baseInfo: { startYear: 1818, endYear: 1768 } })).toEqual([
      expect.objectContaining({
        field: 'baseInfo',
        keyword: 'x-ordered',
        params: { first: 'startYear', second: 'endYear' },
      }),
    ]);
    expect(errorsOf({ ...ok, baseInfo: { startYear: 1818, endYear: null } })).toEqual([]);
  });

  it('keeps ajv in strict mode: an unknown keyword in a schema is an error', () => {
    const ajv = createAjv();
    expect(() => ajv.compile({ type: 'string', 'x-unknown': 1 })).toThrow(/unknown keyword/);
  });
});

describe('request variants', () => {
  it('create refuses read-only fields by name and keeps required', () => {
    const v = validatorFor('author.create');
    expect(v({ authorName: 'A', isBlock: 1 })).toBe(false);
    expect(formatErrors(v.errors)).toEqual([
      expect.objectContaining({
        field: 'isBlock',
        keyword: 'false schema',
        message: 'isBlock: is read-only',
      }),
    ]);
    expect(v({})).toBe(false);
    expect(formatErrors(v.errors)[0]).toMatchObject({ field: 'authorName', keyword: 'required' });
  });

  it('update needs only the id', () => {
    const v = validatorFor('author.update');
    expect(v({ id: 3 })).toBe(true);
    expect(v({ authorName: 'A' })).toBe(false);
    expect(formatErrors(v.errors)[0]).toMatchObject({ field: 'id', keyword: 'required' });
  });

  it('list queries: sortable fields and filters come from x-ui, pageSize is capped at 100', () => {
    const q = buildVariant(schemas.artwork, 'listQuery') as any;
    expect(q.properties.sort.enum).toEqual(['id', 'artWorkName', 'classify', 'createTime']);
    expect(Object.keys(q.properties)).toEqual(
      expect.arrayContaining([
        'page',
        'pageSize',
        'q',
        'order',
        'ids',
        'author',
        'classify',
        'possessor',
        'status',
        'isBlock',
      ]),
    );
    expect(q.properties.pageSize.maximum).toBe(100);
    const coerce = queryValidatorFor('artwork.listQuery');
    const query: Record<string, unknown> = { page: '2', author: '7' };
    expect(coerce(query)).toBe(true);
    expect(query).toEqual({ page: 2, pageSize: 20, author: 7 });
  });

  it('reports one error per field, the type error first', () => {
    const v = validatorFor('author.create');
    expect(v({ authorName: 'A', wxIsEnable: 'yes' })).toBe(false);
    expect(formatErrors(v.errors)).toEqual([
      expect.objectContaining({ field: 'wxIsEnable', keyword: 'type' }),
    ]);
  });
});

describe('partial update variant', () => {
  it('fills no default into an update body: an absent field stays absent', () => {
    const v = validatorFor('author.update');
    const body: Record<string, unknown> = { id: 1, introduction: 'x' };
    expect(v(body)).toBe(true);
    expect(body).toEqual({ id: 1, introduction: 'x' });
    const create: Record<string, unknown> = { authorName: 'A' };
    expect(validatorFor('author.create')(create)).toBe(true);
    expect(create.wxIsEnable).toBe(0);
  });

  it('withoutDefaults drops the keyword at every depth and keeps a property named default', () => {
    const schema = {
      type: 'object',
      default: {},
      properties: {
        default: { type: 'integer', default: 3 },
        list: { type: 'array', default: [], items: { type: 'object', properties: { a: { default: 1 } } } },
      },
      definitions: { d: { type: 'string', default: 'x' } },
    };
    expect(withoutDefaults(schema)).toEqual({
      type: 'object',
      properties: {
        default: { type: 'integer' },
        list: { type: 'array', items: { type: 'object', properties: { a: {} } } },
      },
      definitions: { d: { type: 'string' } },
    });
  });
});

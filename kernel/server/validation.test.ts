/**
 * Which validator a route schema gets: the precompiled one (the console's code) for a schema that stands
 * for a registry id, of the query build for query strings and path parameters; a run-time compile for an
 * ad-hoc schema.
 */
import { describe, expect, it } from 'vitest';
import { formValidatorFor } from '../dialect/formValidator';
import { queryValidatorFor, validatorFor } from '../dialect/validators';
import { registryIdOf, routeCompilers, routeValidator } from './validation';

describe('route schemas', () => {
  const compilers = routeCompilers();

  it('a { $ref } to a registry id or a registry $id runs the precompiled validator', () => {
    expect(routeValidator({ schema: { $ref: 'author.create' }, httpPart: 'body' }, compilers)).toBe(
      formValidatorFor('author', 'create'),
    );
    expect(routeValidator({ schema: { $ref: 'author.listQuery' }, httpPart: 'querystring' }, compilers)).toBe(
      queryValidatorFor('author.listQuery'),
    );
    expect(routeValidator({ schema: { $ref: 'chaincode' }, httpPart: 'params' }, compilers)).toBe(
      queryValidatorFor('chaincode'),
    );
    expect(routeValidator({ schema: { $id: 'author.listBody' }, httpPart: 'body' }, compilers)).toBe(
      validatorFor('author.listBody'),
    );
  });

  it('an ad-hoc schema is compiled, coercing in query strings only', () => {
    const schema = {
      type: 'object',
      properties: { id: { type: 'integer' }, author: { $ref: 'author.create' } },
      required: ['id'],
      additionalProperties: false,
    };
    expect(registryIdOf(schema)).toBeUndefined();
    expect(registryIdOf({ $ref: 'author.create', description: 'x' })).toBeUndefined();
    const query = routeValidator({ schema, httpPart: 'querystring' }, compilers);
    const body = routeValidator({ schema, httpPart: 'body' }, compilers);
    const data = { id: '3' };
    expect(query(data)).toBe(true);
    expect(data).toEqual({ id: 3 });
    expect(body({ id: '3' })).toBe(false);
    expect(body.errors?.[0]).toMatchObject({ instancePath: '/id', keyword: 'type' });
    expect(body({ id: 1, author: { authorName: 'A<b>' } })).toBe(false);
    expect(body.errors?.[0]).toMatchObject({ instancePath: '/author/authorName', keyword: 'x-plainText' });
  });

  it('an unknown $ref is left to ajv, which refuses it', () => {
    expect(() => routeValidator({ schema: { $ref: 'nope.create' }, httpPart: 'body' }, compilers)).toThrow(
      /can't resolve reference nope.create/,
    );
  });
});

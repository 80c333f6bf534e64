/**
 * The precompiled validators (scripts/codegen/validators.ts → common/generated/*Validators.ts): every
 * schema and variant is there in both builds, the output is deterministic, the generated modules import
 * no ajv compiler, and on generated inputs they give what the run-time ajv gives: the same verdict, the
 * same errors (path, keyword, params, message) and the same data afterwards (defaults filled, query
 * strings coerced).
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../kernel/dialect/schemaCompiler';
import { formValidatorFor } from '../../kernel/dialect/formValidator';
import {
  resourceSchemas,
  schemasWithVariants,
  FORM_VARIANTS,
  type ResourceSchema,
  type SchemaValidator,
} from '../../kernel/dialect/schemaRegistry';
import { queryValidatorFor, validatorFor } from '../../kernel/dialect/validators';
import { arbitraryFor } from '../../tests/support/arbitraries';
import { VALIDATOR_OUTPUTS, validatorFiles } from './validators';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ids = schemasWithVariants().map((s) => s.$id as string);

describe('generated validator modules', () => {
  it('hold every schema and variant in both builds; the body build of a form variant is the form one', () => {
    expect(ids).toEqual(
      expect.arrayContaining(['artwork', 'artwork.create', 'company.listQuery', 'chaincode']),
    );
    for (const id of ids) {
      expect(typeof validatorFor(id), id).toBe('function');
      expect(typeof queryValidatorFor(id), id).toBe('function');
      expect(queryValidatorFor(id), id).not.toBe(validatorFor(id));
    }
    for (const s of resourceSchemas())
      for (const kind of FORM_VARIANTS)
        expect(formValidatorFor(s.$id, kind)).toBe(validatorFor(`${s.$id}.${kind}`));
    expect(() => validatorFor('nope')).toThrow('Unknown schema "nope"');
    expect(() => formValidatorFor('nope', 'create')).toThrow('Unknown schema "nope.create"');
  });

  it('are deterministic: two runs give the same text, the one on disk', async () => {
    const a = await validatorFiles(root, '// banner\n');
    const b = await validatorFiles(root, '// banner\n');
    expect(Object.keys(a)).toEqual(VALIDATOR_OUTPUTS.map((o) => o.path));
    for (const path of Object.keys(a)) {
      expect(a[path], path).toBe(b[path]);
      const onDisk = readFileSync(join(root, path), 'utf8');
      expect(onDisk.slice(onDisk.indexOf('\n') + 1), path).toBe(a[path].slice(a[path].indexOf('\n') + 1));
    }
    // Two full generations of every schema and variant: seconds on a busy machine (not a speed check).
  }, 60_000);

  it('import no ajv compiler: only ajv run-time helpers, the keyword rules and each other', () => {
    for (const { path } of VALIDATOR_OUTPUTS) {
      const text = readFileSync(join(root, path), 'utf8');
      const imported = [...text.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
      expect(imported.length, path).toBeGreaterThan(0);
      for (const mod of imported)
        expect(mod, path).toMatch(
          /^(ajv\/dist\/runtime\/[a-z0-9_]+\.js|\.\.\/\.\.\/kernel\/dialect\/(keywordRules|schemaRegistry)|\.\/formValidators)$/,
        );
      expect(text, path).not.toMatch(/\brequire\(|new Function|\beval\(/);
    }
  });
});

/** Values that break rules: wrong types, blanks, markup, far too long or large, numbers as strings. */
const odd = fc.constantFrom<unknown>(
  null,
  '',
  ' \t',
  '<b>x</b>',
  'a\u0000b',
  'x'.repeat(300),
  '作'.repeat(40),
  '7',
  '-3',
  'true',
  '1,2,3',
  'desc',
  0,
  -1,
  2.5,
  1e12,
  9999,
  true,
  [],
  [1, 'a'],
  {},
  { a: 1 },
);

/** A record for `schema`: each property absent, a value its schema suggests, or an odd one; sometimes an unknown key. */
function recordFor(
  schema: ResourceSchema,
  rootSchema: ResourceSchema,
): fc.Arbitrary<Record<string, unknown>> {
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    let suggested: fc.Arbitrary<unknown> = odd;
    try {
      if (prop && typeof prop === 'object') suggested = arbitraryFor(prop, rootSchema);
    } catch {
      // a shape arbitraries.ts does not model: odd values only
    }
    // Query strings carry text: also the suggested value as a string.
    fields[name] = fc.oneof(
      suggested,
      suggested.map((v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v))),
      odd,
    );
  }
  return fc
    .tuple(fc.record(fields, { requiredKeys: [] }), fc.option(fc.constantFrom('bogus', 'id', '__proto__x')))
    .map(([rec, extra]) => (extra ? { ...rec, [extra]: 'x' } : rec));
}

const shape = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map(({ instancePath, keyword, params, message }) => ({
    instancePath,
    keyword,
    params,
    message,
  }));

function same(pre: SchemaValidator, run: SchemaValidator, data: unknown) {
  const a = structuredClone(data);
  const b = structuredClone(data);
  const okPre = pre(a);
  const okRun = run(b);
  expect(okPre).toBe(okRun);
  expect(shape(pre.errors)).toEqual(shape(run.errors));
  expect(a).toEqual(b);
}

describe('precompiled = run-time ajv', () => {
  const runtime = { body: createAjv(), query: createAjv({ coerceTypes: true }) };
  const byId = new Map(schemasWithVariants().map((s) => [s.$id as string, s as ResourceSchema]));
  const rootOf = (id: string) => byId.get(id.split('.')[0])!;

  it.each(ids)('%s: same verdict, errors and data in both builds', (id) => {
    const schema = byId.get(id)!;
    const run = {
      body: runtime.body.getSchema(id) as unknown as SchemaValidator,
      query: runtime.query.getSchema(id) as unknown as SchemaValidator,
    };
    fc.assert(
      fc.property(recordFor(schema, rootOf(id)), (data) => {
        same(validatorFor(id), run.body, data);
        same(queryValidatorFor(id), run.query, data);
      }),
      { numRuns: 150 },
    );
    // Not an object at all.
    for (const data of [null, 'x', 3, []]) {
      same(validatorFor(id), run.body, data);
      same(queryValidatorFor(id), run.query, data);
    }
  });
});

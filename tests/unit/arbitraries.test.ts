/**
 * The value generators the API tests share (tests/support/arbitraries.ts: `arbitraryFor`, `validValues`,
 * `createBodyArbitrary`) serve any schema of the dialect, not only the repository's: for generated schemas
 * (tests/support/schemaArbitraries.ts, every field kind) and the zero-code fixtures, each writable field
 * gets values its own schema accepts, and whole create bodies pass the schema. A generator that misses a
 * keyword (a format, multipleOf, an exclusive bound) made the fuzz suite's create-body filter spin forever
 * on a new schema (tests/browser/zero-code.test.ts); a check that can never pass now throws instead.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { createAjv } from '../../kernel/dialect/schemaCompiler';
import { checkedFilter, createBodyArbitrary, orderedValues, validValues } from '../support/arbitraries';
import { FIELD_KINDS, sampleSchemas } from '../support/schemaArbitraries';

const fixture = (f: string) =>
  JSON.parse(readFileSync(join(__dirname, '../fixtures', f), 'utf8')) as ResourceSchema;
/** Six generated schemas (seed 18) holding every field kind between them, and the two fixtures. */
const schemas: ResourceSchema[] = [
  ...(sampleSchemas(6, 18) as ResourceSchema[]),
  fixture('notice.schema.json'),
  fixture('everything.schema.json'),
];
const refIds = { authors: [1, 2, 3], contractTemplates: [1, 2] };
const ajv = createAjv();
/** The validator of a whole record of `s` (its own schema, compiled apart from the registry). */
const recordCheck = (s: ResourceSchema) => {
  const { $id: _id, ...rest } = s;
  void _id;
  return ajv.compile(rest);
};
const writable = (s: ResourceSchema) =>
  Object.entries(s.properties)
    .filter(([, p]) => !p.readOnly)
    .map(([k]) => k);

describe('value generators over schemas the repository has never seen', () => {
  it('the sample covers every field kind of the dialect', () => {
    // a generated field is named <word><Kind>[n] (orderedDates: <word>From, <word>Until): longest kind first
    const byLength = [...FIELD_KINDS].sort((a, b) => b.length - a.length);
    const kindOf = (field: string) =>
      byLength.find((k) => new RegExp(`${k[0].toUpperCase()}${k.slice(1)}\\d*$`).test(field));
    const kinds = new Set(schemas.flatMap((s) => Object.keys(s.properties).map(kindOf)));
    for (const kind of FIELD_KINDS.filter((k) => k !== 'orderedDates')) expect(kinds, kind).toContain(kind);
    expect(schemas.some((s) => s['x-ordered']?.length)).toBe(true);
  });

  it.each(schemas.map((s) => [s.$id, s] as const))(
    '%s: two distinct values of every writable field that its schema accepts',
    (_id, s) => {
      for (const f of writable(s)) {
        const values = validValues(s, f, 2, refIds);
        expect(values, f).toHaveLength(2);
        expect(JSON.stringify(values[0]), f).not.toBe(JSON.stringify(values[1]));
      }
    },
  );

  it.each(schemas.map((s) => [s.$id, s] as const))(
    '%s: create bodies with every writable field pass the whole schema (x-ordered pairs included)',
    (_id, s) => {
      const check = recordCheck(s);
      const bodies = fc.sample(createBodyArbitrary(s, refIds, check), { numRuns: 20, seed: 18 });
      for (const b of bodies) {
        expect(Object.keys(b).sort()).toEqual(writable(s).sort());
        expect(check(structuredClone(b)), JSON.stringify(check.errors)).toBe(true);
      }
    },
  );
});

describe('orderedValues', () => {
  it.each(schemas.filter((s) => s['x-ordered']?.length).map((s) => [s.$id, s] as const))(
    '%s: every value of the first field of an x-ordered pair is at most every value of the second',
    (_id, s) => {
      const values = orderedValues(s, writable(s), (f) => validValues(s, f, 2, refIds));
      for (const [a, b] of s['x-ordered'] as [string, string][])
        for (const x of values[a])
          for (const y of values[b]) expect(String(x) <= String(y), `${a} ${x} ${b} ${y}`).toBe(true);
      for (const f of writable(s)) expect(values[f], f).toHaveLength(2);
    },
  );
});

describe('checkedFilter', () => {
  it('throws, naming what was generated and why the values failed, when the check accepts none', () => {
    const never = Object.assign(() => false, { errors: [{ keyword: 'format', instancePath: '/startDate' }] });
    expect(() => checkedFilter(fc.string(), never, 'create bodies of notice')).toThrow(
      /create bodies of notice: none of 1000 generated values passes its validator.*\/startDate/,
    );
  });

  it('keeps exactly the values the check accepts when some pass', () => {
    const even = (n: unknown) => (n as number) % 2 === 0;
    const values = fc.sample(checkedFilter(fc.integer({ min: 0, max: 99 }), even, 'even numbers'), {
      numRuns: 50,
      seed: 1,
    });
    expect(values.every(even)).toBe(true);
    expect(new Set(values).size).toBeGreaterThan(1);
  });
});

/**
 * fast-check arbitraries derived from the resource schemas (`schemas/*.schema.json`): values that a
 * field's schema accepts, so tests can fill every field of every resource without listing cases by
 * hand. Supported: `examples` (used as they are), `x-uscc` (GB 32100-2015 codes with their check
 * character), `const`, `enum`, `$ref` to `#/definitions/*` (chains of them too), `pattern`
 * (fc.stringMatching), string/integer/number/boolean, arrays (`uniqueItems`), objects and maps
 * (`additionalProperties` schemas). `null` is never produced: these are the
 * "stored non-default value" side of the tests.
 *
 * Formats, `x-url`, `multipleOf` and exclusive bounds take the values of recordArbitraries.ts `valueArb`.
 *
 * Values are not guaranteed valid (custom keywords such as `x-maxWidth` or `x-notFuture` are not
 * modelled): `validValues` filters them through the same ajv that the server uses, `createBodyArbitrary`
 * through the server's validator (`checkedFilter`: an error, not an endless loop, when none passes);
 * `x-ordered` pairs are put in order (`createBodyArbitrary`, `orderedValues`).
 */
import fc from 'fast-check';
import type { PropertySchema, ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { createAjv } from '../../kernel/dialect/schemaCompiler';
import { USCC_ALPHABET, usccCheckCharacter } from '../../kernel/dialect/keywords';
import { inOrder, mapArbitrary, textArbitrary, valueArb } from './recordArbitraries';

type Json = Record<string, any>;

const PLAIN_CHARS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -', '画', '作'];

/** An arbitrary of values for `prop`; `root` resolves `$ref`s; `refIds` gives ids for `x-ui.reference`. */
export function arbitraryFor(
  prop: PropertySchema | Json,
  root: ResourceSchema,
  refIds: Record<string, number[]> = {},
): fc.Arbitrary<unknown> {
  if (prop.$ref) {
    // the definition, itself maybe a `$ref` (a chain), under the property's own keywords
    const name = String(prop.$ref).replace('#/definitions/', '');
    const { $ref: _ref, ...own } = prop;
    return arbitraryFor({ ...root.definitions[name], ...own }, root, refIds);
  }
  if (prop.const !== undefined) return fc.constant(prop.const);
  if (Array.isArray(prop.examples) && prop.examples.length) return fc.constantFrom(...prop.examples);
  const reference = prop['x-ui']?.reference;
  if (reference) {
    const ids = refIds[reference];
    if (!ids?.length) throw new Error(`arbitraryFor: no ids given for reference "${reference}"`);
    return fc.constantFrom(...ids);
  }
  if (prop['x-uscc']) {
    // GB 32100-2015: 2 registration chars, a 6-digit division code, 9 chars, then the check character.
    const ch = fc.constantFrom(...USCC_ALPHABET);
    const digit = fc.constantFrom(...'0123456789');
    return fc
      .tuple(
        fc.array(ch, { minLength: 2, maxLength: 2 }),
        fc.array(digit, { minLength: 6, maxLength: 6 }),
        fc.array(ch, { minLength: 9, maxLength: 9 }),
      )
      .map(([a, b, c]) => [...a, ...b, ...c].join(''))
      .map((s) => s + usccCheckCharacter(s));
  }
  if (prop.enum) {
    const values = prop.enum.filter((v: unknown) => v !== null);
    return fc.constantFrom(...values);
  }
  const types = ([] as string[]).concat(prop.type ?? 'string').filter((t) => t !== 'null');
  const type = types[0];
  switch (type) {
    case 'string': {
      // A format's or x-url's grammar, which plain text never matches: recordArbitraries.ts.
      if (prop.format !== undefined || prop['x-url']) return valueArb(prop, refIds);
      return textArbitrary(prop, PLAIN_CHARS, 1, (s) => s.length > 0);
    }
    case 'integer':
    case 'number': {
      // Steps and exclusive bounds, which a random number almost never meets: recordArbitraries.ts.
      if (['multipleOf', 'exclusiveMinimum', 'exclusiveMaximum'].some((k) => prop[k] !== undefined))
        return valueArb(prop, refIds);
      const min = prop.minimum ?? 0;
      const max = Math.min(prop.maximum ?? Infinity, min + (type === 'integer' ? 10_000 : 1e6));
      if (type === 'integer') return fc.integer({ min, max });
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const maxLength = Math.max(1, Math.min(prop.maxItems ?? 3, 3));
      const items = arbitraryFor(prop.items ?? {}, root, refIds);
      if (prop.uniqueItems)
        return fc.uniqueArray(items, { minLength: 1, maxLength, selector: (v) => JSON.stringify(v) });
      return fc.array(items, { minLength: 1, maxLength });
    }
    case 'object': {
      const props = (prop.properties ?? {}) as Record<string, Json>;
      if (!prop.properties && prop.additionalProperties && typeof prop.additionalProperties === 'object')
        return mapArbitrary(prop, (p) => arbitraryFor(p, root, refIds));
      return fc.record(
        Object.fromEntries(Object.entries(props).map(([k, p]) => [k, arbitraryFor(p, root, refIds)])),
      );
    }
    default:
      throw new Error(`arbitraryFor: unsupported type ${JSON.stringify(prop.type)}`);
  }
}

/** A validator as ajv compiles them: true or false, and the errors of the last call that failed. */
type Check = ((data: unknown) => boolean) & { errors?: unknown[] | null };

/**
 * `arb.filter(check)` (the value cloned first: the check may add defaults), after finding that `check`
 * accepts at least one of `tries` draws (fixed seed). fast-check's filter draws until a value passes,
 * synchronously: values the check never accepts (a keyword the generator does not model) would spin
 * past every test timeout, where this throws.
 * @throws naming `what`, with the errors of the last refused draw, when none of the draws passes
 */
export function checkedFilter<T>(
  arb: fc.Arbitrary<T>,
  check: Check,
  what: string,
  tries = 1000,
): fc.Arbitrary<T> {
  const keep = (v: T) => check(structuredClone(v));
  let last: unknown;
  for (let seed = 0; seed * 100 < tries; seed++)
    for (const v of fc.sample(arb, { numRuns: 100, seed })) {
      if (keep(v)) return arb.filter(keep);
      last = check.errors;
    }
  throw new Error(
    `${what}: none of ${tries} generated values passes its validator; the last one failed with ${JSON.stringify(last).slice(0, 600)}`,
  );
}

/**
 * Create bodies of `schema`: every writable field (`arbitraryFor`), the top-level `x-ordered` pairs put
 * in order, kept when `check` (the server's validator of the create call) accepts them.
 * @throws as {@link checkedFilter} does when the check accepts none
 */
export function createBodyArbitrary(
  schema: ResourceSchema,
  refIds: Record<string, number[]>,
  check: Check,
): fc.Arbitrary<Json> {
  const fields = Object.entries(schema.properties).filter(([, p]) => !p.readOnly);
  const record = fc
    .record(Object.fromEntries(fields.map(([f, p]) => [f, arbitraryFor(p, schema, refIds)])))
    .map((b) => inOrder(schema, b));
  return checkedFilter(record, check, `create bodies of ${schema.$id}`);
}

/** A stable seed per name, so two fields with the same rule get different values. */
function seedOf(name: string): number {
  let h = 2166136261;
  for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

let ajv: ReturnType<typeof createAjv> | undefined;

/**
 * `count` distinct values for property `field` of `schema`, each valid for the property; the first is
 * never the `default`, which only comes last when the schema leaves no other value (a 0/1 switch). Deterministic for a given `seed`. Throws when the schema leaves too few values.
 */
export function validValues(
  schema: ResourceSchema,
  field: string,
  count: number,
  refIds: Record<string, number[]> = {},
  seed = seedOf(`${schema.$id}.${field}`),
): unknown[] {
  ajv ??= createAjv();
  const prop = schema.properties[field];
  const { $id: _id, ...rest } = schema;
  void _id;
  const check = ajv.compile({
    type: 'object',
    definitions: rest.definitions ?? {},
    properties: { [field]: prop },
  });
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const out: unknown[] = [];
  let sawDefault = false;
  const candidates = fc.sample(arbitraryFor(prop, schema, refIds), { numRuns: 400, seed });
  for (const v of candidates) {
    if (out.length === count) break;
    if (prop.default !== undefined && same(v, prop.default)) {
      sawDefault = true;
      continue;
    }
    if (out.some((o) => same(o, v))) continue;
    if (check({ [field]: structuredClone(v) })) out.push(v);
  }
  // A two-valued enum has one non-default value: the default itself comes last.
  if (out.length < count && sawDefault) out.push(prop.default);
  if (out.length < count)
    throw new Error(`validValues: only ${out.length} of ${count} values for ${schema.$id}.${field}`);
  return out;
}

/**
 * The values `valuesOf` gives each of `fields` (e.g. {@link validValues}), those of each top-level
 * `x-ordered` pair [a, b] shared out again so that every value of a is at most every value of b
 * (numbers by value, text such as ISO dates by code unit): any mix of them, as a create and then updates
 * of one field at a time send, keeps the pair in order.
 */
export function orderedValues(
  schema: ResourceSchema,
  fields: string[],
  valuesOf: (field: string) => unknown[],
): Record<string, unknown[]> {
  const out = Object.fromEntries(fields.map((f) => [f, valuesOf(f)]));
  const before = (x: unknown, y: unknown) => {
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) === String(y) ? 0 : String(x) < String(y) ? -1 : 1;
  };
  for (const [a, b] of (schema['x-ordered'] ?? []) as [string, string][]) {
    if (!out[a] || !out[b]) continue;
    const pool = [...out[a], ...out[b]].sort(before);
    [out[a], out[b]] = [pool.slice(0, out[a].length), pool.slice(out[a].length)];
  }
  return out;
}

/**
 * fast-check arbitraries of the records a resource schema of the dialect accepts, derived from the
 * schema alone (so they serve generated schemas, tests/support/schemaArbitraries.ts, and written ones):
 * `valueArb` per property (formats date, date-time, email, uri; x-url; patterns; bounds, multipleOf and
 * exclusive bounds; enums; booleans; references to given ids; arrays; nested objects; values of several
 * types or of none), `recordArbitrary`
 * per record (x-ordered pairs put in order), and `invalidCases`: one refused body per field that has a
 * rule, with the field the 400 must name.
 */
import fc from 'fast-check';
import type { PropertySchema } from '../../kernel/dialect/schemaRegistry';
import { USCC_ALPHABET, usccCheckCharacter } from '../../kernel/dialect/keywords';

/** Unified Social Credit Codes with a right check character (GB 32100-2015; `x-uscc`). */
function arbitraryForUscc(): fc.Arbitrary<string> {
  const ch = fc.constantFrom(...USCC_ALPHABET);
  const digits = fc.array(fc.constantFrom(...'0123456789'), { minLength: 6, maxLength: 6 });
  return fc
    .tuple(fc.array(ch, { minLength: 2, maxLength: 2 }), digits, fc.array(ch, { minLength: 9, maxLength: 9 }))
    .map(([a, b, c]) => [...a, ...b, ...c].join(''))
    .map((s) => s + usccCheckCharacter(s));
}

type Json = Record<string, any>;

/**
 * A string for the string property `prop`: one matching its `pattern` within its `minLength` (else
 * `patternMin`) and `maxLength` (else 1000), or else 1 to at most 24 of `chars` (at least `minLength`)
 * without spaces around it that `keep` accepts.
 */
export function textArbitrary(
  prop: PropertySchema,
  chars: readonly string[],
  patternMin: number,
  keep: (s: string) => boolean,
): fc.Arbitrary<string> {
  if (prop.pattern)
    return fc
      .stringMatching(new RegExp(prop.pattern))
      .filter((s) => s.length >= (prop.minLength ?? patternMin) && s.length <= (prop.maxLength ?? 1000));
  return fc
    .array(fc.constantFrom(...chars), {
      minLength: Math.max(1, prop.minLength ?? 1),
      maxLength: Math.max(1, Math.min(prop.maxLength ?? 24, 24)),
    })
    .map((cs) => cs.join(''))
    .filter((s) => s.trim() === s && keep(s));
}

const TEXT_CHARS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -', '画', '作', '展'];

const dateArb = fc
  .record({
    y: fc.integer({ min: 1990, max: 2099 }),
    m: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 28 }),
  })
  .map(({ y, m, d }) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);

/**
 * Maps of `prop` (an object with an `additionalProperties` schema): 1 to `maxProperties` (at most 3)
 * keys matching its `propertyNames` pattern (else 1 to 8 lower-case letters), values from `values`.
 */
export function mapArbitrary(prop: Json, values: (p: Json) => fc.Arbitrary<unknown>): fc.Arbitrary<Json> {
  const names = prop.propertyNames ?? {};
  const key = fc
    .stringMatching(new RegExp(names.pattern ?? '^[a-z]{1,8}$'))
    .filter((k) => k.length >= 1 && k.length <= (names.maxLength ?? 8) && k !== '__proto__');
  return fc.dictionary(key, values(prop.additionalProperties), {
    minKeys: Math.max(1, prop.minProperties ?? 1),
    maxKeys: Math.min(prop.maxProperties ?? 3, 3),
  });
}

/** A property merged with the definition its `$ref` names (own keys win), chains followed. */
export function derefIn(defs: Json, prop: Json): Json {
  if (typeof prop?.$ref !== 'string') return prop;
  const { $ref, ...own } = prop;
  return { ...derefIn(defs, defs[String($ref).replace('#/definitions/', '')] ?? {}), ...own };
}

/**
 * `v`, a value of `raw`, as the server stores it: an absent property of a nested object (at any depth,
 * through `$ref`s: the server reads its schemas with every reference inlined) gets its schema's default.
 */
export function withDefaults(defs: Json, v: unknown, raw: Json): unknown {
  const d = derefIn(defs, raw) as Json | undefined;
  if (!v || typeof v !== 'object' || Array.isArray(v) || !d?.properties) return v;
  const out: Json = { ...(v as Json) };
  for (const [n, sub] of Object.entries<Json>(d.properties)) {
    const sd = derefIn(defs, sub) as Json | undefined;
    if (out[n] === undefined && sd?.default !== undefined) out[n] = sd.default;
    else if (out[n] !== undefined && sd) out[n] = withDefaults(defs, out[n], sd);
  }
  return out;
}

/** Any JSON value (of a property of no type): a word, a whole number, a boolean or a small object. */
const jsonValueArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.stringMatching(/^[a-z]{1,8}$/),
  fc.integer({ min: -1000, max: 1000 }),
  fc.boolean(),
  fc.record({ note: fc.stringMatching(/^[a-z]{1,8}$/) }),
);

/**
 * Values `prop` accepts (never null: the "stored value" side): of a property of several types, a value of
 * each; of one of none, any JSON value. `refIds` gives ids for references, `defs` the schema's
 * `definitions` (for `$ref`).
 */
export function valueArb(
  raw: Json,
  refIds: Record<string, number[]>,
  defs: Json = {},
): fc.Arbitrary<unknown> {
  const prop = derefIn(defs, raw);
  if (prop.const !== undefined) return fc.constant(prop.const);
  if (prop['x-uscc']) return arbitraryForUscc();
  const reference = prop['x-references']?.resource ?? prop['x-ui']?.reference;
  if (reference) return fc.constantFrom(...(refIds[reference] ?? [1]));
  if (prop.enum) return fc.constantFrom(...prop.enum.filter((v: unknown) => v !== null));
  // no type: any JSON value; several types: a value of each (kernel/dialect/kinds.ts `json`)
  if (prop.type === undefined) return jsonValueArb;
  const types = ([] as string[]).concat(prop.type).filter((t) => t !== 'null');
  if (types.length > 1) return fc.oneof(...types.map((t) => valueArb({ ...prop, type: t }, refIds, defs)));
  const type = types[0] ?? 'string';
  switch (type) {
    case 'string': {
      if (prop.format === 'date') return dateArb;
      if (prop.format === 'date-time')
        return fc
          .tuple(
            dateArb,
            fc.integer({ min: 0, max: 23 }),
            fc.integer({ min: 0, max: 59 }),
            fc.integer({ min: 0, max: 59 }),
          )
          .map(([d, h, mi, s]) => `${d}T${[h, mi, s].map((n) => String(n).padStart(2, '0')).join(':')}Z`);
      if (prop.format === 'email')
        return fc
          .tuple(
            fc.stringMatching(/^[a-z][a-z0-9.]{0,10}[a-z0-9]$/),
            fc.constantFrom('example.org', 'museum.cn', 'art.example.com'),
          )
          .filter(([local]) => !local.includes('..'))
          .map(([local, host]) => `${local}@${host}`);
      if (prop.format === 'uri' || prop['x-url'])
        return fc
          .tuple(
            fc.constantFrom('https', 'http'),
            fc.constantFrom('example.org', 'museum.cn'),
            fc.stringMatching(/^[a-z0-9/-]{0,20}$/),
          )
          .map(([s, h, p]) => `${s}://${h}/${p}`);
      return textArbitrary(
        prop,
        TEXT_CHARS,
        0,
        (s) => s.length >= Math.max(1, prop.minLength ?? 1) && !s.includes('  '),
      );
    }
    case 'integer':
    case 'number': {
      const lo = prop.minimum ?? prop.exclusiveMinimum ?? -1_000_000;
      const hi = prop.maximum ?? prop.exclusiveMaximum ?? 1_000_000;
      const inside = (n: number) =>
        !(prop.exclusiveMinimum !== undefined && n <= prop.exclusiveMinimum) &&
        !(prop.exclusiveMaximum !== undefined && n >= prop.exclusiveMaximum);
      const step = prop.multipleOf ?? (type === 'integer' ? 1 : undefined);
      if (step !== undefined)
        return fc
          .integer({ min: Math.ceil(lo / step), max: Math.floor(hi / step) })
          .map((k) => (k * step === 0 ? 0 : k * step))
          .filter(inside);
      return fc
        .double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true })
        .map((n) => (Object.is(n, -0) ? 0 : n))
        .filter(inside);
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const limits = { minLength: 1, maxLength: Math.min(prop.maxItems ?? 3, 3) };
      const items = valueArb(prop.items ?? {}, refIds, defs);
      return prop.uniqueItems
        ? fc.uniqueArray(items, { ...limits, selector: (v) => JSON.stringify(v) })
        : fc.array(items, limits);
    }
    case 'object': {
      const props = (prop.properties ?? {}) as Json;
      if (!prop.properties && prop.additionalProperties && typeof prop.additionalProperties === 'object')
        return mapArbitrary(prop, (p) => valueArb(p, refIds, defs));
      const required = new Set<string>(prop.required ?? []);
      return fc.record(
        Object.fromEntries(Object.entries(props).map(([k, p]) => [k, valueArb(p, refIds, defs)])),
        {
          requiredKeys: Object.keys(props).filter((k) => required.has(k)),
        },
      );
    }
    default:
      throw new Error(`valueArb: unsupported type ${JSON.stringify(prop.type)}`);
  }
}

/**
 * The writable properties of a schema (not readOnly), by name, each as the server reads it: a `$ref`'d
 * property merged with its definition (chains followed; the server inlines every reference), so that its
 * `default`, `readOnly` and rules are the definition's under the property's own keys.
 */
export const writable = (schema: Json): [string, Json][] =>
  Object.entries<Json>(schema.properties)
    .map(([k, p]): [string, Json] => [k, derefIn(schema.definitions ?? {}, p)])
    .filter(([, p]) => !p.readOnly);

/**
 * Valid records of `schema`: every required field, each optional one present or not, `x-ordered` pairs
 * put in order. Unique fields get distinct values through the caller's sampling (use `seed` per record).
 */
export function recordArbitrary(schema: Json, refIds: Record<string, number[]>): fc.Arbitrary<Json> {
  const required = new Set<string>(schema.required ?? []);
  const props = writable(schema);
  return fc
    .record(Object.fromEntries(props.map(([k, p]) => [k, valueArb(p, refIds, schema.definitions)])), {
      requiredKeys: props.map(([k]) => k).filter((k) => required.has(k)),
    })
    .map((rec) => inOrder(schema, rec));
}

/**
 * `rec` with the values of each `x-ordered` pair of `schema` (at every depth: nested objects, lists'
 * and maps' objects) swapped when the first is the
 * greater (numbers by value, text such as ISO dates by code unit, as keywordRules.ts compares them).
 */
export function inOrder(schema: Json, rec: Json, defs: Json = schema.definitions ?? {}): Json {
  for (const [a, b] of (schema['x-ordered'] ?? []) as [string, string][]) {
    const [x, y] = [rec[a], rec[b]];
    if (x === undefined || x === null || y === undefined || y === null) continue;
    if (typeof x === 'number' && typeof y === 'number' ? x > y : String(x) > String(y))
      [rec[a], rec[b]] = [y, x];
  }
  // the pairs of nested objects, of lists' objects and of maps' objects too
  const visit = (raw: Json, v: unknown) => {
    const p = derefIn(defs, raw ?? {});
    if (Array.isArray(v)) for (const x of v) visit(p.items, x);
    else if (v && typeof v === 'object')
      if (p.properties) inOrder(p, v as Json, defs);
      else if (p.additionalProperties && typeof p.additionalProperties === 'object')
        for (const x of Object.values(v)) visit(p.additionalProperties, x);
  };
  for (const [k, p] of Object.entries<Json>(schema.properties ?? {})) visit(p, rec[k]);
  return rec;
}

/** One refused body: `body` differs from a valid record only at `field`, which the 400 must name. */
export interface InvalidCase {
  field: string;
  why: string;
  body: Json;
}

/**
 * One refused variant of the valid record `valid` per writable field that has a rule: a value of the
 * wrong type, out of bounds, off the pattern or format, outside the enum, a reference to no record, or
 * a required field left out.
 */
export function invalidCases(schema: Json, valid: Json): InvalidCase[] {
  const out: InvalidCase[] = [];
  const required = new Set<string>(schema.required ?? []);
  const set = (field: string, why: string, value: unknown) =>
    out.push({ field, why, body: { ...valid, [field]: value } });
  for (const [name, p] of writable(schema)) {
    const type = ([] as string[]).concat(p.type ?? 'string').find((t) => t !== 'null');
    if (required.has(name)) {
      const { [name]: _omitted, ...rest } = valid;
      void _omitted;
      out.push({ field: name, why: 'required field left out', body: rest });
    }
    if (p['x-references']) set(name, 'a reference to no record', 2_000_000_000);
    else if (p.enum) set(name, 'a value outside the enum', type === 'integer' ? 77 : 'not-in-enum');
    else if (type === 'string' && p.format) set(name, `not a ${p.format}`, 'not a valid value');
    else if (type === 'string' && p.pattern) set(name, 'off the pattern', 'lower case!');
    else if (type === 'string' && p.maxLength !== undefined)
      set(name, 'longer than maxLength', 'x'.repeat(p.maxLength + 1));
    else if (p.multipleOf !== undefined)
      set(name, 'not a multiple of multipleOf', p.multipleOf * 3 + p.multipleOf / 2 + 0.001);
    else if (p.exclusiveMaximum !== undefined) set(name, 'at the exclusive maximum', p.exclusiveMaximum);
    else if (type === 'integer' || type === 'number') set(name, 'above the maximum', (p.maximum ?? 1e6) + 1);
    else if (type === 'boolean') set(name, 'not a boolean', 'maybe');
    else if (type === 'array') set(name, 'not an array', 'x');
    else if (type === 'object') set(name, 'not an object', 5);
  }
  return out;
}

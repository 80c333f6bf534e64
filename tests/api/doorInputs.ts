/**
 * Bad input derived from a route's body schema (tests/api/doors.test.ts): one fault per body, each
 * naming the field the refusal must name. From the schema's own rules, so a new field or rule is tried
 * the day it lands: a string over its `maxLength` (or `x-maxWidth`), a value of the wrong type, markup
 * and a control character in an `x-plainText` field, an unknown field (`additionalProperties: false`),
 * a missing required field. Top-level properties and those of a nested object (`a.b`).
 */
type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: unknown;
  maxLength?: number;
  'x-maxWidth'?: number;
  'x-plainText'?: boolean;
  readOnly?: boolean;
  enum?: unknown[];
  const?: unknown;
  $ref?: string;
};

/** One bad body and the field its refusal must name. */
export interface BadInput {
  fault: 'too long' | 'wrong type' | 'markup' | 'control character' | 'unknown field' | 'missing required';
  field: string;
  body: Record<string, unknown>;
}

const types = (s: Schema) => ([] as string[]).concat(s.type ?? []);

/** A value whose JSON type `s` does not allow. */
function wrongTypeValue(s: Schema): unknown {
  const t = types(s);
  if (!t.length) return undefined;
  if (!t.includes('object')) return { zz: 1 };
  if (!t.includes('string')) return 'zz';
  return undefined;
}

/** `body` with `path` (dotted, at most two levels) set to `value` (undefined: removed). */
function withValue(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const out = structuredClone(body);
  const [head, tail] = path.split('.');
  if (tail === undefined) {
    if (value === undefined) delete out[head];
    else out[head] = value;
    return out;
  }
  const inner = (typeof out[head] === 'object' && out[head] !== null ? out[head] : {}) as Record<
    string,
    unknown
  >;
  out[head] = withValue(inner, tail, value);
  return out;
}

/** The properties of `schema` and of its nested objects, with their dotted paths (writable ones). */
function fields(schema: Schema, resolve: (s: Schema) => Schema): [string, Schema][] {
  const out: [string, Schema][] = [];
  for (const [name, raw] of Object.entries(schema.properties ?? {})) {
    const p = resolve(raw);
    if (typeof p !== 'object' || p.readOnly) continue;
    out.push([name, p]);
    if (types(p).includes('object'))
      for (const [inner, rawInner] of Object.entries(p.properties ?? {})) {
        const q = resolve(rawInner);
        if (typeof q === 'object' && !q.readOnly) out.push([`${name}.${inner}`, q]);
      }
  }
  return out;
}

/**
 * The bad bodies of `schema` (a resolved object schema), each `base` (a good body, or {}) with one fault.
 * @param resolve resolves a `$ref` property schema
 */
export function badInputs(
  schema: Schema,
  base: Record<string, unknown>,
  resolve: (s: Schema) => Schema = (s) => s,
): BadInput[] {
  const out: BadInput[] = [];
  const all = fields(schema, resolve);
  const long = all.find(
    ([, p]) => types(p).includes('string') && !p.enum && (p.maxLength ?? p['x-maxWidth']),
  );
  if (long) {
    const [path, p] = long;
    out.push({
      fault: 'too long',
      field: path,
      body: withValue(base, path, 'x'.repeat((p.maxLength ?? p['x-maxWidth'])! + 1)),
    });
  }
  const typed = all.find(([, p]) => wrongTypeValue(p) !== undefined);
  if (typed)
    out.push({
      fault: 'wrong type',
      field: typed[0],
      body: withValue(base, typed[0], wrongTypeValue(typed[1])),
    });
  const plain = all.find(([, p]) => p['x-plainText'] && types(p).includes('string'));
  if (plain) {
    out.push({
      fault: 'markup',
      field: plain[0],
      body: withValue(base, plain[0], 'a <b onclick=x>bold</b>'),
    });
    out.push({
      fault: 'control character',
      field: plain[0],
      body: withValue(base, plain[0], 'a\u001b[31mred'),
    });
  }
  if (schema.additionalProperties === false)
    out.push({
      fault: 'unknown field',
      field: 'zzUnknown',
      body: { ...structuredClone(base), zzUnknown: 1 },
    });
  const required = schema.required?.[0];
  if (required)
    out.push({ fault: 'missing required', field: required, body: withValue(base, required, undefined) });
  return out;
}

/**
 * Malformed request parts derived from the resource schemas (`schemas/*.schema.json`), for the fuzz suite
 * tests/api/fuzz.test.ts. For one property (its JSON Schema) {@link malformationsFor} lists the bad
 * values of each malformation class that applies to it; {@link TEXT_POLICY} is the oracle of what a stored
 * string must never hold, independent of the server's own validators.
 *
 * Text policy (issue 11), checked on every stored string:
 * - no NUL, no other C0 control except tab/LF/CR, no DEL, no C1 control (U+0080–U+009F);
 * - no lone UTF-16 surrogate;
 * - names and titles (`x-plainText`) hold no bidi embedding/override/isolate (U+202A–U+202E,
 *   U+2066–U+2069), are not made only of zero-width characters (U+200B–U+200D, U+2060, U+FEFF), and hold
 *   no line break (LF, CR, U+2028, U+2029) — the issue's policy for names; other text may carry them;
 * - URL fields (`x-ui.widget` url/image/images, `#/definitions/url`) never use the `javascript:` scheme.
 * Numbers: finite; integers within the schema's bounds and the 32-bit columns (−2^31 .. 2^31−1).
 */
import type { PropertySchema, ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { displayWidth } from '../../common/displayWidth';

type Json = Record<string, any>;

/** A value to put into a request: a JSON value, or `raw` JSON text (tokens JSON.stringify cannot write). */
export type Bad = { raw: string } | { value: unknown };

/** One malformation of one field: its class, the dotted field path, the bad value, whether it must be refused. */
export interface Malformation {
  cls: string;
  field: string;
  bad: Bad;
  mustRefuse: boolean;
}

/** The property schema with a `$ref` to `#/definitions/*` resolved (the ref name kept as `refName`). */
export function resolve(prop: Json, root: ResourceSchema): Json {
  if (!prop.$ref) return prop;
  const name = String(prop.$ref).replace('#/definitions/', '');
  return { ...root.definitions[name], ...prop, $ref: undefined, refName: name };
}

export const typesOf = (p: Json): string[] => ([] as string[]).concat(p.type ?? []);

/** True for a property that holds a URL (see the module doc). */
export const isUrlField = (p: Json) =>
  p.refName === 'url' || ['url', 'image', 'images'].includes(p['x-ui']?.widget);

/** Text-policy breaches of `s` in a field of schema `p` (empty when `s` is clean). */
export function textPolicyBreaches(s: string, p: Json, parentIsUrl = false): string[] {
  const out: string[] = [];
  // eslint-disable-next-line no-control-regex
  if (/\u0000/.test(s)) out.push('nul');
  // eslint-disable-next-line no-control-regex
  if (/[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s)) out.push('c0-control');
  if (/[\u0080-\u009f]/.test(s)) out.push('c1-control');
  if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s))
    out.push('lone-surrogate');
  if (p['x-plainText'] && /[\u202a-\u202e\u2066-\u2069]/.test(s)) out.push('bidi-override');
  if (p['x-plainText'] && s.length > 0 && /^[\u200b-\u200d\u2060\ufeff]+$/.test(s))
    out.push('zero-width-only');
  if (p['x-plainText'] && /[\n\r\u2028\u2029]/.test(s)) out.push('line-break-in-name');
  // eslint-disable-next-line no-control-regex
  if ((isUrlField(p) || parentIsUrl) && /^javascript:/i.test(s.replace(/[\u0000-\u0020]/g, '')))
    out.push('javascript-url');
  return out;
}

/** The text-policy classes: bad strings of each (see the module doc). */
export const TEXT_POLICY: Record<string, string[]> = {
  nul: ['a\u0000b', '\u0000'],
  'c0-control': ['a\u0007b', '\u001b[31mred', 'a\u007fb'],
  'c1-control': ['a\u0085b', 'a\u009bb'],
  'lone-surrogate': ['a\ud800b', '\udfff'],
  'bidi-override': ['abc\u202edcba', '\u2066x\u2069'],
  'zero-width-only': ['\u200b', '\u200b\u200c\u200d', '\ufeff'],
  'line-break-in-name': ['a\nb', 'a\r\nb', 'a\u2028b'],
  'javascript-url': ['javascript:alert(1)', ' JaVaScRiPt:alert(1)', 'java\tscript:alert(1)'],
};

/** Number tokens, as JSON text: `1e400` parses to Infinity. */
export const NUMBER_TOKENS = [
  '1e400',
  '-1e400',
  '1e300',
  '-1e300',
  '-0',
  '2147483648',
  '4294967296',
  '9007199254740993',
  '-2147483649',
  '1.5',
];

const INT32 = { min: -2147483648, max: 2147483647 };

/** Whether the number `n` must be refused for property `p` (module doc: finite, bounds, 32-bit integers). */
export function numberMustRefuse(n: number, p: Json): boolean {
  const types = typesOf(p);
  if (!Number.isFinite(n)) return true;
  if (!types.includes('number') && !Number.isInteger(n)) return true;
  if (p.enum && !p.enum.includes(n)) return true;
  const min = p.minimum ?? (types.includes('number') ? -Number.MAX_VALUE : INT32.min);
  const max = p.maximum ?? (types.includes('number') ? Number.MAX_VALUE : INT32.max);
  if (n < min || n > max) return true;
  if (!types.includes('number') && (n < INT32.min || n > INT32.max)) return true;
  return false;
}

const SAMPLE_VALUES: unknown[] = [123, 1.5, true, 'text', '', [], [1], {}, { a: 1 }, null];

/** The JSON type names a value matches (`integer` and `number` for an integer). */
function jsonTypes(v: unknown): string[] {
  if (v === null) return ['null'];
  if (Array.isArray(v)) return ['array'];
  if (typeof v === 'number') return Number.isInteger(v) ? ['integer', 'number'] : ['number'];
  return [typeof v];
}

/**
 * Every malformation of the property at `field` (dotted path) with schema `prop`: wrong types, numbers out
 * of range, too long/wide strings, unbounded strings, bad patterns and enum values, too many items, and
 * the text-policy classes on strings (refused when the policy forbids the value in that field).
 * Recurses into object properties and array items (index 0).
 */
export function malformationsFor(
  field: string,
  prop0: Json,
  root: ResourceSchema,
  parentIsUrl = false,
): Malformation[] {
  const p = resolve(prop0, root);
  const types = typesOf(p);
  const out: Malformation[] = [];
  const add = (cls: string, bad: Bad, mustRefuse = true) => out.push({ cls, field, bad, mustRefuse });
  for (const v of SAMPLE_VALUES)
    if (!jsonTypes(v).some((t) => types.includes(t))) add('wrong-type', { value: v });
  if (types.includes('integer') || types.includes('number'))
    for (const raw of NUMBER_TOKENS) add('number-out-of-range', { raw }, numberMustRefuse(Number(raw), p));
  if (types.includes('string')) {
    const isEnum = Array.isArray(p.enum);
    if (isEnum) add('bad-enum', { value: 'notInTheEnum' });
    if (p.maxLength !== undefined) {
      add('too-long-string', { value: 'a'.repeat(p.maxLength + 1) });
      add('too-long-string', { value: '画'.repeat(p.maxLength + 1) });
    }
    if (p['x-maxWidth'] !== undefined) {
      add('too-wide-string', { value: 'w'.repeat(p['x-maxWidth'] + 1) });
      add('too-wide-string', { value: '画'.repeat(Math.floor(p['x-maxWidth'] / 2) + 1) });
    }
    if (p.maxLength === undefined && p['x-maxWidth'] === undefined && !isEnum && !p.pattern)
      add('unbounded-string', { value: 'u'.repeat(100_000) });
    if (p.pattern) {
      const re = new RegExp(p.pattern, 'u');
      for (const s of ['x', '1'.repeat(40), 'A-1 2', '０１２'])
        if (!re.test(s)) add('bad-pattern', { value: s });
    }
    for (const [cls, values] of Object.entries(TEXT_POLICY))
      for (const s of values) {
        // A value the schema refuses anyway (enum, pattern) must be refused too.
        const other = isEnum || (p.pattern && !new RegExp(p.pattern, 'u').test(s));
        const breaks = textPolicyBreaches(s, p, parentIsUrl).length > 0;
        const tooWide = p['x-maxWidth'] !== undefined && displayWidth(s) > p['x-maxWidth'];
        add(cls, { value: s }, Boolean(other || breaks || tooWide));
      }
  }
  if (types.includes('array')) {
    if (p.maxItems !== undefined)
      add('too-many-items', { value: Array.from({ length: p.maxItems + 1 }, () => 'x') });
    if (p.items) out.push(...malformationsFor(`${field}.0`, p.items, root, isUrlField(p)));
  }
  if (types.includes('object')) {
    for (const [k, sub] of Object.entries((p.properties ?? {}) as Record<string, PropertySchema>))
      out.push(...malformationsFor(`${field}.${k}`, sub, root));
    if (p.additionalProperties === false) {
      out.push({ cls: 'unknown-field', field: `${field}.notAField`, bad: { value: 1 }, mustRefuse: true });
      out.push({
        cls: 'prototype-key',
        field: `${field}.__proto__`,
        bad: { value: { isBlock: 1 } },
        mustRefuse: true,
      });
    }
  }
  return out;
}

/** Sets `path` (dotted, numeric parts index arrays) of `body` to `v`, creating parents. */
export function setPath(body: Json, path: string, v: unknown): void {
  const parts = path.split('.');
  let cur: any = body;
  for (let i = 0; i < parts.length - 1; i++) {
    const k = parts[i];
    const nextIsIndex = /^\d+$/.test(parts[i + 1]);
    if (cur[k] === null || typeof cur[k] !== 'object') cur[k] = nextIsIndex ? [] : {};
    cur = cur[k];
  }
  Object.defineProperty(cur, parts[parts.length - 1], {
    value: v,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * JSON text of `body` with the value at `field` replaced by `bad` (raw tokens written as they are).
 * Keys such as `__proto__` become own keys of the text.
 */
export function jsonWith(body: Json, field: string, bad: Bad): string {
  const copy = structuredClone(body);
  const marker = '\u0001RAW\u0001';
  setPath(copy, field, 'raw' in bad ? marker : bad.value);
  const text = JSON.stringify(copy);
  return 'raw' in bad ? text.replace(JSON.stringify(marker), bad.raw) : text;
}

/** Every stored string of `record` (recursively) that breaches the text policy, as `field: classes`. */
export function storedBreaches(record: unknown, schema: ResourceSchema): string[] {
  const out: string[] = [];
  const walk = (v: unknown, p: Json | undefined, path: string, parentIsUrl: boolean) => {
    const prop = p ? resolve(p, schema) : {};
    if (typeof v === 'string') {
      const b = textPolicyBreaches(v, prop, parentIsUrl);
      if (b.length) out.push(`${path}: ${b.join(', ')} in ${JSON.stringify(v.slice(0, 40))}`);
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, prop.items, `${path}.${i}`, isUrlField(prop)));
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) walk(x, prop.properties?.[k], path ? `${path}.${k}` : k, false);
  };
  walk(record, schema, '', false);
  return out;
}

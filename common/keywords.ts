/**
 * The project's custom JSON Schema keywords, registered on an ajv 8 instance in strict mode.
 *
 * Validation keywords (each reports its own error with `params` the console can translate):
 * - `x-maxWidth` (number, on strings): display width at most N, where a CJK character counts 2 and any
 *   other character 1 (see displayWidth.ts). params: { limit, width }.
 * - `x-plainText` (boolean, on strings): no control characters (U+0000–U+001F except tab/newline in
 *   multi-line text is still refused in names), no `<` or `>` (markup), not blank.
 *   params: { reason: 'control' | 'markup' | 'blank' }.
 * - `x-notFuture` (boolean, on integers that are years): at most the current UTC year. params: { limit }.
 * - `x-ordered` (array of [a, b] property pairs, on objects): when both are numbers, a <= b.
 *   params: { first, second }.
 * - `x-uscc` (boolean, on strings): a Unified Social Credit Code's check character is right (GB 32100-2015,
 *   see {@link usccCheckCharacter}). Only an 18-character string over the code's alphabet is checked; its
 *   shape is the schema's `pattern`. params: { expected, actual }.
 * - `x-distinct` (array of [a, b] property pairs, on objects): when both are strings, they differ, compared
 *   trimmed and ignoring letter case ("Admin01" and "admin01" name the same account). The error is
 *   reported at the second property (`instancePath` …/b, so the field is b). params: { first, second }.
 *
 * Annotation keywords (no validation; read by codegen, server and console):
 * - `x-roles`: roles that may see and use the resource (root).
 * - `x-resource`: { name, recordRepresentation, icon, menuGroup } (root).
 * - `x-endpoints`: react-admin verb -> { method, path, id?, ids? } (root), see docs/api.md.
 * - `x-ui`: { order, list, sortable, filter, widget, section, reference, readOnly } (property).
 * - `x-i18n`: { en, zh } labels (root: resource name "one |||| many"; property: field label).
 * - `x-enumLabels`: { [enumValue]: { en, zh } } (property).
 *
 * Storage keywords (annotation only; read by the server's kernel, server/kernel/model.ts, and by the
 * storage codegen, scripts/codegen/storage.ts, which turns a change into a new migration):
 * - `x-storage` (root): `{ table, columns?, timestamps?, indexes?, display?, search? }`:
 *   `table` the SQL table; `columns` stored columns the API never shows,
 *   `{ [name]: { type: 'text'|'integer'|'real', notNull?, default? } }`; `timestamps`
 *   `{ [property]: 'create' | 'write' }`, set to the UTC time text on insert (and on every update for
 *   `write`); `indexes` property names with a plain index `<table>_<name>`; `display`
 *   `{ [name]: { reference, field } }` read-only fields joined from the record a reference property
 *   points at (e.g. an artwork's `authorName`); `search` `{ fields?, references?, index? }`: free text
 *   `q` matches the properties with `x-ui.filter: "q"`, plus `fields`, plus the fields of referenced
 *   records `{ [referenceProperty]: [field] }`; `index: "trigram"` keeps a substring index (FTS5 trigram
 *   table `<table>_fts` on SQLite, pg_trgm GIN indexes on PostgreSQL).
 * - `x-unique` (property, true): no two records share the value; the API answers 409 naming the field.
 * - `x-references` (property): `{ resource, onDelete?: 'restrict', foreignKey?: boolean }`: the value is
 *   the id of a record of `resource` (400 naming the field when none); a foreign key unless
 *   `foreignKey: false`; `onDelete: 'restrict'` refuses (409) to delete a record still referenced.
 * - `x-count` (property, read-only): `{ resource, field, key? }`: the number of records of `resource`
 *   whose `field` equals this record's `key` (default `id`); computed, not stored.
 */
import type Ajv from 'ajv';
import type { AnySchemaObject, ErrorObject } from 'ajv';
import { displayWidth } from './displayWidth';

/** Names of the annotation-only keywords. */
export const ANNOTATION_KEYWORDS = [
  'x-roles',
  'x-resource',
  'x-endpoints',
  'x-ui',
  'x-i18n',
  'x-enumLabels',
  'x-storage',
  'x-unique',
  'x-references',
  'x-count',
] as const;

type KeywordValidate = ((schema: any, data: any, parentSchema?: AnySchemaObject, ctx?: any) => boolean) & {
  errors?: Partial<ErrorObject>[];
};

function fail(fn: KeywordValidate, keyword: string, params: Record<string, unknown>, message: string): false {
  fn.errors = [{ keyword, params, message }];
  return false;
}

/**
 * The alphabet of the Unified Social Credit Code (统一社会信用代码), GB 32100-2015 §4 and table 1: the
 * digits and the capital letters except I, O, S, V, Z; a character's value is its index (0..30).
 */
export const USCC_ALPHABET = '0123456789ABCDEFGHJKLMNPQRTUWXY';

/** Weights of positions 1..17: W_i = 3^(i-1) mod 31 (GB 32100-2015 §5): 1, 3, 9, 27, 19, 26, 16, 17, ... */
const USCC_WEIGHTS = Array.from({ length: 17 }, (_, i) => {
  let w = 1;
  for (let k = 0; k < i; k++) w = (w * 3) % 31;
  return w;
});

/**
 * The check character (position 18) of a Unified Social Credit Code, after GB 32100-2015《法人和其他组织
 * 统一社会信用代码编码规则》§5 (check code per GB/T 17710-1999, ISO 7064 style, modulus 31):
 * C18 = 31 − (Σ_{i=1..17} C_i × W_i mod 31), where C_i is the value of character i in
 * {@link USCC_ALPHABET}, W_i = 3^(i−1) mod 31, and a result of 31 becomes 0; the value is written as the
 * alphabet's character (30 → 'Y').
 * Positions 9-17 (the organisation code of GB 11714) are not checked separately.
 * @param code at least the first 17 characters of a code, over {@link USCC_ALPHABET}
 * @returns the check character, or `null` when a character of the first 17 is outside the alphabet
 */
export function usccCheckCharacter(code: string): string | null {
  if (code.length < 17) return null;
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const value = USCC_ALPHABET.indexOf(code[i]);
    if (value < 0) return null;
    sum += value * USCC_WEIGHTS[i];
  }
  return USCC_ALPHABET[(31 - (sum % 31)) % 31];
}

/** Registers every custom keyword on `ajv`. Call once per ajv instance, before adding schemas. */
export function registerKeywords(ajv: Ajv): Ajv {
  for (const keyword of ANNOTATION_KEYWORDS) ajv.addKeyword({ keyword });

  const maxWidth: KeywordValidate = function (limit: number, data: string) {
    const width = displayWidth(data);
    if (width <= limit) return true;
    return fail(
      maxWidth,
      'x-maxWidth',
      { limit, width },
      `must be at most ${limit} wide (a Chinese character counts 2), got ${width}`,
    );
  };
  ajv.addKeyword({
    keyword: 'x-maxWidth',
    type: 'string',
    schemaType: 'number',
    errors: true,
    validate: maxWidth,
  });

  const plainText: KeywordValidate = function (enabled: boolean, data: string) {
    if (!enabled) return true;
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/u.test(data))
      return fail(plainText, 'x-plainText', { reason: 'control' }, 'must not contain control characters');
    if (/[<>]/u.test(data))
      return fail(plainText, 'x-plainText', { reason: 'markup' }, 'must not contain markup (< or >)');
    if (data.length > 0 && data.trim().length === 0)
      return fail(plainText, 'x-plainText', { reason: 'blank' }, 'must not be blank');
    return true;
  };
  ajv.addKeyword({
    keyword: 'x-plainText',
    type: 'string',
    schemaType: 'boolean',
    errors: true,
    validate: plainText,
  });

  const notFuture: KeywordValidate = function (enabled: boolean, data: number) {
    if (!enabled) return true;
    const limit = new Date().getUTCFullYear();
    if (data <= limit) return true;
    return fail(notFuture, 'x-notFuture', { limit }, `must not be after ${limit}`);
  };
  ajv.addKeyword({
    keyword: 'x-notFuture',
    type: 'number',
    schemaType: 'boolean',
    errors: true,
    validate: notFuture,
  });

  const ordered: KeywordValidate = function (pairs: [string, string][], data: Record<string, unknown>) {
    for (const [first, second] of pairs) {
      const a = data[first];
      const b = data[second];
      if (typeof a === 'number' && typeof b === 'number' && a > b)
        return fail(ordered, 'x-ordered', { first, second }, `${first} must not be after ${second}`);
    }
    return true;
  };
  ajv.addKeyword({
    keyword: 'x-ordered',
    type: 'object',
    schemaType: 'array',
    errors: true,
    validate: ordered,
  });

  const uscc: KeywordValidate = function (enabled: boolean, data: string) {
    if (!enabled || data.length !== 18) return true;
    const expected = usccCheckCharacter(data);
    // Outside the alphabet: the shape is the schema's `pattern` to report, not this keyword.
    if (expected === null || !USCC_ALPHABET.includes(data[17])) return true;
    if (data[17] === expected) return true;
    return fail(
      uscc,
      'x-uscc',
      { expected, actual: data[17] },
      `check character must be ${expected} (GB 32100-2015), got ${data[17]}`,
    );
  };
  ajv.addKeyword({
    keyword: 'x-uscc',
    type: 'string',
    schemaType: 'boolean',
    errors: true,
    validate: uscc,
  });

  const distinct: KeywordValidate = function (
    pairs: [string, string][],
    data: Record<string, unknown>,
    _parent?: AnySchemaObject,
    ctx?: { instancePath?: string },
  ) {
    for (const [first, second] of pairs) {
      const a = data[first];
      const b = data[second];
      if (typeof a !== 'string' || typeof b !== 'string') continue;
      if (a.trim().toLowerCase() !== b.trim().toLowerCase()) continue;
      const pointer = second.replace(/~/g, '~0').replace(/\//g, '~1');
      distinct.errors = [
        {
          keyword: 'x-distinct',
          instancePath: `${ctx?.instancePath ?? ''}/${pointer}`,
          params: { first, second },
          message: `must differ from ${first}`,
        },
      ];
      return false;
    }
    return true;
  };
  ajv.addKeyword({
    keyword: 'x-distinct',
    type: 'object',
    schemaType: 'array',
    errors: true,
    validate: distinct,
  });

  return ajv;
}

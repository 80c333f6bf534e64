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
 *
 * Annotation keywords (no validation; read by codegen, server and console):
 * - `x-roles`: roles that may see and use the resource (root).
 * - `x-resource`: { name, recordRepresentation, icon, menuGroup } (root).
 * - `x-endpoints`: react-admin verb -> { method, path, id?, ids? } (root), see docs/api.md.
 * - `x-ui`: { order, list, sortable, filter, widget, section, reference, readOnly } (property).
 * - `x-i18n`: { en, zh } labels (root: resource name "one |||| many"; property: field label).
 * - `x-enumLabels`: { [enumValue]: { en, zh } } (property).
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
] as const;

type KeywordValidate = ((schema: any, data: any, parentSchema?: AnySchemaObject, ctx?: any) => boolean) & {
  errors?: Partial<ErrorObject>[];
};

function fail(fn: KeywordValidate, keyword: string, params: Record<string, unknown>, message: string): false {
  fn.errors = [{ keyword, params, message }];
  return false;
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

  return ajv;
}

/**
 * How plain text (`x-plainText`: names and titles, kernel/dialect/keywords.ts) is stored: one rule for
 * every door that writes records (issue 32, "One door"). The repository (kernel/server/records.ts
 * `columnValues`) and the command-line import (server/import/importer.ts), which may not import the
 * kernel's server code, both call it, so a value imported and the same value sent through the API are
 * stored identically.
 * - A writable top-level string property with `x-plainText` is trimmed (String.prototype.trim: white
 *   space and line terminators, ECMA-262 "TrimString") and put in Unicode normalization form NFC
 *   (UAX #15), so "é" typed precomposed (U+00E9) or combined (e + U+0301) is one value for unique checks,
 *   search and sorting; an empty result of a nullable one is stored as null.
 * - A JSON property (object or array) keeps its strings as sent, except those at an `x-plainText` node
 *   (at any depth, through `$ref`s to the root's `definitions`), which are put in NFC (not trimmed).
 * Pure; shared by the server and the console.
 */
import { deref } from './deref';
import type { PropertySchema, ResourceSchema } from './schemaRegistry';

/** Every JSON type of a property, `null` included. */
const typesOf = (prop: PropertySchema): string[] => ([] as string[]).concat(prop.type ?? []);

/**
 * `value` with every string at an `x-plainText` node of `prop` in Unicode NFC, at any depth (objects,
 * array items, `$ref`s to the root schema's `definitions`): names inside JSON fields (an artwork's
 * `baseInfo.size`) get the same one spelling as top-level ones. Other strings are returned as sent.
 */
export function nfcPlainText(
  prop: PropertySchema | undefined,
  value: unknown,
  root: ResourceSchema,
): unknown {
  const p = deref(root, prop);
  if (typeof value === 'string') return p?.['x-plainText'] ? value.normalize('NFC') : value;
  if (Array.isArray(value)) return value.map((v) => nfcPlainText(p?.items, v, root));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, nfcPlainText(p?.properties?.[k], v, root)]),
    );
  return value;
}

/**
 * Whether a top-level property is stored trimmed and NFC ({@link trimmedText}): a writable (not
 * `readOnly`) string property with `x-plainText` (the rule of kernel/server/model.ts `trimmed`).
 */
export function isTrimmedText(prop: PropertySchema): boolean {
  return Boolean(prop['x-plainText']) && typesOf(prop).includes('string') && !prop.readOnly;
}

/**
 * A trimmed plain-text property's stored value: `text` trimmed and in NFC; null for an empty result
 * when `nullable` (the property's type includes null), else the empty string.
 */
export function trimmedText(text: string, nullable: boolean): string | null {
  const t = text.trim().normalize('NFC');
  return t === '' && nullable ? null : t;
}

/**
 * The value of top-level property `name` of `schema` as the repository stores it, before JSON columns
 * are serialised: a trimmed plain-text string per {@link trimmedText}, an object or array per
 * {@link nfcPlainText}; any other value (and an unknown property's) as it is.
 */
export function storedPlainText(schema: ResourceSchema, name: string, value: unknown): unknown {
  const prop = schema.properties[name];
  if (!prop) return value;
  const types = typesOf(prop);
  if (typeof value === 'string')
    return isTrimmedText(prop) ? trimmedText(value, types.includes('null')) : value;
  if (value && typeof value === 'object' && (types.includes('object') || types.includes('array')))
    return nfcPlainText(prop, value, schema);
  return value;
}

/** `record` with every property's value as {@link storedPlainText} gives it (a new object). */
export function storedPlainTexts<T extends Record<string, unknown>>(schema: ResourceSchema, record: T): T {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, storedPlainText(schema, k, v)])) as T;
}

/**
 * What the dialect derives from the schema files before anything reads them (issue 33), applied where the
 * schemas are loaded: the registry (kernel/dialect/schemaRegistry.ts `schemas`, server and console) and
 * codegen (scripts/codegen.ts `checkedSchemas`), so both read the same shapes:
 * - every `$ref` inlined (deref.ts `inlineRefs`): no reader meets a reference;
 * - the pigeonhole's kinds: the archive entry's `resource` property (schemas/archivedRecord.schema.json)
 *   gets an `enum` of every resource whose schema says `x-archive: true`, in file order, and an
 *   `x-enumLabels` entry per value from that resource's own `x-i18n` (its singular, "one |||| many").
 *   A new schema with `x-archive` needs no edit of another file.
 */
import { inlineRefs } from './deref';

/** The archive entry's schema `$id` and the property naming an entry's resource. */
export const ARCHIVE_SCHEMA_ID = 'archivedRecord';
export const ARCHIVE_RESOURCE_FIELD = 'resource';

type Json = Record<string, any>;

/** The singular of a resource label "one |||| many" (the whole label when it has no plural). */
const singular = (label: unknown) =>
  String(label ?? '')
    .split('||||')[0]
    .trim();

/** `x-resource.name` and `x-i18n` of every schema of `list` that says `x-archive: true`, in list order. */
export function archivable(list: Json[]): { name: string; i18n?: { en: string; zh: string } }[] {
  return list
    .filter((s) => s['x-archive'] === true && typeof s['x-resource']?.name === 'string')
    .map((s) => ({ name: s['x-resource'].name as string, i18n: s['x-i18n'] }));
}

/** `schema` (the archive entry's) with its `resource` enum and labels derived from `list`. Pure. */
function withArchiveKinds(schema: Json, list: Json[]): Json {
  const field = schema.properties?.[ARCHIVE_RESOURCE_FIELD];
  if (!field) return schema;
  const kinds = archivable(list);
  const labels = Object.fromEntries(
    kinds.map((k) => [k.name, { en: singular(k.i18n?.en ?? k.name), zh: singular(k.i18n?.zh ?? k.name) }]),
  );
  return {
    ...schema,
    properties: {
      ...schema.properties,
      [ARCHIVE_RESOURCE_FIELD]: {
        ...field,
        ...(kinds.length ? { enum: kinds.map((k) => k.name) } : {}),
        'x-enumLabels': { ...labels, ...field['x-enumLabels'] },
      },
    },
  };
}

/**
 * Every schema of `list` as the dialect's readers see it (see the module doc), same order. Pure: answers
 * copies.
 * @throws deref.ts RefError for a `$ref` naming no definition or referring to itself (codegen refuses
 *   those first, scripts/codegen/dialectRules.ts)
 */
export function expandSchemas<T extends Json>(list: T[]): T[] {
  return derivedKinds(list.map((s) => inlineRefs(s)));
}

/**
 * `list` with the pigeonhole's kinds derived (see the module doc) and its `$ref`s kept: for codegen's
 * TypeScript types, which name each definition's type (json-schema-to-typescript). Pure.
 */
export function derivedKinds<T extends Json>(list: T[]): T[] {
  return list.map((s) => (s.$id === ARCHIVE_SCHEMA_ID ? (withArchiveKinds(s, list) as T) : s));
}

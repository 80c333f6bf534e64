/**
 * The schema registry shared by server and console: every `schemas/*.schema.json`, the request variants
 * derived from each resource schema, the precompiled validators of the form variants and the conversion
 * of ajv errors into envelope `FieldError`s. This module runs no ajv compiler (the console imports it):
 * kernel/dialect/formValidator.ts `formValidatorFor` answers the standalone code codegen emitted into
 * common/generated/formValidators.ts (scripts/codegen/validators.ts), in a module of its own so that only
 * the console's forms load it. Every other precompiled validator (server, tests) is in
 * kernel/dialect/validators.ts; the run-time ajv (server, codegen, tests) is kernel/dialect/schemaCompiler.ts.
 *
 * Variants (each validated under `$id` `<schemaId>.<kind>`):
 * - `create`: the resource schema with its `readOnly` properties refused (`false` schemas); `required` as written.
 * - `update`: the same without `required` and without any `default` (at every depth), plus a required
 *   integer `id` (and, for a stored resource, an optional `revision`, {@link REVISION}): a partial update
 *   changes exactly the fields it names. (ajv's `useDefaults` would
 *   otherwise fill every absent field with its default and the update would overwrite stored values.)
 * - `listQuery`: a GET list call's query: page (1-based), pageSize (1..100), q, sort (a sortable field),
 *   order (ASC|DESC), ids ("1,2,3") and one parameter per filterable field (`x-ui.filter`), plus
 *   `<field>_gte` / `<field>_lte` bounds for the numbers and dates among them ({@link rangeFields}).
 * - `listBody`: the same for a POST list call, with `ids` an array of integers.
 */
import type { AnySchemaObject, ErrorObject } from 'ajv';
import type { FieldError } from '../../common/envelope';
import { schemaList } from '../../common/generated/schemaIndex';
import { apiPrefixesOf } from '../../common/apiPrefixes';
import { REVISION, REVISION_SCHEMA } from './revision';
import { ONE } from './deref';
import { expandSchemas } from './expand';

export { REVISION };

/** A verb's endpoint in `x-endpoints`: the HTTP call react-admin's verb maps to. */
export interface EndpointSpec {
  method: 'GET' | 'POST';
  path: string;
  /** Name of the query (GET) or body (POST) parameter that carries the record id. */
  id?: string;
  /** Name of the parameter that carries several ids (getMany, deleteMany). */
  ids?: string;
  /** The same call on other paths (kernel/dialect/keywords.ts `x-endpoints`); `properties` narrows an update. */
  aliases?: { method: 'GET' | 'POST'; path: string; properties?: string[] }[];
  /** Roles admitted to this call, narrower than the schema's `x-roles` (e.g. writes of templates: admin). */
  roles?: string[];
}

/** react-admin verbs plus `search` (an alternative list call the product also exposes). */
export type Verb =
  'getList' | 'search' | 'getOne' | 'getMany' | 'create' | 'update' | 'delete' | 'deleteMany' | 'updateMany';

export interface EndpointMap extends Partial<Record<Verb, EndpointSpec>> {
  /** getManyReference per target field, e.g. artworks by `author`. */
  getManyReference?: Record<string, EndpointSpec>;
}

export interface UiHints {
  order?: number;
  list?: boolean;
  sortable?: boolean;
  filter?: boolean | 'q';
  widget?: string;
  section?: string;
  reference?: string;
  readOnly?: boolean;
}

/** A JSON Schema object as this project writes them (draft-07 plus the x- keywords). */
export interface ResourceSchema {
  [keyword: string]: any;
  $id: string;
  properties: Record<string, PropertySchema>;
  required?: string[];
  'x-roles'?: string[];
  /** The resource, its menu entry and routes: keys checked by scripts/codegen/resources.ts. */
  'x-resource'?: {
    name: string;
    recordRepresentation?: string;
    icon?: string;
    group?: string;
    path?: string;
    order?: number;
    roles?: string[];
    hidden?: boolean;
    /** Per view: the schema's own title, or a key of the console's route titles (src/layout/i18n.ts). */
    titles?: Record<string, string | { en: string; zh: string }>;
    routes?: unknown[];
    /** Create shows the main section only, then leads to the edit page's sections (step two). */
    twoStep?: boolean;
  };
  'x-endpoints'?: EndpointMap;
  'x-i18n'?: { en: string; zh: string };
  /** Final records: see kernel/dialect/keywords.ts `x-frozen`. */
  'x-frozen'?: FrozenRule;
  /** Section tab labels: see common/keywords.ts `x-sections`. */
  'x-sections'?: Record<string, { en: string; zh: string; order?: number }>;
}

/** `x-frozen`: records whose properties equal every value of `when` can no longer be changed or deleted. */
export interface FrozenRule {
  when: Record<string, unknown>;
  /** The error keyword of a refusal, e.g. `sentFrozen`. */
  keyword: string;
  /** The refusal's English message, e.g. "a sent notification cannot be changed". */
  message: string;
}

export interface PropertySchema {
  [keyword: string]: any;
  type?: string | string[];
  readOnly?: boolean;
  /** Taken by create/update, never stored as a column nor answered (an account's password). */
  writeOnly?: boolean;
  enum?: unknown[];
  properties?: Record<string, PropertySchema>;
  items?: PropertySchema;
  'x-ui'?: UiHints;
  'x-i18n'?: { en: string; zh: string };
  'x-enumLabels'?: Record<string, { en: string; zh: string }>;
  'x-maxWidth'?: number;
}

export type VariantKind = 'create' | 'update' | 'listQuery' | 'listBody';

/** The variants every resource schema gets, in the order they are registered and emitted. */
export const VARIANT_KINDS: VariantKind[] = ['create', 'update', 'listQuery', 'listBody'];

/** The variants a console form validates (Create and Edit views); their code is in formValidators.ts. */
export const FORM_VARIANTS = ['create', 'update'] as const satisfies readonly VariantKind[];
export type FormVariant = (typeof FORM_VARIANTS)[number];

/**
 * A validation function as ajv compiles it (here: precompiled standalone code): true when `data` is
 * valid; otherwise false with the ajv errors in `errors`. It may change `data` (ajv's `useDefaults`, and
 * `coerceTypes` in the query build).
 */
export interface SchemaValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** Largest record id: ids are 32-bit integer columns (PostgreSQL `serial`, SQLite accepts them too). */
export const MAX_ID = 2147483647;

/** Largest `page` of a list call (docs/api.md): 10^6 pages of up to 100 records. */
export const MAX_PAGE = 1_000_000;

/**
 * The paging of every list call, the kernel's and the hand-written routes' (docs/api.md): `page`
 * 1..MAX_PAGE, `pageSize` 1..100; anything else (1e18, -1, 1.5) is a 400 naming the field.
 */
export const PAGING = {
  page: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 },
  pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
} as const;

/**
 * An id list in a query string, "1,2,3": up to 100 ids, each in 1..{@link MAX_ID} (2147483647), decimal
 * without sign or leading zero. The alternatives spell the numbers up to MAX_ID digit by digit.
 */
const ID = String.raw`(?:[1-9]\d{0,8}|1\d{9}|20\d{8}|21[0-3]\d{7}|214[0-6]\d{6}|2147[0-3]\d{5}|21474[0-7]\d{4}|214748[0-2]\d{3}|2147483[0-5]\d{2}|21474836[0-3]\d|214748364[0-7])`;
export const ID_LIST_PATTERN = `^${ID}(?:,${ID}){0,99}$`;

/** Keywords whose value is a schema, an array of schemas or (NAME_MAPS) a map of schemas. */
const SUBSCHEMA: ReadonlySet<string> = ONE;
const SUBSCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);

/**
 * The data policy of docs/api.md ("Text", "Numbers") written into a schema, at every depth: every schema
 * whose `type` allows strings gets `x-text` (`multiline` when `x-ui.widget` is `textarea`, else `line`)
 * unless it writes its own or is an `enum`/`const` (whose values are the schema's); with `finite` (the
 * query-string build), every schema allowing numbers or integers gets `x-finite: true` (bodies need none:
 * without coercion ajv's `type` refuses a non-finite number, e.g. JSON `1e400`); an integer with
 * `x-references` (a record id) gets `minimum: 1` and `maximum: MAX_ID` unless it writes them.
 * Applied to every registry schema and variant ({@link schemasWithVariants}) and to the ad-hoc route
 * schemas the run-time ajv compiles (kernel/dialect/schemaCompiler.ts), so no route can skip it. Pure: answers a
 * copy.
 */
export function withDataPolicy<T>(schema: T, { finite = false }: { finite?: boolean } = {}): T {
  const walk = (node: unknown): unknown => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return node;
    const out: Record<string, any> = { ...(node as Record<string, unknown>) };
    for (const [k, v] of Object.entries(out)) {
      if (NAME_MAPS.has(k) && v && typeof v === 'object')
        out[k] = Object.fromEntries(Object.entries(v).map(([n, sub]) => [n, walk(sub)]));
      else if (SUBSCHEMA.has(k)) out[k] = Array.isArray(v) ? v.map(walk) : walk(v);
      else if (SUBSCHEMA_LISTS.has(k) && Array.isArray(v)) out[k] = v.map(walk);
    }
    const types = ([] as unknown[]).concat(out.type ?? []);
    if (types.includes('string') && out['x-text'] === undefined && !out.enum && out.const === undefined)
      out['x-text'] = out['x-ui']?.widget === 'textarea' ? 'multiline' : 'line';
    if (finite && (types.includes('number') || types.includes('integer')) && out['x-finite'] === undefined)
      out['x-finite'] = true;
    if (types.includes('integer') && out['x-references']) {
      out.minimum ??= 1;
      out.maximum ??= MAX_ID;
    }
    return out;
  };
  return walk(schema) as T;
}

/**
 * Every schema in `schemas/`, by `$id`, without its `$schema` (the dialect's meta-schema, relative to the
 * file, `./meta.schema.json`: for editors and codegen; the libraries the schemas are handed to, ajv and
 * fast-json-stringify, read them as the draft-07 they are), as the dialect derives them (expand.ts
 * `expandSchemas`: every `$ref` inlined, the pigeonhole's kinds from `x-archive`).
 */
export const schemas: Record<string, ResourceSchema> = Object.fromEntries(
  expandSchemas(schemaList as ResourceSchema[]).map(({ $schema: _dialect, ...s }) => [
    s.$id,
    s as ResourceSchema,
  ]),
);

/** The resource schemas (those with `x-resource`), in file order. */
export function resourceSchemas(): ResourceSchema[] {
  return Object.values(schemas).filter((s) => s['x-resource']);
}

/** The API's path prefixes of the registered schemas (common/apiPrefixes.ts `apiPrefixesOf`). */
export function apiPrefixes(): string[] {
  return apiPrefixesOf(resourceSchemas().map((s) => s['x-endpoints'] ?? {}));
}

/** The schema whose `x-resource.name` is `resource` (react-admin's resource name), or throws. */
export function schemaForResource(resource: string): ResourceSchema {
  const s = resourceSchemas().find((r) => r['x-resource']!.name === resource);
  if (!s) throw new Error(`No schema declares x-resource.name "${resource}"`);
  return s;
}

const clone = <T>(v: T): T => structuredClone(v);

/** The schema with every `readOnly` property replaced by the `false` schema: sending one is refused. */
function stripReadOnly(schema: ResourceSchema): ResourceSchema {
  const out = clone(schema);
  for (const [name, prop] of Object.entries(out.properties))
    if (prop.readOnly) out.properties[name] = false as any;
  out.required = (out.required ?? []).filter((r) => out.properties[r] !== (false as any));
  return out;
}

/** Schema maps whose keys are names, not keywords (a property may be called `default`). */
const NAME_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']);

/**
 * A deep copy of `schema` with every `default` keyword removed, at every depth (nested objects, array
 * items, definitions). Property names are kept, even one named `default`.
 */
export function withoutDefaults<T>(schema: T): T {
  const walk = (node: unknown, namesOnly: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, false));
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (!namesOnly && k === 'default') continue;
      out[k] = namesOnly ? walk(v, false) : walk(v, NAME_MAPS.has(k));
    }
    return out;
  };
  return walk(schema, false) as T;
}

/** Fields a list call may sort by: `id` plus every property with `x-ui.sortable`. */
export function sortableFields(schema: ResourceSchema): string[] {
  return Object.entries(schema.properties)
    .filter(([name, p]) => name === 'id' || p['x-ui']?.sortable)
    .map(([name]) => name);
}

/** Fields a list call may filter on by name (`x-ui.filter === true`). */
export function filterFields(schema: ResourceSchema): string[] {
  return Object.entries(schema.properties)
    .filter(([, p]) => p['x-ui']?.filter === true)
    .map(([name]) => name);
}

/** The suffixes of a range filter's bounds (react-admin's convention): `price_gte=10&price_lte=20`. */
export const RANGE_SUFFIXES = { _gte: '>=', _lte: '<=' } as const;

/**
 * Filterable fields that also take range bounds (`<field>_gte`, `<field>_lte`): numbers and integers
 * that are neither enums nor references, and strings of format `date` or `date-time` (which order as
 * text when written alike, e.g. all in UTC).
 */
export function rangeFields(schema: ResourceSchema): string[] {
  return filterFields(schema).filter((f) => {
    const p = schema.properties[f];
    const types = ([] as string[]).concat(p.type ?? []);
    if (p.enum || p['x-references']) return false;
    if (types.includes('number') || types.includes('integer')) return true;
    return types.includes('string') && (p.format === 'date' || p.format === 'date-time');
  });
}

function filterSchema(prop: PropertySchema): AnySchemaObject {
  const types = ([] as string[]).concat(prop.type ?? 'string').filter((t) => t !== 'null');
  const out: AnySchemaObject = { type: types.length === 1 ? types[0] : types };
  if (prop.enum) out.enum = prop.enum.filter((v) => v !== null);
  if (types.includes('string')) out.maxLength = 200;
  // A date is compared as the column holds it: a filter value of another shape is refused (400).
  if (typeof prop.format === 'string' && types.includes('string')) out.format = prop.format;
  // A filter on an integer keeps the field's range; ids (and any integer without a maximum) stay in 1..MAX_ID
  // (a larger number cannot be stored, and PostgreSQL refuses to compare an int4 column with it).
  if (types.includes('integer') && !prop.enum) {
    out.minimum = prop.minimum ?? (prop['x-references'] ? 1 : undefined);
    out.maximum = prop.maximum ?? MAX_ID;
    if (out.minimum === undefined) delete out.minimum;
  }
  return out;
}

/** Builds one request variant of a resource schema (see the module doc). Pure; does not touch ajv. */
export function buildVariant(schema: ResourceSchema, kind: VariantKind): AnySchemaObject {
  const $id = `${schema.$id}.${kind}`;
  if (kind === 'create') return { ...stripReadOnly(schema), $id };
  if (kind === 'update') {
    const base = withoutDefaults(stripReadOnly(schema));
    return {
      ...base,
      $id,
      properties: {
        ...base.properties,
        id: { type: 'integer', minimum: 1, maximum: MAX_ID },
        // A stored resource's update may name the revision it started from (see REVISION).
        ...(schema['x-storage'] ? { [REVISION]: REVISION_SCHEMA } : {}),
      },
      required: ['id'],
    };
  }
  const sortable = sortableFields(schema);
  const properties: Record<string, AnySchemaObject | boolean> = {
    ...PAGING,
    q: { type: 'string', maxLength: 200 },
    // A resource without an `id` or sortable fields (e.g. the ledger's blocks) takes no sort.
    sort: sortable.length ? { type: 'string', enum: sortable } : false,
    order: { type: 'string', enum: ['ASC', 'DESC', 'asc', 'desc'] },
    ids:
      kind === 'listQuery'
        ? { type: 'string', pattern: ID_LIST_PATTERN, maxLength: 1100 }
        : { type: 'array', items: { type: 'integer', minimum: 1, maximum: MAX_ID }, maxItems: 100 },
  };
  for (const f of filterFields(schema)) properties[f] = filterSchema(schema.properties[f]);
  for (const f of rangeFields(schema))
    for (const suffix of Object.keys(RANGE_SUFFIXES))
      properties[`${f}${suffix}`] ??= filterSchema(schema.properties[f]);
  return { $id, type: 'object', properties, additionalProperties: false };
}

/**
 * Every schema of `schemas/` and, after each resource schema, its variants ({@link VARIANT_KINDS}), each
 * with the data policy ({@link withDataPolicy}; `x-finite` only for the query-string build,
 * `coerceTypes`): the set the run-time ajv holds (kernel/dialect/schemaCompiler.ts) and codegen precompiles, in that order.
 */
export function schemasWithVariants({
  coerceTypes = false,
}: { coerceTypes?: boolean } = {}): AnySchemaObject[] {
  const out: AnySchemaObject[] = [];
  const policy = { finite: coerceTypes };
  for (const s of Object.values(schemas)) {
    out.push(withDataPolicy(s, policy));
    if (s['x-resource'])
      for (const kind of VARIANT_KINDS) out.push(withDataPolicy(buildVariant(s, kind), policy));
  }
  return out;
}

const toField = (instancePath: string) =>
  instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');

/**
 * Converts ajv errors into envelope field errors, one per field (a `type` error wins over the field's
 * other errors), with messages that name the field ("artWorkName: must be at most 60 wide ...").
 * `required` and `additionalProperties` name the missing or unknown property itself; a read-only
 * property sent in a body (`false schema`) says "is read-only".
 */
export function formatErrors(errors: ErrorObject[] | null | undefined, prefix = ''): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  const typeErrorFields = new Set(
    (errors ?? [])
      .filter((e) => e.keyword === 'type')
      .map((e) => (prefix ? `${prefix}.` : '') + toField(e.instancePath)),
  );
  for (const e of errors ?? []) {
    let field = toField(e.instancePath);
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') {
      const p = (e.params as { missingProperty: string }).missingProperty;
      field = field ? `${field}.${p}` : p;
      message = 'is required';
    } else if (e.keyword === 'false schema') {
      message = 'is read-only';
    } else if (e.keyword === 'additionalProperties') {
      const p = (e.params as { additionalProperty: string }).additionalProperty;
      field = field ? `${field}.${p}` : p;
      message = 'is not a known field';
    }
    if (prefix) field = field ? `${prefix}.${field}` : prefix;
    // One error per field: a wrong type makes the field's other rules meaningless.
    if (seen.has(field) || (e.keyword !== 'type' && typeErrorFields.has(field))) continue;
    seen.add(field);
    out.push({
      field,
      keyword: e.keyword,
      params: e.params as Record<string, unknown>,
      message: `${field || 'body'}: ${message}`,
    });
  }
  return out;
}

/**
 * The schema engine's ONE resolver: which "kind" of field a schema property is, in a fixed order
 * (after rjsf / react-admin's inferencer, see ../shared/design/STYLE.md from the repository root):
 *   1. explicit `x-ui.widget`  2. `x-ui.reference`  3. `enum`  4. `format`  5. `type`.
 * An unknown widget or format, or a type it cannot place, is an explicit error naming the property.
 * Also: `$ref` resolution against the schema's `definitions`, property order (`x-ui.order`), sections.
 */
import type { PropertySchema, ResourceSchema } from './schemaRegistry';
import { deref } from './deref';

export { deref };

/** Every kind the component map (components.tsx) must render. */
export const KINDS = [
  'text',
  'textarea',
  'integer',
  'number',
  'boolean',
  'enum',
  'chip',
  'switch',
  'reference',
  'datetime',
  'date',
  'url',
  'email',
  'image',
  'images',
  'file',
  'hash',
  'qrcode',
  'category',
  'steps',
  'object',
  'objectList',
  'stringList',
  'numberList',
  'enumList',
  'booleanList',
  'listList',
  'jsonList',
  'password',
  'json',
  'schemaFrom',
] as const;
export type Kind = (typeof KINDS)[number];

/** `x-ui.widget` values the schemas may use, and the kind each selects. */
export const WIDGETS: Record<string, Kind> = {
  textarea: 'textarea',
  image: 'image',
  images: 'images',
  file: 'file',
  chip: 'chip',
  switch: 'switch',
  hash: 'hash',
  datetime: 'datetime',
  qrcode: 'qrcode',
  url: 'url',
  category: 'category',
  steps: 'steps',
  password: 'password',
  json: 'json',
  schemaFrom: 'schemaFrom',
};

/** JSON Schema `format` values and their kind. */
export const FORMATS: Record<string, Kind> = {
  'date-time': 'datetime',
  date: 'date',
  uri: 'url',
  url: 'url',
  email: 'email',
};

/** The non-null JSON types of a property. */
export function typesOf(prop: PropertySchema): string[] {
  return ([] as string[]).concat(prop.type ?? []).filter((t) => t !== 'null');
}

/**
 * Whether `types` (non-null JSON types) are one type: one name, or `integer` with `number` (numbers).
 * A value of several types or of none is a JSON value (kind `json`).
 */
export function isOneType(types: string[]): boolean {
  return types.length === 1 || (types.length === 2 && types.every((t) => t === 'integer' || t === 'number'));
}

/**
 * The kind of `prop` (already dereferenced, its `items` too: see {@link fieldSpecs}), in the fixed order widget → upload → reference → enum →
 * format → type; "upload": a string property declaring `x-upload` without a widget holds an uploaded
 * file's URL, so it is a `file` (uploaded with the upload input, shown by its type: image, audio player,
 * link), whatever its groups. A property of several types besides "null", or of none, is a JSON value
 * (`json`: typed as JSON text, shown formatted); `integer` with `number` is a number. An array is a list of
 * its items' kind: `enumList`, `stringList`, `numberList`, `booleanList`, `objectList`, `listList` when the
 * items are arrays themselves (a list of lists), or `jsonList` when they are JSON values (items of several
 * types or of none). Every list is stored as JSON; the console edits the items of a list of booleans, of
 * lists or of JSON values one by one, each with its own kind's input.
 * @param where a path for error messages, e.g. `artwork.baseInfo.size`
 * @throws Error for an unknown widget or format, or a type that maps to no kind
 */
export function resolveKind(prop: PropertySchema, where: string): Kind {
  const ui = prop['x-ui'];
  if (ui?.widget !== undefined) {
    const k = WIDGETS[ui.widget];
    if (!k)
      throw new Error(
        `${where}: unknown x-ui.widget "${ui.widget}" (known: ${Object.keys(WIDGETS).join(', ')})`,
      );
    return k;
  }
  if (prop['x-upload'] && typesOf(prop).length === 1 && typesOf(prop)[0] === 'string') return 'file';
  if (ui?.reference) return 'reference';
  if (Array.isArray(prop.enum)) return 'enum';
  if (typeof prop.format === 'string') {
    const k = FORMATS[prop.format];
    if (!k) throw new Error(`${where}: no kind for format "${prop.format}"`);
    return k;
  }
  const types = typesOf(prop);
  if (!isOneType(types)) return 'json';
  switch (types.length === 2 ? 'number' : types[0]) {
    case 'string':
      return 'text';
    case 'integer':
      return 'integer';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'object':
      return 'object';
    case 'array': {
      const items = typesOf(prop.items ?? {});
      if (Array.isArray(prop.items?.enum)) return 'enumList';
      // items of several types or of none: JSON values
      if (!isOneType(items)) return 'jsonList';
      if (items[0] === 'string') return 'stringList';
      if (items[0] === 'integer' || items[0] === 'number') return 'numberList';
      if (items[0] === 'boolean') return 'booleanList';
      if (items[0] === 'object') return 'objectList';
      // a list of lists: each item a list of its own kind (strings, numbers, enum values, objects or lists)
      if (items[0] === 'array') return 'listList';
      throw new Error(
        `${where}: cannot resolve a kind for an array of ${JSON.stringify(prop.items?.type ?? null)}`,
      );
    }
    default:
      throw new Error(`${where}: cannot resolve a kind for type "${types[0]}"`);
  }
}

/** One property ready for rendering: its dotted source, dereferenced schema and kind. */
export interface FieldSpec {
  /** Dotted path in the record, e.g. `baseInfo.size`. */
  source: string;
  /** The property's own name (last path segment). */
  name: string;
  prop: PropertySchema;
  kind: Kind;
}

/** The properties of `props` (or the schema's), dereferenced and resolved, in `x-ui.order` then file order. */
export function fieldSpecs(
  schema: ResourceSchema,
  props: Record<string, PropertySchema> = schema.properties,
  prefix = '',
): FieldSpec[] {
  return Object.entries(props)
    .map(([name, raw], i) => {
      // the registry's and codegen's schemas come with every `$ref` inlined (expand.ts); a schema read
      // otherwise is dereferenced here, its items too (what resolveKind reads of a list)
      const own = deref(schema, raw);
      const prop = own.items ? { ...own, items: deref(schema, own.items) } : own;
      const source = prefix ? `${prefix}.${name}` : name;
      return {
        source,
        name,
        prop,
        kind: resolveKind(prop, `${schema.$id}.${source}`),
        order: prop['x-ui']?.order ?? 1000 + i,
      };
    })
    .sort((a, b) => a.order - b.order)
    .map(({ order: _order, ...f }) => f);
}

/** Name of the section that holds fields without `x-ui.section`. */
export const MAIN_SECTION = 'main';

/**
 * The sections of a schema in order: `main` first, then each `x-ui.section` by its `x-sections.<name>.order`
 * (those without one after those with one), else as first met in field order.
 */
export function sectionsOf(schema: ResourceSchema): { name: string; fields: FieldSpec[] }[] {
  const out = new Map<string, FieldSpec[]>([[MAIN_SECTION, []]]);
  for (const f of fieldSpecs(schema)) {
    const s = f.prop['x-ui']?.section ?? MAIN_SECTION;
    if (!out.has(s)) out.set(s, []);
    out.get(s)!.push(f);
  }
  const labels = (schema['x-sections'] ?? {}) as Record<string, { order?: number }>;
  const rank = (name: string) => (name === MAIN_SECTION ? -Infinity : (labels[name]?.order ?? Infinity));
  return [...out]
    .filter(([, fields]) => fields.length > 0)
    .map(([name, fields], i) => ({ name, fields, i }))
    .sort((a, b) => rank(a.name) - rank(b.name) || a.i - b.i)
    .map(({ name, fields }) => ({ name, fields }));
}

/** Translation key of an enum value's label (generated from `x-enumLabels`). */
export function enumLabelKey(resource: string, source: string, value: unknown): string {
  return `resources.${resource}.enums.${source}.${String(value)}`;
}

/**
 * The storage model of a resource, read from its schema (schemas/*.schema.json, keywords documented in
 * kernel/dialect/keywords.ts): the table, its columns (every property that is not computed, plus `x-storage.columns`),
 * which hold JSON text (objects and arrays), unique fields (`x-unique`), references (`x-references`),
 * computed counts (`x-count`), display joins (`x-storage.display`), the free-text `q` columns and the
 * search index, the timestamps and the kernel's `revision` column ({@link REVISION}). `writeOnly` properties are not stored (the hooks take them). Pure: used by the generic repository (repository.ts), the routes
 * (kernel/server/resources.ts) and the storage codegen (scripts/codegen/storage.ts).
 */
import {
  REVISION,
  resourceSchemas,
  type PropertySchema,
  type ResourceSchema,
} from '../dialect/schemaRegistry';
import { typeNameOf } from '../dialect/typeName';

/**
 * The kernel's own column of every stored resource: the record's revision, 1 when inserted and one more at
 * every update of its row, whoever writes it (a trigger the storage codegen adds with the column,
 * scripts/codegen/storage.ts). An update or delete may name the revision it started from (`If-Match`, or
 * the body's `revision`): a stale one is refused with the current record (repository.ts). No schema may
 * declare a property or column of this name (scripts/codegen/dialectRules.ts).
 */
export { REVISION };

/** SQL column types the kernel uses (portable between SQLite and PostgreSQL). */
export type ColumnType = 'integer' | 'text' | 'real';

/** One stored column. `default` is the SQL default (JSON text for JSON columns). */
export interface ColumnModel {
  type: ColumnType;
  notNull: boolean;
  default?: string | number;
  primaryKey?: boolean;
  unique?: boolean;
  /** Foreign key to `<table>.id`. */
  references?: string;
}

/** A property whose value is the id of a record of another resource. */
export interface ReferenceModel {
  field: string;
  resource: string;
  table: string;
  onDelete?: 'restrict';
  foreignKey: boolean;
}

/** A computed count: records of `table` whose `field` equals this record's `key`. */
export interface CountModel {
  name: string;
  table: string;
  field: string;
  key: string;
}

/** A read-only field joined from the record `reference` points at. */
export interface DisplayModel {
  name: string;
  reference: string;
  table: string;
  field: string;
}

/** The free-text search of a resource. */
export interface SearchModel {
  /** Own columns `q` matches. */
  columns: string[];
  /** Columns of referenced tables `q` matches: artworks.author → authors.authorName. */
  references: { column: string; table: string; field: string }[];
  /** A trigram substring index (FTS5 `<table>_fts` on SQLite, pg_trgm on PostgreSQL). */
  index?: 'trigram';
}

export interface ResourceModel {
  name: string;
  schemaId: string;
  /** The schema the model was built from (its `$id` is `schemaId`). */
  schema: ResourceSchema;
  /** The record's TypeScript type in common/generated/types.ts (the schema's `title`). */
  typeName: string;
  /** Singular English label, e.g. "Author", "Bid user" (from `x-i18n.en`). */
  label: string;
  table: string;
  /** The record's field shown in messages (`x-resource.recordRepresentation`). */
  representation: string;
  /** Every stored column, by name, in declaration order (properties first). */
  columns: Record<string, ColumnModel>;
  /** Properties stored as columns (what a record shows), in schema order. */
  stored: string[];
  /**
   * Stored properties holding JSON text, with the value for an absent one (`null` for a nullable one:
   * an absent or null value is stored as SQL NULL and answered as null; `null` too for an optional one
   * without a default, which is also in `optional`: answered absent).
   */
  json: Record<string, '[]' | '{}' | null>;
  /** Stored boolean properties: an integer column (0/1 on SQLite and PostgreSQL), JSON true/false in the API. */
  booleans: string[];
  /**
   * Optional, non-nullable properties stored in a nullable column: an absent value is SQL NULL, and the
   * API record leaves the property out (it never answers null for a property whose type has no null).
   */
  optional: string[];
  /** Writable properties of type string with `x-plainText`: trimmed before storing. */
  trimmed: string[];
  /** Nullable trimmed properties: an empty string is stored as null. */
  nullable: Set<string>;
  unique: string[];
  references: ReferenceModel[];
  counts: CountModel[];
  display: DisplayModel[];
  search: SearchModel;
  timestamps: Record<string, 'create' | 'write'>;
  /** Plain indexes `<table>_<column>`. */
  indexes: string[];
}

const typesOf = (p: PropertySchema): string[] => ([] as string[]).concat(p.type ?? []);

function columnType(p: PropertySchema): ColumnType {
  const types = typesOf(p).filter((t) => t !== 'null');
  if (types.includes('object') || types.includes('array') || types.includes('string')) return 'text';
  if (types.includes('number')) return 'real';
  return 'integer';
}

const isJson = (p: PropertySchema) => typesOf(p).some((t) => t === 'object' || t === 'array');

/**
 * The SQL default of a scalar property's `default` (JSON Schema), or undefined for none: a boolean is
 * stored as 1/0 (the column is an integer), strings and numbers as they are.
 */
function sqlDefault(p: PropertySchema): string | number | undefined {
  const d: unknown = p.default;
  if (typeof d === 'boolean') return d ? 1 : 0;
  if (typeof d === 'string' || typeof d === 'number') return d;
  return undefined;
}

function tableOf(resource: string, all: ResourceSchema[]): string {
  const s = all.find((r) => r['x-resource']?.name === resource);
  const table = s?.['x-storage']?.table;
  if (!table) throw new Error(`x-references/x-count: resource "${resource}" declares no x-storage.table`);
  return table;
}

/**
 * The model of `schema`, or throws naming what the schema is missing.
 * @param all the schemas references and counts may name (default: every schema of the registry)
 */
export function modelOf(schema: ResourceSchema, all: ResourceSchema[] = resourceSchemas()): ResourceModel {
  const storage = schema['x-storage'];
  if (!storage?.table) throw new Error(`Schema "${schema.$id}" has no x-storage.table`);
  const columns: Record<string, ColumnModel> = {};
  const json: Record<string, '[]' | '{}' | null> = {};
  const booleans: string[] = [];
  const optional: string[] = [];
  const required = new Set(schema.required ?? []);
  const stored: string[] = [];
  const trimmed: string[] = [];
  const nullable = new Set<string>();
  const unique: string[] = [];
  const references: ReferenceModel[] = [];
  const counts: CountModel[] = [];
  const qColumns: string[] = [];
  for (const [name, p] of Object.entries(schema.properties)) {
    // A write-only property (JSON Schema `writeOnly`, e.g. an account's password) is taken by the create
    // and update calls and handled by the resource's hooks; it is neither a column nor answered.
    if (p.writeOnly) continue;
    if (p['x-count']) {
      const c = p['x-count'] as { resource: string; field: string; key?: string };
      counts.push({ name, table: tableOf(c.resource, all), field: c.field, key: c.key ?? 'id' });
      continue;
    }
    stored.push(name);
    if (name === 'id') {
      columns.id = { type: 'integer', notNull: true, primaryKey: true };
      continue;
    }
    const isNullable = typesOf(p).includes('null');
    const col: ColumnModel = { type: columnType(p), notNull: !isNullable };
    if (isJson(p)) {
      // A nullable object or array is a nullable column (null round-trips). An optional one without a
      // `default`, written by the API, is like any other optional property: SQL NULL when absent, left out
      // of the record (docs/api.md "Types"). Any other one (required, a `default`, or read-only: written
      // by the kernel or a hook) holds '{}' or '[]' when absent (the hand-written migrations' shape).
      const absent = !isNullable && !required.has(name) && p.default === undefined && !p.readOnly;
      json[name] = isNullable || absent ? null : typesOf(p).includes('array') ? '[]' : '{}';
      if (json[name] !== null) col.default = json[name];
      if (absent) {
        col.notNull = false;
        optional.push(name);
      }
    } else {
      const d = sqlDefault(p);
      if (d !== undefined) col.default = d;
      // Optional, not nullable, no default and written by the API: an absent value is SQL NULL and the
      // record leaves it out. (A read-only one is written by the kernel or a hook, see x-storage.columns.)
      else if (!isNullable && !required.has(name) && !p.readOnly) {
        col.notNull = false;
        optional.push(name);
      }
    }
    if (typesOf(p).includes('boolean')) booleans.push(name);
    if (p['x-unique']) {
      col.unique = true;
      unique.push(name);
    }
    const ref = p['x-references'] as
      { resource: string; onDelete?: 'restrict'; foreignKey?: boolean } | undefined;
    if (ref) {
      const table = tableOf(ref.resource, all);
      const foreignKey = ref.foreignKey !== false;
      references.push({ field: name, resource: ref.resource, table, onDelete: ref.onDelete, foreignKey });
      if (foreignKey) col.references = `${table}.id`;
    }
    columns[name] = col;
    if (p['x-plainText'] && typesOf(p).includes('string') && !p.readOnly) {
      trimmed.push(name);
      if (typesOf(p).includes('null')) nullable.add(name);
    }
    if (p['x-ui']?.filter === 'q') qColumns.push(name);
  }
  for (const [name, c] of Object.entries<{ type: ColumnType; notNull?: boolean; default?: string | number }>(
    storage.columns ?? {},
  )) {
    const own = columns[name];
    // A property's column named here too is as declared here (keeping its unique and foreign key): e.g. a
    // NOT NULL column for an optional property a hook always fills (a bid user's account: the phone
    // number when not given), so the record always has it.
    if (own && c.notNull && optional.includes(name)) optional.splice(optional.indexOf(name), 1);
    columns[name] = {
      type: c.type,
      notNull: c.notNull ?? false,
      ...(c.default !== undefined ? { default: c.default } : {}),
      ...(own?.unique ? { unique: true } : {}),
      ...(own?.references ? { references: own.references } : {}),
    };
  }
  columns[REVISION] = { type: 'integer', notNull: true, default: 1 };
  const display: DisplayModel[] = Object.entries<{ reference: string; field: string }>(
    storage.display ?? {},
  ).map(([name, d]) => {
    const ref = references.find((r) => r.field === d.reference);
    if (!ref) throw new Error(`${schema.$id}: x-storage.display.${name} names no x-references property`);
    return { name, reference: d.reference, table: ref.table, field: d.field };
  });
  const search = storage.search ?? {};
  const searchRefs = Object.entries<string[]>(search.references ?? {}).flatMap(([column, fields]) => {
    const ref = references.find((r) => r.field === column);
    if (!ref) throw new Error(`${schema.$id}: x-storage.search.references.${column} is no reference`);
    return fields.map((field) => ({ column, table: ref.table, field }));
  });
  const en = (schema['x-i18n']?.en ?? schema.title ?? schema.$id).split('||||')[0].trim();
  return {
    name: schema['x-resource']!.name,
    schemaId: schema.$id,
    schema,
    typeName: typeNameOf(schema),
    label: en,
    table: storage.table,
    representation: schema['x-resource']?.recordRepresentation ?? 'id',
    columns,
    stored,
    json,
    booleans,
    optional,
    trimmed,
    nullable,
    unique,
    references,
    counts,
    display,
    search: {
      // a field both `x-ui.filter: "q"` and in `search.fields` is searched once (an FTS5 table refuses a
      // column named twice)
      columns: [...new Set([...qColumns, ...(search.fields ?? [])])],
      references: searchRefs,
      ...(search.index ? { index: search.index } : {}),
    },
    timestamps: storage.timestamps ?? {},
    indexes: storage.indexes ?? [],
  };
}

/** The models of every resource schema (of `all`) that declares `x-storage`, by resource name. */
export function resourceModels(all: ResourceSchema[] = resourceSchemas()): Map<string, ResourceModel> {
  return new Map(
    all.filter((s) => s['x-resource'] && s['x-storage']).map((s) => [s['x-resource']!.name, modelOf(s, all)]),
  );
}

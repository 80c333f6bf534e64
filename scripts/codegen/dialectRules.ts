/**
 * The dialect's rules a meta-schema cannot say (codegen only; the shapes are schemas/meta.schema.json's,
 * checked first by metaSchema.ts). Over all schema files at once:
 * - names and calls (dialectNames.ts): `$id` is the file name; `title`, `x-resource.name`, the list path
 *   and `x-storage.table` are unique; no two calls of different resources share a method and path;
 * - references: `x-references`, `x-count`, `x-ui.reference`, `x-chain.after`, `x-schemaFrom` and
 *   `x-storage.display`/`search.references` name resources that exist and have a table, and fields those
 *   resources have; `$ref` names a definition and no chain of them comes back to itself; `required`, `x-storage.indexes`, `timestamps`, `search.fields`,
 *   `x-frozen.when`, `x-chain.status`, `recordRepresentation` and update aliases' `properties` name properties;
 * - fields: `default`, `enum` and `const` fit the property's `type`; `x-enumLabels` labels exactly the enum
 *   values; the string keywords (`x-maxWidth`, `x-plainText`, `x-url`, `x-uscc`, `format`, `pattern`,
 *   lengths) sit on strings, `x-notFuture` and bounds on numbers, `x-upload` on a string or list of
 *   strings; `x-ordered` pairs two existing properties of the same comparable type (numbers, or strings of
 *   the same `date`/`date-time` format), `x-distinct` two strings; `x-ui.list`/`filter`/`sortable`/
 *   `section`, `x-unique`, `x-references`, `x-count`, `x-renamedFrom` and `x-fill` on top-level properties (`filter`/`sortable` not on
 *   objects, lists or computed counts); every property has its `x-i18n` label; a top-level property
 *   (a column) has one type besides "null" (`integer` with `number` counts as one): a value of several types
 *   or of none is a JSON value, kept in an object, a list or a map (kernel/dialect/kinds.ts `json`);
 * - labels: every section tab (`x-ui.section`) is labelled by `x-sections` or by the labelled property of
 *   that name (`main`, the fields without a section, may be), and `x-sections` names only sections in use;
 * - the kernel's names: no stored resource declares a property or column `revision` (kernel/server/model.ts
 *   `REVISION`);
 * - icons: `x-resource.icon` is an @mui/icons-material icon (`iconExists`);
 * - roles: `x-roles`, `x-resource.roles` and every `x-endpoints` call's `roles` name roles an account can
 *   hold, declared once by the account schema (kernel/dialect/roles.ts `declaredRoles`);
 * - calls: the write verbs (`create`, `update`, `updateMany`, `delete`, `deleteMany`) and their aliases are
 *   POST: they change records, which a GET must not (RFC 9110 §9.2.1: a safe method, which links, prefetches
 *   and crawlers call freely), and the kernel reads their data from a JSON body.
 * Each failure is a {@link DialectError} (file, JSON pointer, reason). A rule that throws on a shape it did
 * not expect is reported the same way at the schema's root, never thrown.
 */
import { deref as derefNode, inlineRefs, RefError } from '../../kernel/dialect/deref';
import { isOneType } from '../../kernel/dialect/kinds';
import { declaredRoles, ROLES_PROPERTY, ROLES_SCHEMA_ID } from '../../kernel/dialect/roles';
import { REVISION } from '../../kernel/server/model';
import { callErrors, nameErrors, type SchemaFile } from './dialectNames';
import { pointer, type DialectError } from './metaSchema';

type Json = Record<string, any>;

export type { SchemaFile } from './dialectNames';

export interface RuleOptions {
  /** Whether `@mui/icons-material/<name>` exists (codegen: a file of the installed package). */
  iconExists: (name: string) => boolean;
}

/** The verbs whose calls change records. */
const WRITE_VERBS = ['create', 'update', 'updateMany', 'delete', 'deleteMany'] as const;

const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const typesOf = (p: Json): string[] => ([] as string[]).concat(p?.type ?? []).filter((t) => t !== 'null');
const typeText = (p: Json) => JSON.stringify(p?.type ?? null);

/** The value fits one of `types` (JSON Schema's types; `integer` is a whole number). */
function fits(value: unknown, types: string[]): boolean {
  return types.some((t) =>
    t === 'null'
      ? value === null
      : t === 'integer'
        ? Number.isInteger(value)
        : t === 'number'
          ? typeof value === 'number'
          : t === 'array'
            ? Array.isArray(value)
            : t === 'object'
              ? isObj(value)
              : typeof value === t,
  );
}

/** The resource index: name → its file and schema (first declaration wins). */
function indexResources(files: SchemaFile[]): Map<string, SchemaFile> {
  const out = new Map<string, SchemaFile>();
  for (const f of files) {
    const name = f.schema?.['x-resource']?.name;
    if (typeof name === 'string' && !out.has(name)) out.set(name, f);
  }
  return out;
}

/** A property merged with the definition its `$ref` names (own keys win); undefined when unresolved. */
function deref(schema: Json, prop: Json): Json | undefined {
  if (!isObj(prop)) return undefined;
  try {
    return derefNode(schema, prop);
  } catch {
    return undefined;
  }
}

class Checker {
  readonly errors: DialectError[] = [];
  private readonly resources: Map<string, SchemaFile>;

  /** The roles accounts can hold (undefined: no account schema among the files, nothing to check). */
  private readonly roles: string[] | undefined;

  constructor(
    private readonly files: SchemaFile[],
    private readonly opts: RuleOptions,
  ) {
    this.resources = indexResources(files);
    this.roles = declaredRoles(files.map((f) => f.schema));
  }

  private file = '';
  private schema: Json = {};

  private err(ptr: string, reason: string) {
    this.errors.push({ file: this.file, pointer: ptr, reason });
  }

  /** The resource `name` with a table, or an error at `ptr`; its schema. */
  private stored(name: unknown, ptr: string, what: string): Json | undefined {
    const r = typeof name === 'string' ? this.resources.get(name) : undefined;
    if (!r) {
      this.err(
        ptr,
        `${what} "${String(name)}" is no resource (known: ${[...this.resources.keys()].join(', ')})`,
      );
      return undefined;
    }
    if (!r.schema['x-storage']?.table) {
      this.err(ptr, `${what} "${String(name)}" has no x-storage.table (${r.file}): nothing to reference`);
      return undefined;
    }
    return r.schema;
  }

  private fieldOf(target: Json, field: unknown, ptr: string, what: string) {
    if (typeof field !== 'string' || !isObj(target.properties?.[field]))
      this.err(ptr, `${what} "${String(field)}" is not a property of ${target.$id}`);
  }

  private own(name: unknown, ptr: string, what: string, props: Json = this.schema.properties ?? {}) {
    if (typeof name !== 'string' || !isObj(props[name]))
      this.err(
        ptr,
        `${what} "${String(name)}" is not a property of this ${props === this.schema.properties ? 'schema' : 'object'}`,
      );
  }

  run(): DialectError[] {
    this.errors.push(...nameErrors(this.files), ...callErrors(this.files));
    for (const f of this.files) {
      this.file = f.file;
      this.schema = f.schema;
      try {
        this.schemaRules(f);
      } catch (e) {
        this.err(
          '',
          `the dialect check failed on this schema (${(e as Error).message}): a bug of scripts/codegen/dialectRules.ts`,
        );
      }
    }
    return this.errors;
  }

  private schemaRules(f: SchemaFile) {
    const s = f.schema;
    const props: Json = isObj(s.properties) ? s.properties : {};
    this.roleRules();
    this.writeCalls();
    if (!this.refCycle()) {
      this.object(s, '', true);
      for (const [name, d] of Object.entries<Json>(isObj(s.definitions) ? s.definitions : {}))
        if (isObj(d)) this.property(d, pointer('definitions', name), false, name);
    }
    const x: Json = isObj(s['x-resource']) ? s['x-resource'] : {};
    if (x.recordRepresentation !== undefined)
      this.own(x.recordRepresentation, '/x-resource/recordRepresentation', 'recordRepresentation');
    if (typeof x.icon === 'string' && !this.opts.iconExists(x.icon))
      this.err(
        '/x-resource/icon',
        `"${x.icon}" is not an @mui/icons-material icon (see https://mui.com/material-ui/material-icons/)`,
      );
    this.storage(props);
    const frozen = s['x-frozen'];
    if (isObj(frozen?.when))
      for (const k of Object.keys(frozen.when)) this.own(k, pointer('x-frozen', 'when', k), 'x-frozen.when');
    const chain = s['x-chain'];
    if (isObj(chain)) {
      this.own(chain.status, '/x-chain/status', 'x-chain.status');
      if (isObj(chain.after)) {
        this.stored(chain.after.resource, '/x-chain/after/resource', 'x-chain.after.resource');
        if (!isObj(props[chain.after.field]?.['x-references']))
          this.err(
            '/x-chain/after/field',
            `x-chain.after.field "${chain.after.field}" is no x-references property`,
          );
      }
    }
    const endpoints: Json = isObj(s['x-endpoints']) ? s['x-endpoints'] : {};
    for (const [i, a] of (Array.isArray(endpoints.update?.aliases) ? endpoints.update.aliases : []).entries())
      for (const [j, p] of (Array.isArray(a?.properties) ? a.properties : []).entries())
        this.own(
          p,
          pointer('x-endpoints', 'update', 'aliases', i, 'properties', j),
          'an update alias property',
        );
    this.sections(props);
  }

  /**
   * Reports a `$ref` whose chain of definitions (or their items and properties) comes back to itself;
   * true when there is one (the property rules, which follow references, are then skipped).
   */
  private refCycle(): boolean {
    try {
      inlineRefs(this.schema);
    } catch (e) {
      // a reference to no definition is reported where it sits (property()); a cycle here
      if (!(e instanceof RefError)) throw e;
      if (/refers to itself/.test(e.message)) {
        this.err(e.pointer, e.message.replace(/^Schema "[^"]*": /, ''));
        return true;
      }
    }
    return false;
  }

  /** Every role this schema admits is one an account can hold (see the module doc). */
  private roleRules() {
    const known = this.roles;
    if (!known) return;
    const check = (list: unknown, ptr: string[]) => {
      for (const [i, r] of (Array.isArray(list) ? list : []).entries())
        if (typeof r === 'string' && !known.includes(r))
          this.err(
            pointer(...ptr, i),
            `"${r}" is no role an account can hold (${known.join(', ')}: schemas/${ROLES_SCHEMA_ID}.schema.json#/properties/${ROLES_PROPERTY}/items/enum)`,
          );
    };
    const s = this.schema;
    check(s['x-roles'], ['x-roles']);
    if (isObj(s['x-resource'])) check(s['x-resource'].roles, ['x-resource', 'roles']);
    for (const [verb, e] of Object.entries<Json>(isObj(s['x-endpoints']) ? s['x-endpoints'] : {}))
      if (verb === 'getManyReference' && isObj(e)) {
        for (const [t, r] of Object.entries<Json>(e))
          if (isObj(r)) check(r.roles, ['x-endpoints', verb, t, 'roles']);
      } else if (isObj(e)) check(e.roles, ['x-endpoints', verb, 'roles']);
  }

  /** The write verbs' calls and their aliases are POST (see the module doc). */
  private writeCalls() {
    const endpoints: Json = isObj(this.schema['x-endpoints']) ? this.schema['x-endpoints'] : {};
    const reason = (verb: string) =>
      `${verb} changes records: its call is POST, with its data in a JSON body (a GET must not change anything: RFC 9110 §9.2.1, links, prefetches and crawlers call it freely)`;
    for (const verb of WRITE_VERBS) {
      const e = endpoints[verb];
      if (!isObj(e)) continue;
      if (e.method === 'GET') this.err(pointer('x-endpoints', verb, 'method'), reason(verb));
      for (const [i, a] of (Array.isArray(e.aliases) ? e.aliases : []).entries())
        if (isObj(a) && a.method === 'GET')
          this.err(pointer('x-endpoints', verb, 'aliases', i, 'method'), reason(verb));
    }
  }

  private storage(props: Json) {
    const st = this.schema['x-storage'];
    if (!isObj(st)) return;
    const columns = new Set([...Object.keys(props), ...Object.keys(isObj(st.columns) ? st.columns : {})]);
    for (const [i, c] of (Array.isArray(st.indexes) ? st.indexes : []).entries())
      if (!columns.has(c)) this.err(pointer('x-storage', 'indexes', i), `"${c}" is no property or column`);
    const hidden: Json = isObj(st.columns) ? st.columns : {};
    if (Object.hasOwn(props, REVISION))
      this.err(
        pointer('properties', REVISION),
        `"${REVISION}" is the kernel's revision of every stored record; name the property otherwise`,
      );
    if (Object.hasOwn(hidden, REVISION))
      this.err(
        pointer('x-storage', 'columns', REVISION),
        `"${REVISION}" is the kernel's revision column; name the column otherwise`,
      );
    for (const k of Object.keys(isObj(st.timestamps) ? st.timestamps : {}))
      if (!typesOf(props[k] ?? {}).includes('string') && hidden[k]?.type !== 'text')
        this.err(
          pointer('x-storage', 'timestamps', k),
          `"${k}" is no string property nor text column of this schema`,
        );
    const refTarget = (field: string, ptr: string): Json | undefined => {
      const ref = props[field]?.['x-references'];
      if (!isObj(ref)) {
        this.err(ptr, `"${field}" is no x-references property`);
        return undefined;
      }
      return this.resources.get(ref.resource)?.schema;
    };
    for (const [name, d] of Object.entries<Json>(isObj(st.display) ? st.display : {})) {
      const target = refTarget(d.reference, pointer('x-storage', 'display', name, 'reference'));
      if (target) this.fieldOf(target, d.field, pointer('x-storage', 'display', name, 'field'), 'field');
    }
    const search: Json = isObj(st.search) ? st.search : {};
    for (const [i, f] of (Array.isArray(search.fields) ? search.fields : []).entries())
      this.own(f, pointer('x-storage', 'search', 'fields', i), 'x-storage.search.fields');
    for (const [field, fields] of Object.entries<unknown[]>(
      isObj(search.references) ? search.references : {},
    )) {
      const target = refTarget(field, pointer('x-storage', 'search', 'references', field));
      if (target)
        for (const [i, f] of fields.entries())
          this.fieldOf(target, f, pointer('x-storage', 'search', 'references', field, i), 'field');
    }
  }

  /** Section tabs: each labelled (x-sections, or a labelled property of that name); x-sections names used ones. */
  private sections(props: Json) {
    const used = new Map<string, string>();
    let main = false;
    for (const [name, p] of Object.entries<Json>(props)) {
      const section = deref(this.schema, p)?.['x-ui']?.section;
      if (typeof section === 'string') {
        if (!used.has(section)) used.set(section, pointer('properties', name, 'x-ui', 'section'));
      } else if (!p?.writeOnly) main = true;
    }
    // `main` (the fields without a section) may be labelled too; unlabelled, it is the console's "Main".
    if (main) used.set('main', '');
    const labels: Json = isObj(this.schema['x-sections']) ? this.schema['x-sections'] : {};
    for (const [section, ptr] of used) {
      if (labels[section] || section === 'main' || isObj(props[section]?.['x-i18n'])) continue;
      this.err(
        ptr,
        `the section "${section}" has no label: add "x-sections": { "${section}": { "en": ..., "zh": ... } }`,
      );
    }
    for (const section of Object.keys(labels))
      if (!used.has(section) && section !== 'main')
        this.err(pointer('x-sections', section), `no property is in the section "${section}" (x-ui.section)`);
  }

  /** The rules of an object schema's own keywords (`required`, pairs) and of its properties. */
  private object(obj: Json, ptr: string, root: boolean) {
    const props: Json = isObj(obj.properties) ? obj.properties : {};
    for (const [i, r] of (Array.isArray(obj.required) ? obj.required : []).entries())
      if (!isObj(props[r]) && props[r] !== false)
        this.err(
          `${ptr}${pointer('required', i)}`,
          `"${r}" is not a property of this ${root ? 'schema' : 'object'}`,
        );
    this.pairs(obj, ptr, props);
    for (const [name, p] of Object.entries<Json>(props))
      this.property(p, `${ptr}${pointer('properties', name)}`, root, name);
  }

  private pairs(obj: Json, ptr: string, props: Json) {
    const resolved = (name: string) => deref(this.schema, props[name]) ?? {};
    for (const keyword of ['x-ordered', 'x-distinct'] as const)
      for (const [i, pair] of (Array.isArray(obj[keyword]) ? obj[keyword] : []).entries()) {
        const at = `${ptr}${pointer(keyword, i)}`;
        const missing = (pair as string[]).filter((n) => !isObj(props[n]));
        if (missing.length) {
          this.err(
            at,
            `${missing.map((n) => `"${n}"`).join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not a property of this ${ptr ? 'object' : 'schema'}`,
          );
          continue;
        }
        const [a, b] = (pair as string[]).map(resolved);
        const [ta, tb] = [typesOf(a), typesOf(b)];
        if (keyword === 'x-distinct') {
          if (!ta.includes('string') || !tb.includes('string'))
            this.err(
              at,
              `x-distinct compares strings: "${pair[0]}" is ${typeText(a)}, "${pair[1]}" is ${typeText(b)}`,
            );
          continue;
        }
        const numeric = (t: string[]) => t.length === 1 && (t[0] === 'integer' || t[0] === 'number');
        const dated = (p: Json, t: string[]) =>
          t.length === 1 && t[0] === 'string' && (p.format === 'date' || p.format === 'date-time');
        const same = JSON.stringify(ta) === JSON.stringify(tb) && a.format === b.format;
        if (!same || !(numeric(ta) || dated(a, ta)))
          this.err(
            at,
            `x-ordered pairs two properties of the same comparable type (integer, number, or string with format date or date-time): "${pair[0]}" is ${typeText(a)}${a.format ? ` ${a.format}` : ''}, "${pair[1]}" is ${typeText(b)}${b.format ? ` ${b.format}` : ''}`,
          );
      }
  }

  private property(raw: Json, ptr: string, top: boolean, name: string) {
    if (!isObj(raw)) return;
    if (typeof raw.$ref === 'string' && !deref(this.schema, raw)) {
      const m = /^#\/definitions\/(.+)$/.exec(raw.$ref);
      // a cycle is reported once, by refCycles
      if (!m || !isObj(this.schema.definitions?.[m[1]]))
        this.err(`${ptr}/$ref`, `"${raw.$ref}" names no definition of this schema`);
      return;
    }
    const p = deref(this.schema, raw)!;
    const types = typesOf(p);
    const all = ([] as string[]).concat(p.type ?? []);
    const where = (k: string) => `${ptr}${pointer(k)}`;
    if (!ptr.startsWith('/definitions') && !isObj(p['x-i18n']) && top)
      this.err(
        where('x-i18n'),
        `the property "${name}" has no label: add "x-i18n": { "en": ..., "zh": ... }`,
      );
    if (top && !isOneType(types))
      this.err(
        p.type === undefined ? ptr : where('type'),
        `a record's own field is stored in a column of one type, and "${name}" is ${p.type === undefined ? 'of no type' : typeText(p)}: give it one type (with "null" if it may be empty), or keep a value of several types or of none in an object or a list, where it is stored as JSON`,
      );
    if (all.length) {
      if (p.default !== undefined && !fits(p.default, all))
        this.err(
          where('default'),
          `${JSON.stringify(p.default)} is not of the property's type ${typeText(p)}`,
        );
      if (p.const !== undefined && !fits(p.const, all))
        this.err(where('const'), `${JSON.stringify(p.const)} is not of the property's type ${typeText(p)}`);
      for (const [i, v] of (Array.isArray(p.enum) ? p.enum : []).entries())
        if (!fits(v, all))
          this.err(
            `${where('enum')}/${i}`,
            `${JSON.stringify(v)} is not of the property's type ${typeText(p)}`,
          );
    }
    if (Array.isArray(p.enum) && p.default !== undefined && !p.enum.includes(p.default))
      this.err(where('default'), `${JSON.stringify(p.default)} is not one of the enum values`);
    // x-enumLabels labels the enum's values (an enum list's: its items'), or known values of an open field.
    const labels = p['x-enumLabels'];
    const enumValues = Array.isArray(p.enum) ? p.enum : deref(this.schema, p.items ?? {})?.enum;
    const values = (Array.isArray(enumValues) ? enumValues : [])
      .filter((v: unknown) => v !== null)
      .map(String);
    if (isObj(labels) && values.length) {
      for (const k of Object.keys(labels))
        if (!values.includes(k))
          this.err(
            `${where('x-enumLabels')}${pointer(k)}`,
            `"${k}" is not one of the enum values (${values.join(', ')})`,
          );
      for (const v of values)
        if (!labels[v]) this.err(where('x-enumLabels'), `the enum value "${v}" has no label`);
    } else if (!isObj(labels) && values.length && top && !ptr.startsWith('/definitions'))
      this.err(
        where('x-enumLabels'),
        'an enum needs a label per value: add "x-enumLabels": { "<value>": { "en": ..., "zh": ... } }',
      );
    const on = (keys: string[], ok: boolean, what: string) => {
      if (!types.length) return;
      for (const k of keys)
        if (p[k] !== undefined && !ok)
          this.err(where(k), `${k} applies to ${what}; this property is ${typeText(p)}`);
    };
    const isString = types.includes('string');
    const isNumber = types.includes('integer') || types.includes('number');
    on(
      ['x-maxWidth', 'x-plainText', 'x-url', 'x-uscc', 'format', 'pattern', 'minLength', 'maxLength'],
      isString,
      'strings',
    );
    on(
      ['x-notFuture', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
      isNumber,
      'numbers',
    );
    on(['items', 'minItems', 'maxItems', 'uniqueItems'], types.includes('array'), 'arrays');
    if (
      p['x-upload'] !== undefined &&
      !(
        (types.length === 1 && isString) ||
        (types[0] === 'array' && typesOf(deref(this.schema, p.items) ?? {}).join() === 'string')
      )
    )
      this.err(
        where('x-upload'),
        `x-upload holds a file's URL: a string or an array of strings, not ${typeText(p)}`,
      );
    const ui: Json = isObj(p['x-ui']) ? p['x-ui'] : {};
    const topOnly = [
      ...['list', 'filter', 'sortable', 'section']
        .filter((k) => ui[k] !== undefined && ui[k] !== false)
        .map((k) => `x-ui.${k}`),
      ...['x-unique', 'x-references', 'x-count', 'x-renamedFrom', 'x-fill'].filter((k) => p[k] !== undefined),
    ];
    if (!top)
      for (const k of topOnly)
        this.err(where(k.split('.')[0]), `${k} works on the record's own (top-level) properties only`);
    if (top && (ui.filter || ui.sortable)) {
      const k = ui.filter ? 'filter' : 'sortable';
      const count = k === 'filter' && p['x-count'];
      if (types.includes('object') || types.includes('array') || count || p.writeOnly)
        this.err(
          `${where('x-ui')}/${k}`,
          `x-ui.${k} needs a stored scalar column; "${name}" is ${count ? 'a computed count' : p.writeOnly ? 'write-only' : typeText(p)}`,
        );
    }
    if (ui.reference !== undefined && !this.resources.has(ui.reference))
      this.err(
        `${where('x-ui')}/reference`,
        `"${ui.reference}" is no resource (known: ${[...this.resources.keys()].join(', ')})`,
      );
    if (top && isObj(p['x-references'])) {
      this.stored(p['x-references'].resource, `${where('x-references')}/resource`, 'x-references.resource');
      if (!types.length || types.some((t) => t !== 'integer'))
        this.err(
          where('x-references'),
          `x-references holds a record id: type "integer" (or ["integer", "null"]), not ${typeText(p)}`,
        );
    }
    if (top && isObj(p['x-count'])) {
      const c = p['x-count'];
      const target = this.stored(c.resource, `${where('x-count')}/resource`, 'x-count.resource');
      if (target) this.fieldOf(target, c.field, `${where('x-count')}/field`, 'x-count.field');
      if (c.key !== undefined && c.key !== 'id') this.own(c.key, `${where('x-count')}/key`, 'x-count.key');
    }
    if (isObj(p['x-schemaFrom'])) {
      const sf = p['x-schemaFrom'];
      const ref = this.schema.properties?.[sf.reference]?.['x-references'];
      if (!isObj(ref))
        this.err(
          `${where('x-schemaFrom')}/reference`,
          `"${sf.reference}" is no x-references property of this schema`,
        );
      else {
        const target = this.resources.get(ref.resource)?.schema;
        if (target) this.fieldOf(target, sf.field, `${where('x-schemaFrom')}/field`, 'x-schemaFrom.field');
      }
    }
    if (types.includes('object')) this.object(p, ptr, false);
    if (types.includes('array') && isObj(p.items)) this.property(p.items, where('items'), false, name);
  }
}

/** Every rule failure over `files` (see the module doc); empty when all of them are in the dialect. */
export function dialectRuleErrors(files: SchemaFile[], opts: RuleOptions): DialectError[] {
  return new Checker(files, opts).run();
}

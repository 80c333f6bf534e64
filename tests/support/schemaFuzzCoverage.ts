/**
 * Keyword coverage of the schema fuzzer (issue 33 item 2): what schemas/meta.schema.json admits, and what
 * a set of generated schemas (tests/support/schemaArbitraries.ts) holds, as comparable "marks".
 *
 * A mark is `<place>|<keyword path>` for a keyword present, or `<place>|<keyword path> <shape>` for a
 * value shape, e.g. `properties/*|x-count`, `<property>|x-ui/widget = "hash"`,
 * `<property>|additionalProperties : boolean`, `(root)|x-storage/search/index`:
 * - the place of a keyword of a property schema is where that property schema sits: `properties/*` (a
 *   top-level property), `definitions/*`, `…/properties/*` (a property of an object property, at any
 *   depth), `…/items` (an array's items) or `…/additionalProperties` (a map's values); the places of
 *   everything deeper (a keyword's own parts, such as `x-ui/widget`) and of every value shape are merged
 *   into `<property>`: a sub-keyword or a shape is needed once, anywhere a property schema admits it;
 * - outside property schemas the place is `(root)` and the keyword path is the pointer from the root;
 * - in keyword paths, a map's key is `*` and an array's element `[]`;
 * - shapes: each alternative of an `enum` (`= <JSON>`), `true` and `false` of a boolean, each type of a
 *   list of types (`: integer`...; a number that is no integer is `: number`), both branches of an
 *   `if`/`then`/`else` (`: string` and `: array` for a property's `type`, whose array form's names count
 *   as the string form's), and one entry of each map (`<path>/*`);
 * - a property schema's `type` decides its kind (kernel/dialect/kinds.ts: a list of booleans, a JSON value),
 *   so its shapes keep the property's place (`…/items|type = "boolean"`), with two more: `type : several`
 *   (two or more types besides "null") and `type (none)` (no `type`, and no `$ref` to give one: any JSON
 *   value), where the meta-schema admits them.
 *
 * `metaMarks(meta)` walks the meta-schema alone (every mark it admits); `schemaMarks(meta, schema)` walks a
 * schema along the meta-schema (every mark it holds). A keyword added to the meta-schema adds marks that
 * no generated schema holds until the generator produces it (tests/unit/schema-fuzz-coverage.test.ts).
 */

type Json = Record<string, any>;

const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** The JSON type of a value: `integer` for whole numbers, `number` for others. */
function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Where a node of a walk is: the place of its property schema (or root) and the path inside it. */
interface At {
  place: string;
  /** Keyword path segments from the place. */
  path: string[];
}

const PROPERTY_REF = '#/definitions/property';

/** The place of the property schema reached from `at` through `hop` (`properties`, `items`...). */
function propertyPlace(at: At, hop: 'properties' | 'items' | 'additionalProperties' | 'definitions'): string {
  if (at.place === '(root)') return `${hop}/*`;
  return hop === 'properties' ? '…/properties/*' : `…/${hop}`;
}

/**
 * The mark of `at` plus `extra`: direct keywords of a property schema keep its place, and so do the shapes
 * of its `type`; the rest is `<property>`.
 */
function mark(at: At, extra = ''): string {
  const inProperty = at.place !== '(root)' && !/^<.*>$/.test(at.place);
  const typed = at.path.length === 1 && at.path[0] === TYPE;
  const place = inProperty && !typed && (at.path.length > 1 || extra) ? '<property>' : at.place;
  return `${place}|${at.path.join('/')}${extra}`;
}

/** The keyword of a property schema whose shapes keep its place (see the module doc). */
const TYPE = 'type';
const SEVERAL = ' : several';
const NONE = ' (none)';

class Walker {
  readonly marks = new Set<string>();
  private readonly expanded = new Set<string>();

  /** The object definitions the meta-schema names more than once (`endpoint`, `i18n`): a place of their own. */
  private readonly shared = new Set<string>();

  constructor(private readonly meta: Json) {
    const counts = new Map<string, number>();
    const count = (n: unknown): void => {
      if (Array.isArray(n)) n.forEach(count);
      else if (isObj(n)) {
        if (typeof n.$ref === 'string') counts.set(n.$ref, (counts.get(n.$ref) ?? 0) + 1);
        Object.values(n).forEach(count);
      }
    };
    count(meta);
    for (const [ref, n] of counts)
      if (n > 1 && ref !== PROPERTY_REF && isObj(this.resolve(ref).properties)) this.shared.add(ref);
  }

  /** Where the definition `ref` reached from `at` is walked: its own place when shared, else `at`. */
  private into(ref: string, at: At): At {
    return this.shared.has(ref) ? { place: `<${ref.split('/').pop()}>`, path: [] } : at;
  }

  private resolve(ref: string): Json {
    return ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<Json>((n, k) => n[k], this.meta);
  }

  /** Every mark `node` admits at `at` (each place's property schema expanded once). */
  admits(node: Json, at: At): void {
    if (typeof node.$ref === 'string') {
      const target = this.resolve(node.$ref);
      if (node.$ref === PROPERTY_REF) {
        if (this.expanded.has(at.place)) return;
        this.expanded.add(at.place);
        this.admitsTypes(target, at);
      }
      this.admits(target, this.into(node.$ref, at));
    }
    if (at.path.length && node.enum)
      for (const v of node.enum) this.marks.add(mark(at, ` = ${JSON.stringify(v)}`));
    if (at.path.length && node.type === 'boolean')
      for (const v of [true, false]) this.marks.add(mark(at, ` = ${v}`));
    if (at.path.length && Array.isArray(node.type))
      for (const t of node.type) this.marks.add(mark(at, ` : ${t}`));
    if (node.if) {
      const elseType = node.else?.type ?? (node.else?.$ref ? this.resolve(node.else.$ref).type : 'object');
      this.marks.add(mark(at, ` : ${node.if.type}`));
      this.marks.add(mark(at, ` : ${elseType}`));
      if (node.then) this.admits(node.then, at);
      // The array form's names count as the string form's (`type: ["integer", "null"]`).
      if (node.else?.items && node.else.type === 'array') this.admits(node.else.items, at);
      else if (node.else) this.admitsChild(node.else, at, 'additionalProperties');
    }
    for (const [k, child] of Object.entries<Json>(node.properties ?? {})) {
      const at2 = { place: at.place, path: [...at.path, k] };
      this.marks.add(mark(at2));
      this.admitsChild(child, at2, k);
    }
    if (isObj(node.additionalProperties)) {
      const at2 = { place: at.place, path: [...at.path, '*'] };
      this.marks.add(mark(at2));
      this.admitsChild(node.additionalProperties, at2, '*');
    }
    if (isObj(node.items) && !node.if)
      this.admitsChild(node.items, { ...at, path: [...at.path, '[]'] }, '[]');
  }

  /** The `type` shapes beyond its names and forms that the property schema `def` admits at `at`. */
  private admitsTypes(def: Json, at: At): void {
    const type: Json | undefined = def.properties?.[TYPE];
    if (!type) return;
    if (!(def.required ?? []).includes(TYPE)) this.marks.add(`${at.place}|${TYPE}${NONE}`);
    const list = type.else?.type === 'array' ? type.else : type.type === 'array' ? type : undefined;
    if (list && (list.maxItems ?? Infinity) >= 2) this.marks.add(`${at.place}|${TYPE}${SEVERAL}`);
  }

  /** A child node: a property schema (a new place) when it is one, else the same place further down. */
  private admitsChild(child: Json, at: At, _key: string): void {
    if (child.$ref === PROPERTY_REF) {
      const place = this.placeOfChild(at);
      if (place) return this.admits(child, { place, path: [] });
    }
    this.admits(child, at);
  }

  /** The place of a property schema at `at` (`…/properties/*`, `…/items`...), undefined if none. */
  private placeOfChild(at: At): string | undefined {
    const p = at.path;
    const last = p[p.length - 1];
    if (last === '*' && (p[p.length - 2] === 'properties' || p[p.length - 2] === 'definitions'))
      return propertyPlace({ place: at.place, path: p.slice(0, -2) }, p[p.length - 2] as 'properties');
    if (last === 'items' || last === 'additionalProperties')
      return propertyPlace({ place: at.place, path: p.slice(0, -1) }, last);
    return undefined;
  }

  /** Every mark `value` holds when `node` admits it at `at`. */
  holds(node: Json, value: unknown, at: At): void {
    if (node.$ref === PROPERTY_REF && isObj(value) && typeof value.$ref !== 'string') {
      const types = ([] as unknown[]).concat(value[TYPE] ?? []).filter((t) => t !== 'null');
      if (value[TYPE] === undefined) this.marks.add(`${at.place}|${TYPE}${NONE}`);
      else if (types.length >= 2) this.marks.add(`${at.place}|${TYPE}${SEVERAL}`);
    }
    if (typeof node.$ref === 'string') this.holds(this.resolve(node.$ref), value, this.into(node.$ref, at));
    if (at.path.length && node.enum) this.marks.add(mark(at, ` = ${JSON.stringify(value)}`));
    if (at.path.length && node.type === 'boolean') this.marks.add(mark(at, ` = ${String(value)}`));
    if (at.path.length && Array.isArray(node.type)) {
      const t = jsonType(value);
      this.marks.add(mark(at, ` : ${t === 'integer' && !node.type.includes(t) ? 'number' : t}`));
    }
    if (node.if) {
      const t = jsonType(value);
      this.marks.add(mark(at, ` : ${t === 'integer' ? 'number' : t}`));
      const matches = node.if.type === t;
      if (matches && node.then) this.holds(node.then, value, at);
      else if (!matches && node.else?.type === 'array' && Array.isArray(value))
        for (const v of value) this.holds(node.else.items, v, at);
      else if (!matches && node.else) this.holdsChild(node.else, value, at);
      return;
    }
    if (isObj(value)) {
      const props: Json = node.properties ?? {};
      for (const [k, v] of Object.entries(value)) {
        const named = props[k];
        const child = named ?? (isObj(node.additionalProperties) ? node.additionalProperties : undefined);
        if (!child) continue;
        const at2 = { place: at.place, path: [...at.path, named ? k : '*'] };
        this.marks.add(mark(at2));
        this.holdsChild(child, v, at2);
      }
    }
    if (Array.isArray(value) && isObj(node.items))
      for (const v of value) this.holdsChild(node.items, v, { ...at, path: [...at.path, '[]'] });
  }

  private holdsChild(child: Json, value: unknown, at: At): void {
    if (child.$ref === PROPERTY_REF) {
      const place = this.placeOfChild(at);
      if (place) return this.holds(child, value, { place, path: [] });
    }
    this.holds(child, value, at);
  }
}

/** Every mark the meta-schema admits (see the module doc). */
export function metaMarks(meta: Json): Set<string> {
  const w = new Walker(meta);
  w.admits(meta, { place: '(root)', path: [] });
  return w.marks;
}

/** Every mark `schemas` hold between them, walked along `meta` (see the module doc). */
export function schemaMarks(meta: Json, schemas: Json[]): Set<string> {
  const w = new Walker(meta);
  for (const s of schemas) w.holds(meta, s, { place: '(root)', path: [] });
  return w.marks;
}

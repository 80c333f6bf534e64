/**
 * The dialect's one `$ref` resolution (issue 18: it was written four times). The dialect's schemas refer
 * only to their own `definitions` (`{"$ref": "#/definitions/<name>"}`, JSON Schema draft-07 section 8.3);
 * a node with such a `$ref` means the definition with the node's own keys over it.
 * `inlineRefs` resolves every `$ref` of a schema at once (issue 33): the registry and codegen hand on
 * schemas without references, so no reader of a property's shape (kinds, storage, validators, forms,
 * lists, exports) can meet one.
 */

/** A schema node as far as `deref` reads it. */
type Node = { $ref?: unknown; [k: string]: any };
/** The root schema holding the definitions (and its `$id`, for the error). */
type Root = { $id?: unknown; definitions?: Record<string, any> };

/** A `$ref` that cannot be inlined: one naming no definition, or one that refers back to itself. */
export class RefError extends Error {
  /**
   * @param pointer the JSON pointer of the offending `$ref` in the schema (e.g. `/properties/a/items/$ref`)
   */
  constructor(
    message: string,
    readonly pointer: string,
  ) {
    super(message);
  }
}

const isNode = (v: unknown): v is Node => !!v && typeof v === 'object' && !Array.isArray(v);
const escape = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

function resolve<T extends Node>(root: Root, node: T, seen: string[], at: string): T {
  if (node.$ref === undefined) return node;
  const ref = node.$ref;
  const m = typeof ref === 'string' ? /^#\/definitions\/(.+)$/.exec(ref) : null;
  const target = m ? (root.definitions?.[m[1]] as T | undefined) : undefined;
  if (!target)
    throw new RefError(`Schema "${String(root.$id)}": cannot resolve $ref "${String(ref)}"`, `${at}/$ref`);
  if (seen.includes(ref as string))
    throw new RefError(
      `Schema "${String(root.$id)}": $ref "${String(ref)}" refers to itself (${[...seen, ref].join(' -> ')}); a record's shape must be finite`,
      `${at}/$ref`,
    );
  const { $ref: _ref, ...own } = node;
  return { ...resolve(root, target, [...seen, ref as string], at), ...own } as T;
}

/**
 * `node` with the definition its `$ref` names merged in (recursively, for a definition that refers on;
 * the node's own keys win and `$ref` itself is dropped). A node without `$ref` is returned as it is, and
 * undefined stays undefined. Nested nodes keep their own `$ref`s: see {@link inlineRefs}.
 * @throws RefError `Schema "<$id>": cannot resolve $ref "<ref>"` for a reference that is not
 *   `#/definitions/<name>` of `root`, or one whose chain of definitions comes back to itself
 */
export function deref<T extends Node>(root: Root, node: T): T;
export function deref<T extends Node>(root: Root, node: T | undefined): T | undefined;
export function deref<T extends Node>(root: Root, node: T | undefined): T | undefined {
  if (!isNode(node)) return node;
  return resolve(root, node as T, [], '');
}

/** Keywords whose value is one schema (JSON Schema draft-07's subschema keywords; the data policy walks them too). */
export const ONE = new Set([
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
]);
/** Keywords whose value maps names to schemas. */
const MAPS = new Set(['properties', 'patternProperties', 'definitions', 'dependencies']);
/** Keywords whose value is a list of schemas. */
const LISTS = new Set(['anyOf', 'oneOf', 'allOf']);

/**
 * A copy of `schema` with every `$ref` at every depth (properties, items, definitions, ...) replaced by the
 * definition it names, the node's own keys over it (as {@link deref}). `definitions` stay, inlined too.
 * Values that are data, not schemas (`default`, `examples`, `enum`, `const`), are left alone.
 * @throws RefError naming the pointer of a `$ref` that names no definition, or of one that refers to
 *   itself (directly, through other definitions or through its own items or properties: a record's shape
 *   is finite)
 */
export function inlineRefs<T extends Root>(schema: T): T {
  const walk = (node: unknown, seen: string[], at: string): unknown => {
    if (!isNode(node)) return node;
    let own = node;
    let path = seen;
    if (node.$ref !== undefined) {
      own = resolve(schema, node, seen, at);
      path = [...seen, String(node.$ref)];
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(own)) {
      const here = `${at}/${escape(k)}`;
      if (ONE.has(k)) out[k] = walk(v, path, here);
      else if (MAPS.has(k) && isNode(v))
        out[k] = Object.fromEntries(
          Object.entries(v).map(([n, sub]) => [
            n,
            walk(sub, k === 'definitions' ? [`#/definitions/${n}`] : path, `${here}/${escape(n)}`),
          ]),
        );
      else if (LISTS.has(k) && Array.isArray(v)) out[k] = v.map((s, i) => walk(s, path, `${here}/${i}`));
      else out[k] = v;
    }
    return out;
  };
  return walk(schema, [], '') as T;
}

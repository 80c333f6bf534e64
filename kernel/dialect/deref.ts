/**
 * The dialect's one `$ref` resolution (issue 18: it was written four times). The dialect's schemas refer
 * only to their own `definitions` (`{"$ref": "#/definitions/<name>"}`, JSON Schema draft-07 section 8.3);
 * a node with such a `$ref` means the definition with the node's own keys over it.
 */

/** A schema node as far as `deref` reads it. */
type Node = { $ref?: unknown; [k: string]: any };
/** The root schema holding the definitions (and its `$id`, for the error). */
type Root = { $id?: unknown; definitions?: Record<string, any> };

/**
 * `node` with the definition its `$ref` names merged in (recursively, for a definition that refers on;
 * the node's own keys win and `$ref` itself is dropped). A node without `$ref` is returned as it is, and
 * undefined stays undefined.
 * @throws Error `Schema "<$id>": cannot resolve $ref "<ref>"` for a reference that is not
 *   `#/definitions/<name>` of `root`
 */
export function deref<T extends Node>(root: Root, node: T): T;
export function deref<T extends Node>(root: Root, node: T | undefined): T | undefined;
export function deref<T extends Node>(root: Root, node: T | undefined): T | undefined {
  if (!node || typeof node !== 'object' || node.$ref === undefined) return node;
  const ref = node.$ref;
  const m = typeof ref === 'string' ? /^#\/definitions\/(.+)$/.exec(ref) : null;
  const target = m ? (root.definitions?.[m[1]] as T | undefined) : undefined;
  if (!target) throw new Error(`Schema "${String(root.$id)}": cannot resolve $ref "${String(ref)}"`);
  const { $ref: _ref, ...own } = node;
  return { ...deref(root, target), ...own } as T;
}

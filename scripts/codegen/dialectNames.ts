/**
 * The dialect's rules over names and calls, across all schema files at once (codegen only; part of
 * dialectRules.ts `dialectRuleErrors`):
 * - names: `$id` is the file name; the record type's name (from `title`), `x-resource.name`, the list
 *   path and `x-storage.table` are each used by one schema;
 * - calls: one owner per method and path ({@link callErrors}).
 * Each failure is a {@link DialectError} (file, JSON pointer, reason).
 */
import { typeNameOf } from '../../kernel/dialect/typeName';
import { pointer, type DialectError } from './metaSchema';

type Json = Record<string, any>;

/** One schema file as the dialect checks it. */
export interface SchemaFile {
  /** Path shown in errors, e.g. `schemas/loan.schema.json`. */
  file: string;
  schema: Json;
}

const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** The names every schema must hold alone, and `$id` = the file's name (see the module doc). */
export function nameErrors(files: SchemaFile[]): DialectError[] {
  const errors: DialectError[] = [];
  const seen = new Map<string, string>();
  const claim = (f: SchemaFile, kind: string, value: unknown, ptr: string) => {
    if (typeof value !== 'string') return;
    const key = `${kind}\u0000${value}`;
    const first = seen.get(key);
    if (first)
      errors.push({
        file: f.file,
        pointer: ptr,
        reason: `${kind} "${value}" is already used by ${first}`,
      });
    else seen.set(key, `${f.file}#${ptr}`);
  };
  for (const f of files) {
    const s = f.schema;
    const x = s['x-resource'];
    // the record's TypeScript type is named after the title (kernel/dialect/typeName.ts)
    claim(f, 'type name (from the title)', typeNameOf(s), s.title === undefined ? '/$id' : '/title');
    claim(f, 'resource name', x?.name, '/x-resource/name');
    if (isObj(x) && typeof x.name === 'string') {
      const group = typeof x.group === 'string' ? `/${x.group}` : '';
      claim(f, 'path', x.path ?? `${group}/${x.name}`, x.path ? '/x-resource/path' : '/x-resource/name');
    }
    claim(f, 'table', s['x-storage']?.table, '/x-storage/table');
    const base = f.file
      .split('/')
      .pop()!
      .replace(/\.schema\.json$/, '');
    if (s.$id !== base)
      errors.push({ file: f.file, pointer: '/$id', reason: `must be "${base}", the file's name` });
  }
  return errors;
}

/**
 * Every (method, path) of every resource has one owner: no two calls (`x-endpoints` verbs, aliases,
 * getManyReference, `x-chain.path`) of different resources share one, nor two verbs of one resource
 * unless they are one call (getList/getMany/search, delete/deleteMany).
 */
export function callErrors(files: SchemaFile[]): DialectError[] {
  const errors: DialectError[] = [];
  const SAME_CALL = [new Set(['getList', 'getMany', 'search']), new Set(['delete', 'deleteMany'])];
  const owners = new Map<string, { file: string; ptr: string; verb: string }>();
  for (const f of files) {
    const list: { verb: string; method: string; path: string; ptr: string }[] = [];
    const add = (verb: string, e: Json, ptr: string) => {
      if (!isObj(e) || typeof e.path !== 'string') return;
      list.push({ verb, method: String(e.method), path: e.path, ptr: `${ptr}/path` });
      for (const [i, a] of (Array.isArray(e.aliases) ? e.aliases : []).entries())
        if (isObj(a) && typeof a.path === 'string')
          list.push({
            verb,
            method: String(a.method),
            path: a.path,
            ptr: pointer('x-endpoints', verb, 'aliases', i, 'path'),
          });
    };
    for (const [verb, e] of Object.entries<Json>(
      isObj(f.schema['x-endpoints']) ? f.schema['x-endpoints'] : {},
    ))
      if (verb === 'getManyReference' && isObj(e))
        for (const [t, r] of Object.entries<Json>(e))
          add(`getManyReference.${t}`, r, pointer('x-endpoints', verb, t));
      else add(verb, e, pointer('x-endpoints', verb));
    const chain = f.schema['x-chain'];
    if (isObj(chain) && typeof chain.path === 'string')
      list.push({ verb: 'x-chain', method: 'POST', path: chain.path, ptr: '/x-chain/path' });
    for (const c of list) {
      const key = `${c.method} ${c.path}`;
      const owner = owners.get(key);
      if (!owner) {
        owners.set(key, { file: f.file, ptr: c.ptr, verb: c.verb });
        continue;
      }
      const sameCall =
        owner.file === f.file &&
        (owner.verb === c.verb || SAME_CALL.some((s) => s.has(owner.verb) && s.has(c.verb)));
      if (!sameCall)
        errors.push({
          file: f.file,
          pointer: c.ptr,
          reason: `the call ${key} is already ${owner.verb} of ${owner.file}#${owner.ptr}`,
        });
    }
  }
  return errors;
}

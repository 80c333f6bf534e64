/**
 * The JSON body parser (replaces Fastify's default for `application/json`). Same rules as Fastify's
 * (secure-json-parse with `protoAction`/`constructorAction` "error"), but each refusal is an `ApiError`
 * 400 naming what is at fault, so it leaves in the envelope with `data.errors`:
 * - an empty body → field "" keyword `json`;
 * - text that is not JSON → field "" keyword `json`, params `{ reason }` (the parser's message);
 * - a key `__proto__`, or a key `constructor` whose value has a `prototype` key (prototype poisoning,
 *   see https://github.com/fastify/secure-json-parse) → the key's dotted path (array items by index, e.g.
 *   `baseInfo.__proto__`, `ids.0.__proto__`), keyword `propertyNames` (JSON Schema's keyword for rules on
 *   key names), params `{ propertyName }`.
 * JSON.parse makes `__proto__` an own data property (it never sets the prototype), so walking the parsed
 * value is safe; the walk uses an explicit stack (no recursion limit on deep nesting).
 */
import { Codes, type FieldError } from '../../../common/envelope';
import { ApiError } from '../../errors';
import { msg } from '../../../common/messages/index';

function refuse(field: string, keyword: string, params: Record<string, unknown>, message: string) {
  const text = field ? `${field}: ${message}` : message;
  const errors: FieldError[] = [{ field, keyword, params, message: text }];
  return new ApiError(Codes.INVALID, 400, msg('request.invalid', { part: 'body' }), { errors });
}

/** The dotted path of the first forbidden key in `value` (see above), or undefined when there is none. */
export function forbiddenKeyPath(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [node, path] = stack.pop()!;
    if (!node || typeof node !== 'object') continue;
    for (const key of Object.keys(node)) {
      const child = (node as Record<string, unknown>)[key];
      const childPath = path ? `${path}.${key}` : key;
      if (key === '__proto__') return childPath;
      if (key === 'constructor' && child && typeof child === 'object' && Object.hasOwn(child, 'prototype'))
        return childPath;
      stack.push([child, childPath]);
    }
  }
  return undefined;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Decodes a body as UTF-8 (RFC 8259 §8.1: JSON text exchanged between systems is UTF-8), refusing
 * malformed byte sequences with a 400 naming the body (keyword `encoding`) instead of replacing them by
 * U+FFFD, which would store text other than what was sent.
 */
export function decodeUtf8(body: Buffer): string {
  try {
    return strictUtf8.decode(body);
  } catch {
    throw refuse('', 'encoding', { charset: 'utf-8' }, 'the body is not valid UTF-8');
  }
}

/**
 * Parses a JSON request body (UTF-8 text); throws the 400 `ApiError`s listed above.
 * @param text the body as received (Fastify `parseAs: 'string'`, already limited to `bodyLimit`)
 */
export function parseJsonBody(text: string): unknown {
  if (text === '') throw refuse('', 'json', {}, "the body is empty but Content-Type is 'application/json'");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const reason = (err as Error).message;
    throw refuse('', 'json', { reason }, `the body is not valid JSON (${reason})`);
  }
  const path = forbiddenKeyPath(value);
  if (path !== undefined) {
    const propertyName = path.split('.').pop()!;
    throw refuse(path, 'propertyNames', { propertyName }, `the key "${propertyName}" is not allowed`);
  }
  return value;
}

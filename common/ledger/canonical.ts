/**
 * Canonical JSON: the exact bytes the ledger hashes (docs/ledger.md section 3). RFC 8785 (JSON
 * Canonicalization Scheme) restricted to the values we store: no whitespace, object keys sorted by
 * UTF-16 code units, `undefined` members omitted, strings and numbers as ECMAScript's JSON.stringify /
 * Number#toString write them. Browser-safe (no node imports).
 */

/**
 * The canonical JSON text of `value`.
 * @throws Error for a non-finite number, a bigint, a function or symbol, or `undefined` at top level or
 * inside an array (JSON has no such values; silently dropping them would hide data).
 */
export function canonicalJson(value: unknown): string {
  return encode(value, '$');
}

function encode(value: unknown, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new Error(`canonical JSON: ${path} is not a finite number`);
      return JSON.stringify(value);
    case 'string':
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) {
        return `[${value
          .map((v, i) => {
            if (v === undefined) throw new Error(`canonical JSON: ${path}[${i}] is undefined`);
            return encode(v, `${path}[${i}]`);
          })
          .join(',')}]`;
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj)
        .filter((k) => obj[k] !== undefined)
        .sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${encode(obj[k], `${path}.${k}`)}`).join(',')}}`;
    }
    default:
      throw new Error(`canonical JSON: ${path} has type ${typeof value}, which JSON cannot carry`);
  }
}

const encoder = new TextEncoder();

/** The UTF-8 bytes of `canonicalJson(value)`. */
export function canonicalBytes(value: unknown): Uint8Array {
  return encoder.encode(canonicalJson(value));
}

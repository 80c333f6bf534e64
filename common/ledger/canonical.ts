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
  const text = fast(value);
  // A value JSON cannot carry: the slower walk below names where it is.
  return text === undefined ? encode(value, '$') : text;
}

/**
 * `encode` without building a path per member (the hot path: record digests, audit digests); answers
 * undefined for anything `encode` refuses, so the error and its path come from `encode`.
 */
function fast(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : undefined;
    case 'string':
      return JSON.stringify(value);
    case 'object': {
      let out: string;
      if (Array.isArray(value)) {
        out = '[';
        for (let i = 0; i < value.length; i++) {
          const v = value[i] as unknown;
          const t = v === undefined ? undefined : fast(v);
          if (t === undefined) return undefined;
          out += i ? `,${t}` : t;
        }
        return `${out}]`;
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).sort();
      out = '{';
      let first = true;
      for (const k of keys) {
        const v = obj[k];
        if (v === undefined) continue;
        const t = fast(v);
        if (t === undefined) return undefined;
        out += `${first ? '' : ','}${JSON.stringify(k)}:${t}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      return undefined;
  }
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

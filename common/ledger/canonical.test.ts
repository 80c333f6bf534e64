import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical';

describe('canonical JSON (RFC 8785 subset)', () => {
  it('sorts keys by UTF-16 code units, drops undefined members, no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [3, { d: null, c: true }], e: undefined })).toBe(
      '{"a":[3,{"c":true,"d":null}],"b":1}',
    );
    // "\u00e9" (233) sorts after "z" (122); "B" (66) before "a" (97).
    expect(canonicalJson({ z: 1, é: 2, a: 3, B: 4 })).toBe('{"B":4,"a":3,"z":1,"é":2}');
  });

  it('writes strings and numbers as ECMAScript JSON does', () => {
    expect(canonicalJson('line\nquote"\\ \u0001 汉字')).toBe('"line\\nquote\\"\\\\ \\u0001 汉字"');
    expect(canonicalJson([1, -0, 1.5, 1e21, 0.000001])).toBe('[1,0,1.5,1e+21,0.000001]');
  });

  it('equals the RFC 8785 text written out naively, for any JSON value', () => {
    // Members sorted by UTF-16 code units, written one by one (integer-like keys included).
    const ref = (v: unknown): string =>
      Array.isArray(v)
        ? `[${v.map(ref).join(',')}]`
        : v && typeof v === 'object'
          ? `{${Object.keys(v)
              .sort()
              .map((k) => `${JSON.stringify(k)}:${ref((v as Record<string, unknown>)[k])}`)
              .join(',')}}`
          : JSON.stringify(v);
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(canonicalJson(v)).toBe(ref(v));
      }),
      { numRuns: 300 },
    );
  });

  it('names the path of a bad value deep inside', () => {
    expect(() => canonicalJson({ a: [{ b: 1 }, { c: [2, Infinity] }] })).toThrow(
      /\$\.a\[1\]\.c\[1\] is not a finite/,
    );
    expect(() => canonicalJson({ a: { b: 1n } })).toThrow(/\$\.a\.b has type bigint/);
  });

  it('refuses values JSON cannot carry', () => {
    expect(() => canonicalJson({ a: NaN })).toThrow(/\$\.a is not a finite number/);
    expect(() => canonicalJson([undefined])).toThrow(/\$\[0\] is undefined/);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(/function/);
  });
});

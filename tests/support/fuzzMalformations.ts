/**
 * The request-level malformations of the API fuzz (tests/api/fuzz.test.ts): a list call's query and body,
 * and the whole body of a POST call (encodings, content types, sizes). Field-level ones are in ./malformed.ts.
 */
import type { ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { malformationsFor, TEXT_POLICY, type Malformation } from './malformed';

type Json = Record<string, any>;

/** A request of the fuzz: method, URL and either a JSON text body or none. */
export interface Request {
  method: 'GET' | 'POST';
  url: string;
  body?: string | Buffer;
  contentType?: string;
}

/** Percent-encodes `s`; a lone surrogate is written as its 3-byte (CESU-8) form, i.e. invalid UTF-8. */
export const encodeQuery = (s: string) =>
  [...s]
    .map((ch) => {
      try {
        return encodeURIComponent(ch);
      } catch {
        const u = ch.charCodeAt(0);
        return [0xe0 | (u >> 12), 0x80 | ((u >> 6) & 63), 0x80 | (u & 63)]
          .map((b) => `%${b.toString(16).toUpperCase()}`)
          .join('');
      }
    })
    .join('');

export const qs = (o: Json) =>
  new URLSearchParams(Object.entries(o).map(([k, v]) => [k, String(v)])).toString();

/** Query-string malformations of a list call: bad page/pageSize/sort/order/ids/q/filters, unknown and prototype keys. */
export function queryMalformations(
  s: ResourceSchema,
): Array<{ cls: string; field: string; raw: string; mustRefuse: boolean }> {
  const out: Array<{ cls: string; field: string; raw: string; mustRefuse: boolean }> = [];
  const add = (cls: string, field: string, raw: string, mustRefuse = true) =>
    out.push({ cls, field, raw, mustRefuse });
  for (const f of ['page', 'pageSize'])
    for (const v of ['Infinity', 'NaN', '1e300', '-0', '2147483648', '0', 'abc', '1.5'])
      add(v === 'abc' ? 'wrong-type' : 'number-out-of-range', f, v);
  add('too-long-string', 'q', 'q'.repeat(201));
  for (const [cls, vs] of Object.entries(TEXT_POLICY)) for (const v of vs) add(cls, 'q', v, false);
  add('bad-enum', 'sort', '__proto__');
  add('bad-enum', 'order', 'sideways');
  add('bad-pattern', 'ids', '1,,2');
  add('bad-pattern', 'ids', '1;DROP TABLE x');
  add('too-long-string', 'ids', Array.from({ length: 1000 }, (_, i) => i + 1).join(','));
  add('unknown-field', 'notAField', '1');
  for (const k of ['__proto__', 'constructor', 'hasOwnProperty']) add('prototype-key', k, '1');
  for (const [f, p] of Object.entries(s.properties))
    if (p['x-ui']?.filter === true) {
      const types = ([] as string[]).concat(p.type ?? []);
      if (types.includes('integer'))
        for (const v of ['Infinity', 'NaN', '1e300', '2147483648', '-2147483649', 'abc'])
          add(v === 'abc' ? 'wrong-type' : 'number-out-of-range', f, v);
      if (types.includes('string') && !p.enum)
        for (const [cls, vs] of Object.entries(TEXT_POLICY)) for (const v of vs) add(cls, f, v, false);
    }
  return out;
}

/** Body malformations of a POST list call (typed values). */
export function listBodyMalformations(s: ResourceSchema): Malformation[] {
  const props: Json = {
    page: { type: 'integer', minimum: 1 },
    pageSize: { type: 'integer', minimum: 1, maximum: 100 },
    q: { type: 'string', maxLength: 200 },
    order: { type: 'string', enum: ['ASC', 'DESC', 'asc', 'desc'] },
    ids: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 2147483647 }, maxItems: 100 },
  };
  for (const [f, p] of Object.entries(s.properties)) if (p['x-ui']?.filter === true) props[f] = p;
  const out: Malformation[] = [];
  for (const [f, p] of Object.entries(props))
    for (const m of malformationsFor(f, p, s))
      out.push({ ...m, mustRefuse: m.mustRefuse && !/^(q|ids\.0)$/.test(f) });
  // Text in a filter or q is a search, not a stored value: refusing it is not required.
  // A filter's string is at most 200 long (schemaRegistry.ts filterSchema); its width is not checked.
  for (const m of out) {
    const v = 'value' in m.bad ? m.bad.value : undefined;
    if (typeof v === 'string' && /^(too-long-string|too-wide-string|unbounded-string)$/.test(m.cls))
      m.mustRefuse = v.length > 200;
    else if (m.field === 'q' || Object.hasOwn(TEXT_POLICY, m.cls)) m.mustRefuse = false;
  }
  out.push({ cls: 'unknown-field', field: 'notAField', bad: { value: 1 }, mustRefuse: true });
  for (const k of ['__proto__', 'constructor'])
    out.push({ cls: 'prototype-key', field: k, bad: { value: { page: 2 } }, mustRefuse: true });
  return out;
}

/** Malformations of the whole body of a POST call (field ""): encodings, content types and sizes. */
export const BODY_CLASSES: Array<{ cls: string; field?: string; make: (json: string) => Partial<Request> }> =
  [
    // text/plain is read as a string (Fastify's text parser): refused as a body that is not an object.
    { cls: 'bad-content-type', make: (json) => ({ body: json, contentType: 'text/plain' }) },
    // A content type no parser reads: 415 naming the header.
    {
      cls: 'bad-content-type',
      field: 'Content-Type',
      make: (json) => ({ body: json, contentType: 'application/x-www-form-urlencoded' }),
    },
    // multipart is read by the upload calls only (their own parser): a JSON call refuses it as a content
    // type no parser reads, 415 naming the header.
    {
      cls: 'bad-content-type',
      field: 'Content-Type',
      make: (json) => ({ body: json, contentType: 'multipart/form-data; boundary=x' }),
    },
    { cls: 'invalid-json', make: (json) => ({ body: json.slice(0, -1) }) },
    { cls: 'invalid-json', make: (json) => ({ body: json.replace(/^\{/, '{"page": NaN, ') }) },
    { cls: 'invalid-json', make: () => ({ body: '' }) },
    {
      // Invalid UTF-8 bytes inside the first string value of the body (or a new "q" when there is none).
      cls: 'wrong-encoding',
      make: (json) => {
        const at = json.indexOf('":"') + 3;
        if (at < 3)
          return {
            body: Buffer.concat([Buffer.from('{"q":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]),
          };
        return {
          body: Buffer.concat([
            Buffer.from(json.slice(0, at)),
            Buffer.from([0xc3, 0x28, 0xff]),
            Buffer.from(json.slice(at)),
          ]),
        };
      },
    },
    {
      cls: 'wrong-encoding',
      make: (json) => ({
        body: Buffer.from(json, 'utf16le'),
        contentType: 'application/json; charset=utf-16',
      }),
    },
    {
      cls: 'oversized-body',
      make: (json) => ({ body: json.replace(/^\{/, `{"pad":"${'p'.repeat(3 * 1024 * 1024)}",`) }),
    },
  ];

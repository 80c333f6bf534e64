/**
 * The rules behind the project's custom validation keywords (see common/keywords.ts for the keywords and
 * their schema syntax), as plain functions without ajv: the precompiled validators
 * (`common/generated/*Validators.ts`, run in the console and on the server) import this module and call
 * these functions, and so does the run-time ajv of common/schemaCompiler.ts (server, codegen, tests).
 *
 * Each rule takes the keyword's schema value and the data (already of the keyword's `type`) and returns
 * `null` when the data passes, or a {@link RuleFailure}: the ajv error's `params` and `message` (and, for
 * x-distinct and x-ordered, the property the error is reported at).
 */
import { displayWidth } from './displayWidth';

/** Why data failed a rule: ajv error `params` and `message`; `property` moves the error to a child. */
export interface RuleFailure {
  params: Record<string, unknown>;
  message: string;
  /** The error's instancePath gets `/<property>` appended (JSON-pointer escaped) when set. */
  property?: string;
}

/**
 * The alphabet of the Unified Social Credit Code (统一社会信用代码), GB 32100-2015 §4 and table 1: the
 * digits and the capital letters except I, O, S, V, Z; a character's value is its index (0..30).
 */
export const USCC_ALPHABET = '0123456789ABCDEFGHJKLMNPQRTUWXY';

/** Weights of positions 1..17: W_i = 3^(i-1) mod 31 (GB 32100-2015 §5): 1, 3, 9, 27, 19, 26, 16, 17, ... */
const USCC_WEIGHTS = Array.from({ length: 17 }, (_, i) => {
  let w = 1;
  for (let k = 0; k < i; k++) w = (w * 3) % 31;
  return w;
});

/**
 * The check character (position 18) of a Unified Social Credit Code, after GB 32100-2015《法人和其他组织
 * 统一社会信用代码编码规则》§5 (check code per GB/T 17710-1999, ISO 7064 style, modulus 31):
 * C18 = 31 − (Σ_{i=1..17} C_i × W_i mod 31), where C_i is the value of character i in
 * {@link USCC_ALPHABET}, W_i = 3^(i−1) mod 31, and a result of 31 becomes 0; the value is written as the
 * alphabet's character (30 → 'Y').
 * Positions 9-17 (the organisation code of GB 11714) are not checked separately.
 * @param code at least the first 17 characters of a code, over {@link USCC_ALPHABET}
 * @returns the check character, or `null` when a character of the first 17 is outside the alphabet
 */
export function usccCheckCharacter(code: string): string | null {
  if (code.length < 17) return null;
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const value = USCC_ALPHABET.indexOf(code[i]);
    if (value < 0) return null;
    sum += value * USCC_WEIGHTS[i];
  }
  return USCC_ALPHABET[(31 - (sum % 31)) % 31];
}

/** `x-maxWidth`: display width (displayWidth.ts) at most `limit`. params: { limit, width }. */
export function maxWidth(limit: number, data: string): RuleFailure | null {
  const width = displayWidth(data);
  if (width <= limit) return null;
  return {
    params: { limit, width },
    message: `must be at most ${limit} wide (a Chinese character counts 2), got ${width}`,
  };
}

/**
 * C0 controls (U+0000–U+001F), DEL and the C1 controls (U+0080–U+009F, e.g. U+0085 NEXT LINE), plus the
 * Unicode line and paragraph separators (U+2028, U+2029): what no single-line text may hold.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;
/** The same, except tab, line feed and carriage return (multi-line text). */
// eslint-disable-next-line no-control-regex
const CONTROL_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one (no `u` flag). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/**
 * Bidirectional formatting characters (Unicode UAX #9 §2): embeddings and overrides U+202A–U+202E,
 * isolates U+2066–U+2069, the marks U+200E/U+200F and the Arabic letter mark U+061C.
 */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u;
/**
 * A character that shows nothing: white space, format characters (general category Cf: zero-width
 * space/joiners U+200B–U+200D, word joiner U+2060, BOM U+FEFF, soft hyphen U+00AD ...), default-ignorable
 * fillers (U+115F, U+1160, U+3164, U+FFA0) and the Braille blank U+2800.
 */
const INVISIBLE =
  /^(?:\u034f|[\u180b-\u180f]|[\ufe00-\ufe0f]|[\p{White_Space}\p{Cf}\u115f\u1160\u3164\uffa0\u2800])*$/u;

/**
 * `x-text`: the text policy every string of every request passes (docs/api.md "Text"): no lone UTF-16
 * surrogate; no C0/C1 control character (see {@link CONTROL}), except tab, line feed and carriage return
 * when `mode` is `multiline`. The schema registry adds it to every string schema (`multiline` for
 * `x-ui.widget: "textarea"` fields), see common/schemaRegistry.ts `withDataPolicy`.
 * params: { reason: 'control' | 'surrogate' }.
 */
export function text(mode: 'line' | 'multiline', data: string): RuleFailure | null {
  if (LONE_SURROGATE.test(data))
    return { params: { reason: 'surrogate' }, message: 'must not contain a lone UTF-16 surrogate' };
  if ((mode === 'multiline' ? CONTROL_MULTILINE : CONTROL).test(data))
    return {
      params: { reason: 'control' },
      message:
        mode === 'multiline'
          ? 'must not contain control characters (tab and line breaks are allowed)'
          : 'must not contain control characters or line breaks',
    };
  return null;
}

/**
 * `x-plainText` (names and titles): on top of {@link text} `line` (no control character, line break or
 * tab), no bidirectional formatting character ({@link BIDI}), no `<` or `>`, not blank and not made only
 * of invisible characters ({@link INVISIBLE}). The repository stores such a value trimmed and in Unicode
 * normalization form NFC (server/kernel/repository.ts).
 * params: { reason: 'control' | 'bidi' | 'markup' | 'blank' | 'invisible' }.
 */
export function plainText(enabled: boolean, data: string): RuleFailure | null {
  if (!enabled) return null;
  if (CONTROL.test(data) || /\t/u.test(data))
    return { params: { reason: 'control' }, message: 'must not contain control characters' };
  if (BIDI.test(data))
    return {
      params: { reason: 'bidi' },
      message: 'must not contain bidirectional control characters (U+202A–U+202E, U+2066–U+2069, ...)',
    };
  if (/[<>]/u.test(data))
    return { params: { reason: 'markup' }, message: 'must not contain markup (< or >)' };
  if (data.length > 0 && data.trim().length === 0)
    return { params: { reason: 'blank' }, message: 'must not be blank' };
  if (data.length > 0 && INVISIBLE.test(data))
    return { params: { reason: 'invisible' }, message: 'must contain a visible character' };
  return null;
}

/**
 * `x-finite` (numbers): a finite number. The query-string build coerces `"Infinity"` and `"1e400"` to
 * `Infinity`, which ajv's `type`, `minimum` and `maximum` let through; the registry adds this keyword to
 * every number and integer schema. It applies to data of any type (ajv skips its own number keywords
 * for a non-finite number) and judges numbers only. params: {}.
 */
export function finite(enabled: boolean, data: unknown): RuleFailure | null {
  if (!enabled || typeof data !== 'number' || Number.isFinite(data)) return null;
  return { params: {}, message: 'must be a finite number' };
}

/**
 * `x-url` (strings): empty, an absolute `http:` or `https:` URL with a host (WHATWG URL parsing), or a
 * path of the server's uploads, `/uploads/<name>` without `..` segments or a backslash. Refuses
 * `javascript:`, `data:`, protocol-relative `//host` and every other scheme. params: { reason: 'scheme' }.
 */
export function url(enabled: boolean, data: string): RuleFailure | null {
  if (!enabled || data === '') return null;
  if (/^\/uploads\/[^\s\\]*$/u.test(data) && !/(^|\/)\.\.?(\/|$|[?#])/u.test(data.slice(9))) return null;
  let parsed: URL | undefined;
  try {
    parsed = new URL(data);
  } catch {
    parsed = undefined;
  }
  if (
    parsed &&
    (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
    parsed.host &&
    !/\s/u.test(data)
  )
    return null;
  return {
    params: { reason: 'scheme' },
    message: 'must be an http or https URL, or a /uploads/ path',
  };
}

/** `x-notFuture`: a year at most the current UTC year (read at each call). params: { limit }. */
export function notFuture(enabled: boolean, data: number): RuleFailure | null {
  if (!enabled) return null;
  const limit = new Date().getUTCFullYear();
  if (data <= limit) return null;
  return { params: { limit }, message: `must not be after ${limit}` };
}

/** An ISO 8601 calendar date, optionally with a time (RFC 3339 `full-date` / `date-time` shapes). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/;

/**
 * `x-ordered`: for each [a, b] pair, a <= b when both values are numbers (years, amounts), or both ISO 8601
 * dates of the same shape (`2026-12-01`, or with the same time part), which order as text. Reported at
 * property b (the field the person sets last, named by create and update alike). params: { first, second }.
 */
export function ordered(pairs: [string, string][], data: Record<string, unknown>): RuleFailure | null {
  for (const [first, second] of pairs) {
    const a = data[first];
    const b = data[second];
    const numbers = typeof a === 'number' && typeof b === 'number';
    const dates =
      typeof a === 'string' &&
      typeof b === 'string' &&
      a.length === b.length &&
      ISO_DATE.test(a) &&
      ISO_DATE.test(b);
    if ((numbers || dates) && (a as number | string) > (b as number | string))
      return { params: { first, second }, message: `${first} must not be after ${second}`, property: second };
  }
  return null;
}

/**
 * `x-uscc`: an 18-character code over {@link USCC_ALPHABET} has the right check character (other shapes
 * are the schema `pattern`'s to report). params: { expected, actual }.
 */
export function uscc(enabled: boolean, data: string): RuleFailure | null {
  if (!enabled || data.length !== 18) return null;
  const expected = usccCheckCharacter(data);
  if (expected === null || !USCC_ALPHABET.includes(data[17])) return null;
  if (data[17] === expected) return null;
  return {
    params: { expected, actual: data[17] },
    message: `check character must be ${expected} (GB 32100-2015), got ${data[17]}`,
  };
}

/**
 * `x-distinct`: for each [a, b] pair whose values are both strings, they differ, compared trimmed and
 * ignoring letter case. Reported at property b. params: { first, second }.
 */
export function distinct(pairs: [string, string][], data: Record<string, unknown>): RuleFailure | null {
  for (const [first, second] of pairs) {
    const a = data[first];
    const b = data[second];
    if (typeof a !== 'string' || typeof b !== 'string') continue;
    if (a.trim().toLowerCase() !== b.trim().toLowerCase()) continue;
    return { params: { first, second }, message: `must differ from ${first}`, property: second };
  }
  return null;
}

/** Days in `month` (1..12) of `year` (Gregorian: a leap year is divisible by 4, not by 100 unless by 400). */
function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const FULL_TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[zZ]|[+-](\d{2}):(\d{2}))$/;

/** RFC 3339 §5.6 `full-date`: `YYYY-MM-DD`, a day that exists (2024-02-29 yes, 2023-02-29 no). */
export function isDate(data: string): boolean {
  const m = FULL_DATE.exec(data);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
}

/**
 * RFC 3339 §5.6 `date-time`: a {@link isDate} full-date, `T` (or `t`, or a space, §5.6 NOTE), and a
 * `full-time` with seconds, optional fraction and a time offset (`Z` or `±hh:mm`); hour ≤ 23, minute ≤ 59,
 * second ≤ 60 (a leap second), offset hour ≤ 23 and minute ≤ 59.
 */
export function isDateTime(data: string): boolean {
  const sep = data.length > 10 ? data[10] : '';
  if (sep !== 'T' && sep !== 't' && sep !== ' ') return false;
  if (!isDate(data.slice(0, 10))) return false;
  const m = FULL_TIME.exec(data.slice(11));
  if (!m) return false;
  const [h, min, sec] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const offsetOk = m[4] === undefined || (Number(m[4]) <= 23 && Number(m[5]) <= 59);
  return h <= 23 && min <= 59 && sec <= 60 && offsetOk;
}

/**
 * An e-mail address, `local@domain` (RFC 5321 §4.1.2 shape, without quoted local parts or address
 * literals): the same expression as ajv-formats' `email` (its "fast" mode), which the product's company
 * e-mails were checked with before the formats were precompiled here.
 */
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

/** An e-mail address (see {@link EMAIL}). */
export function isEmail(data: string): boolean {
  return EMAIL.test(data);
}

/** RFC 3986 §3.1 scheme followed by `:`. */
const URI_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * An absolute URI (RFC 3986 §4.3: `scheme:hier-part`): a scheme, no white space or control character,
 * percent signs followed by two hex digits, and a value the WHATWG URL parser accepts (so a host with a
 * bad port or bracket is refused too).
 */
export function isUri(data: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (!URI_SCHEME.test(data) || /[\s\u0000-\u001f\u007f]/u.test(data)) return false;
  if (/%(?![0-9a-f]{2})/i.test(data)) return false;
  try {
    new URL(data);
    return true;
  } catch {
    return false;
  }
}

/**
 * The JSON Schema `format`s the dialect supports, as functions of a string (true when it conforms): the
 * validators call these (precompiled code refers to them as `keywordRules.formats[...]`,
 * common/schemaCompiler.ts), so no format library (ajv-formats) runs in the console or the server.
 */
export const formats: Record<string, (data: string) => boolean> = {
  date: isDate,
  'date-time': isDateTime,
  email: isEmail,
  uri: isUri,
};

/**
 * Display formatters used across the console (dashboard, lists, profile).
 *
 * The rules follow vue-element-admin's `filters/index.js` and `utils/index.js` (`timeAgo`,
 * `formatTime`, `numberFormatter`, `parseTime`), the helpers operators of this product already know;
 * date arithmetic and formatting use dayjs. Every function is pure: the current time is a parameter
 * (`now`, default `Date.now()`), so results are reproducible in tests.
 *
 * Accepted time inputs (`TimeInput`): a `Date`; a number of milliseconds, or of seconds when it has
 * exactly 10 digits (Unix time, as the product's older endpoints send it); a string, either the
 * platform's `YYYY-MM-DD HH:mm:ss` text, which is UTC (docs/architecture.md), or any ISO 8601 text.
 * Invalid input throws a `RangeError` that quotes it.
 */
import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);

/** A point in time; see the module docstring for the accepted forms. */
export type TimeInput = Date | number | string;

/** Languages the formatters speak; the console's two locales. */
export type FormatLocale = 'en' | 'zh';

/** The platform's own date-time text, always UTC: `2024-03-01 08:05:09`. */
const PLATFORM_TEXT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * Turns a `TimeInput` into a dayjs instance.
 * @throws RangeError when the input is not a valid time.
 */
export function toDayjs(input: TimeInput): Dayjs {
  let d: Dayjs;
  if (input instanceof Date) d = dayjs(input);
  else if (typeof input === 'number') {
    d = Number.isInteger(input) && String(Math.abs(input)).length === 10 ? dayjs.unix(input) : dayjs(input);
  } else if (typeof input === 'string' && PLATFORM_TEXT.test(input.trim())) {
    d = dayjs.utc(input.trim(), 'YYYY-MM-DD HH:mm:ss').local();
  } else if (typeof input === 'string' && /^\d{10}$/.test(input.trim())) {
    d = dayjs.unix(Number(input.trim()));
  } else if (typeof input === 'string' && /^\d{13}$/.test(input.trim())) {
    d = dayjs(Number(input.trim()));
  } else d = dayjs(input);
  if (!d.isValid()) throw new RangeError(`Not a valid time: ${JSON.stringify(input)}`);
  return d;
}

const UNIT_WORDS: Record<FormatLocale, Record<'minute' | 'hour' | 'day', [string, string]>> = {
  en: { minute: [' minute', ' minutes'], hour: [' hour', ' hours'], day: [' day', ' days'] },
  zh: { minute: [' 分钟', ' 分钟'], hour: [' 小时', ' 小时'], day: [' 天', ' 天'] },
};

function pluralize(n: number, unit: 'minute' | 'hour' | 'day', locale: FormatLocale): string {
  const [one, many] = UNIT_WORDS[locale][unit];
  return `${n}${n === 1 ? one : many}`;
}

/**
 * How long ago `time` was, in whole units (floored): minutes under an hour, hours under a day,
 * else days. `timeAgo(now - 90 s)` → `"1 minute"`, `timeAgo(now - 3 h)` → `"3 hours"`.
 * A time in the future counts as 0 minutes. Rule: vue-element-admin `filters.timeAgo`.
 */
export function timeAgo(time: TimeInput, now: number = Date.now(), locale: FormatLocale = 'en'): string {
  const between = Math.max(0, (now - toDayjs(time).valueOf()) / 1000);
  if (between < 3600) return pluralize(Math.floor(between / 60), 'minute', locale);
  if (between < 86400) return pluralize(Math.floor(between / 3600), 'hour', locale);
  return pluralize(Math.floor(between / 86400), 'day', locale);
}

const RELATIVE_WORDS: Record<
  FormatLocale,
  { justNow: string; minutes: (n: number) => string; hours: (n: number) => string; oneDay: string }
> = {
  en: {
    justNow: 'just now',
    minutes: (n) => `${n} minute${n === 1 ? '' : 's'} ago`,
    hours: (n) => `${n} hour${n === 1 ? '' : 's'} ago`,
    oneDay: '1 day ago',
  },
  zh: {
    justNow: '刚刚',
    minutes: (n) => `${n}分钟前`,
    hours: (n) => `${n}小时前`,
    oneDay: '1天前',
  },
};

/**
 * A relative time for recent moments, else a date: "just now" under 30 s, minutes under an hour and
 * hours under 24 h (both rounded up, as the product does), "1 day ago" under 48 h, otherwise the date
 * formatted with `pattern` (default `YYYY-MM-DD HH:mm:ss`, local time). Future times count as "just now".
 * Rule: vue-element-admin `utils.formatTime`.
 */
export function relativeTime(
  time: TimeInput,
  now: number = Date.now(),
  locale: FormatLocale = 'en',
  pattern: string = DATE_TIME_PATTERN,
): string {
  const d = toDayjs(time);
  const diff = (now - d.valueOf()) / 1000;
  const words = RELATIVE_WORDS[locale];
  if (diff < 30) return words.justNow;
  if (diff < 3600) return words.minutes(Math.ceil(diff / 60));
  if (diff < 86400) return words.hours(Math.ceil(diff / 3600));
  if (diff < 86400 * 2) return words.oneDay;
  return d.format(pattern);
}

const SI_SUFFIXES: ReadonlyArray<{ value: number; symbol: string }> = [
  { value: 1e18, symbol: 'E' },
  { value: 1e15, symbol: 'P' },
  { value: 1e12, symbol: 'T' },
  { value: 1e9, symbol: 'G' },
  { value: 1e6, symbol: 'M' },
  { value: 1e3, symbol: 'k' },
];

/**
 * A number with an SI suffix (k, M, G, T, P, E) and at most `digits` decimals, trailing zeros removed:
 * `numberSuffix(1234)` → `"1.2k"` (digits 1), `numberSuffix(2_500_000, 2)` → `"2.5M"`, below 1000 the
 * number itself. Negative numbers keep their sign. Rule: vue-element-admin `filters.numberFormatter`.
 * @throws RangeError for NaN or an infinite number.
 */
export function numberSuffix(num: number, digits = 1): string {
  if (!Number.isFinite(num)) throw new RangeError(`Not a finite number: ${num}`);
  const sign = num < 0 ? '-' : '';
  const abs = Math.abs(num);
  for (const { value, symbol } of SI_SUFFIXES) {
    if (abs >= value) {
      return sign + (abs / value).toFixed(digits).replace(/\.0+$|(\.[0-9]*[1-9])0+$/, '$1') + symbol;
    }
  }
  return String(num);
}

/**
 * Money with thousands separators and exactly 2 decimals: `formatMoney(1234.5)` → `"$1,234.50"`,
 * `formatMoney(-3, '¥')` → `"-¥3.00"`. The symbol is a prefix, `$` by default. Half-way cents round
 * away from zero on the decimal value (`1.005` → `1.01`), not on its binary approximation.
 * @throws RangeError for NaN or an infinite number.
 */
export function formatMoney(value: number, symbol = '$'): string {
  if (!Number.isFinite(value)) throw new RangeError(`Not a finite amount: ${value}`);
  const cents = Math.round(Number(`${Math.abs(value)}e2`));
  const whole = Math.floor(cents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const frac = String(cents % 100).padStart(2, '0');
  return `${value < 0 && cents !== 0 ? '-' : ''}${symbol}${whole}.${frac}`;
}

/** The product's date-time pattern (dayjs tokens). */
export const DATE_TIME_PATTERN = 'YYYY-MM-DD HH:mm:ss';

/**
 * A date as `YYYY-MM-DD HH:mm:ss` (or `pattern`, dayjs tokens), in local time unless `utc` is set.
 * Empty input (null, undefined, "") gives "" so list cells stay blank.
 * @throws RangeError for any other invalid input.
 */
export function formatDateTime(
  time: TimeInput | null | undefined,
  pattern: string = DATE_TIME_PATTERN,
  options: { utc?: boolean } = {},
): string {
  if (time === null || time === undefined || time === '') return '';
  const d = toDayjs(time);
  return (options.utc ? d.utc() : d).format(pattern);
}

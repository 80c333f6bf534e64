import { describe, expect, it } from 'vitest';
import { formatDateTime, formatMoney, numberSuffix, relativeTime, timeAgo, toDayjs } from './format';

const NOW = Date.UTC(2024, 2, 10, 12, 0, 0); // 2024-03-10 12:00:00 UTC
const ago = (seconds: number) => NOW - seconds * 1000;

describe('timeAgo', () => {
  it('counts minutes under an hour, floored, singular for one', () => {
    expect(timeAgo(ago(0), NOW)).toBe('0 minutes');
    expect(timeAgo(ago(90), NOW)).toBe('1 minute');
    expect(timeAgo(ago(3599), NOW)).toBe('59 minutes');
  });
  it('counts hours under a day', () => {
    expect(timeAgo(ago(3600), NOW)).toBe('1 hour');
    expect(timeAgo(ago(86399), NOW)).toBe('23 hours');
  });
  it('counts days from one day on', () => {
    expect(timeAgo(ago(86400), NOW)).toBe('1 day');
    expect(timeAgo(ago(86400 * 45 + 10), NOW)).toBe('45 days');
  });
  it('accepts Unix seconds (10 digits) and speaks Chinese', () => {
    expect(timeAgo(Math.floor(ago(7200) / 1000), NOW, 'zh')).toBe('2 小时');
  });
  it('treats the future as zero minutes', () => {
    expect(timeAgo(NOW + 60_000, NOW)).toBe('0 minutes');
  });
});

describe('relativeTime', () => {
  it('says just now under 30 seconds', () => {
    expect(relativeTime(ago(29), NOW)).toBe('just now');
    expect(relativeTime(ago(29), NOW, 'zh')).toBe('刚刚');
  });
  it('rounds minutes up under an hour', () => {
    expect(relativeTime(ago(30), NOW)).toBe('1 minute ago');
    expect(relativeTime(ago(61), NOW)).toBe('2 minutes ago');
    expect(relativeTime(ago(3599), NOW, 'zh')).toBe('60分钟前');
  });
  it('rounds hours up under 24 hours', () => {
    expect(relativeTime(ago(3600), NOW)).toBe('1 hour ago');
    expect(relativeTime(ago(3601), NOW)).toBe('2 hours ago');
  });
  it('says 1 day under 48 hours', () => {
    expect(relativeTime(ago(86400), NOW)).toBe('1 day ago');
    expect(relativeTime(ago(86400 * 2 - 1), NOW, 'zh')).toBe('1天前');
  });
  it('falls back to the date from 48 hours on', () => {
    expect(relativeTime('2024-03-01 08:05:09', NOW, 'en', 'YYYY-MM-DD')).toMatch(/^2024-03-0[12]$/);
    const twoDays = ago(86400 * 2);
    expect(relativeTime(twoDays, NOW)).toBe(formatDateTime(twoDays));
  });
});

describe('numberSuffix', () => {
  it('leaves numbers under 1000 alone', () => {
    expect(numberSuffix(0)).toBe('0');
    expect(numberSuffix(999)).toBe('999');
  });
  it('uses k, M, G, T, P, E and strips trailing zeros', () => {
    expect(numberSuffix(1000)).toBe('1k');
    expect(numberSuffix(1234)).toBe('1.2k');
    expect(numberSuffix(2_500_000, 2)).toBe('2.5M');
    expect(numberSuffix(7e9)).toBe('7G');
    expect(numberSuffix(1.25e12, 2)).toBe('1.25T');
    expect(numberSuffix(3e15)).toBe('3P');
    expect(numberSuffix(4.5e18)).toBe('4.5E');
  });
  it('keeps the sign and rejects non-finite numbers', () => {
    expect(numberSuffix(-69_202)).toBe('-69.2k');
    expect(() => numberSuffix(Number.NaN)).toThrow(RangeError);
  });
});

describe('formatMoney', () => {
  it('has two decimals, thousands separators and a $ by default', () => {
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(1234.5)).toBe('$1,234.50');
    expect(formatMoney(1234567.891)).toBe('$1,234,567.89');
  });
  it('rounds half cents on the decimal value and takes another symbol', () => {
    expect(formatMoney(1.005)).toBe('$1.01');
    expect(formatMoney(-3, '¥')).toBe('-¥3.00');
    expect(formatMoney(-0.001)).toBe('$0.00');
  });
  it('rejects non-finite amounts', () => {
    expect(() => formatMoney(Number.POSITIVE_INFINITY)).toThrow(/finite/);
  });
});

describe('formatDateTime', () => {
  it('formats as YYYY-MM-DD HH:mm:ss, treating platform text as UTC', () => {
    expect(formatDateTime('2024-03-01 08:05:09', undefined, { utc: true })).toBe('2024-03-01 08:05:09');
    expect(formatDateTime(new Date(Date.UTC(2023, 11, 31, 23, 59, 58)), undefined, { utc: true })).toBe(
      '2023-12-31 23:59:58',
    );
  });
  it('reads Unix seconds and milliseconds alike', () => {
    expect(formatDateTime(1709280309, undefined, { utc: true })).toBe('2024-03-01 08:05:09');
    expect(formatDateTime(1709280309000, undefined, { utc: true })).toBe('2024-03-01 08:05:09');
    expect(formatDateTime('1709280309', 'YYYY-MM-DD', { utc: true })).toBe('2024-03-01');
  });
  it('gives local time by default', () => {
    const d = new Date(2024, 0, 2, 3, 4, 5);
    expect(formatDateTime(d)).toBe('2024-01-02 03:04:05');
  });
  it('leaves empty cells blank and rejects garbage', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('')).toBe('');
    expect(() => formatDateTime('yesterday')).toThrow(/Not a valid time: "yesterday"/);
    expect(() => toDayjs(Number.NaN)).toThrow(RangeError);
  });
});

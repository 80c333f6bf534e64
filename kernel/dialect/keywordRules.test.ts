import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDate, isDateTime, isEmail, isUri, ordered } from './keywordRules';

describe('x-ordered rule', () => {
  const pairs: [string, string][] = [['start', 'end']];
  it.each([
    [1990, 1980, false],
    [1980, 1990, true],
    ['2026-12-03', '2026-12-02', false],
    ['2026-12-02', '2026-12-02', true],
    ['2026-12-01T10:00:00', '2026-12-01T09:59:59', false],
    // different shapes, or not dates: not this rule's to judge
    ['2026-12-03', '2026-12-02T00:00:00', true],
    ['b', 'a', true],
    [3, '2', true],
  ])('%s before %s: %s', (start, end, passes) => {
    const failure = ordered(pairs, { start, end });
    expect(failure === null).toBe(passes);
    if (!passes) expect(failure).toMatchObject({ params: { first: 'start', second: 'end' } });
  });
});

describe('formats (precompiled, no format library)', () => {
  it('date: every day of the Gregorian calendar, and nothing else', () => {
    // fast-check's dates, written as RFC 3339 full-date, are all days that exist
    fc.assert(
      fc.property(
        fc.date({
          min: new Date(Date.UTC(1, 0, 1)),
          max: new Date(Date.UTC(9999, 11, 31)),
          noInvalidDate: true,
        }),
        (d) => isDate(d.toISOString().slice(0, 10).padStart(10, '0')),
      ),
    );
    for (const bad of [
      '2023-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-1-01',
      '20260101',
      ' 2026-01-01',
    ])
      expect(isDate(bad), bad).toBe(false);
    expect(isDate('2024-02-29')).toBe(true);
    expect(isDate('2000-02-29')).toBe(true);
    expect(isDate('1900-02-29')).toBe(false);
  });

  it('date-time: RFC 3339 with a time offset', () => {
    fc.assert(
      fc.property(
        fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(Date.UTC(9999, 0, 1)) }),
        (d) => isDateTime(d.toISOString()),
      ),
    );
    for (const good of [
      '2026-01-01T00:00:00Z',
      '2026-01-01t10:00:00.123+08:00',
      '2016-12-31T23:59:60Z',
      '2026-01-01 10:00:00-05:30',
    ])
      expect(isDateTime(good), good).toBe(true);
    for (const bad of [
      '2026-01-01T10:00:00',
      '2026-01-01T24:00:00Z',
      '2026-01-01T10:60:00Z',
      '2026-02-30T10:00:00Z',
      '2026-01-01T10:00Z',
      '2026-01-01T10:00:00+24:00',
      '2026-01-01',
    ])
      expect(isDateTime(bad), bad).toBe(false);
  });

  it('email and uri', () => {
    fc.assert(fc.property(fc.emailAddress(), (e) => isEmail(e) || /[^a-z0-9!#$%&'*+/=?^_`{|}~.@-]/i.test(e)));
    for (const bad of ['plain', 'a@', '@b.cn', 'a b@c.cn', 'a@b']) expect(isEmail(bad), bad).toBe(false);
    fc.assert(fc.property(fc.webUrl(), (u) => isUri(u)));
    for (const good of ['urn:isbn:0451450523', 'mailto:a@b.cn', 'https://例子.中国/路径'])
      expect(isUri(good), good).toBe(true);
    for (const bad of ['no scheme', '/relative/path', 'https://bad host/', 'http://a/%zz', '1http://a'])
      expect(isUri(bad), bad).toBe(false);
  });
});

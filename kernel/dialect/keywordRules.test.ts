import { describe, expect, it } from 'vitest';
import { ordered } from './keywordRules';

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

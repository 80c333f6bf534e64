import { describe, expect, it } from 'vitest';
import { categoryLabel } from './categories';

describe('categoryLabel', () => {
  it('translates the Tate categories and keeps any other name as stored', () => {
    expect(categoryLabel('painting', 'zh')).toBe('绘画');
    expect(categoryLabel('on paper, print', 'en')).toBe('On paper, print');
    expect(categoryLabel('水墨', 'en')).toBe('水墨');
    expect(categoryLabel(null, 'zh')).toBe('');
  });
});

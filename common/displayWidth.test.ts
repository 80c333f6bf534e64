import { describe, expect, it } from 'vitest';
import { displayWidth } from './displayWidth';
import { formatErrors } from '../kernel/dialect/schemaRegistry';
import { validatorFor } from '../kernel/dialect/validators';

describe('displayWidth (x-maxWidth rule: CJK counts 2, anything else 1)', () => {
  it.each([
    ['', 0],
    ['Turner', 6],
    ['齐白石', 6],
    ['齐白石 Shrimps', 14], // 3 wide + space + 7 Latin
    ['ひらがなカタカナ', 16], // kana are wide
    ['한국어', 6], // hangul syllables are wide
    ['ＡＢＣ', 6], // fullwidth forms
    ['，。', 4], // CJK punctuation
    ['👍', 2], // emoji presentation
    ['👍🏽', 2], // skin-tone modifier joins the emoji
    ['👨‍👩‍👧', 6], // ZWJ sequence: three wide emoji, joiners 0
    ['é', 1], // e + combining acute
    ['Café 咖啡 ☕', 12], // 4 + 1 + 4 + 1 + 2 (hot beverage is wide)
    ['𠀀', 2], // CJK Extension B, outside the BMP
  ])('%j is %i wide', (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });
});

describe('x-maxWidth 60 on artWorkName, through the shared schema', () => {
  const v = validatorFor('artwork.create');
  const body = (artWorkName: string) => ({ artWorkName, author: 1, classify: 'painting', texture: 'ink' });

  it('accepts 30 Chinese characters or 60 Latin ones', () => {
    expect(v(body('山'.repeat(30)))).toBe(true);
    expect(v(body('a'.repeat(60)))).toBe(true);
    expect(v(body('山'.repeat(29) + 'ab'))).toBe(true);
  });

  it('refuses 31 Chinese characters (62 wide), which plain maxLength 60 would let through', () => {
    expect(v(body('山'.repeat(31)))).toBe(false);
    expect(formatErrors(v.errors)).toEqual([
      {
        field: 'artWorkName',
        keyword: 'x-maxWidth',
        params: { limit: 60, width: 62 },
        message: 'artWorkName: must be at most 60 wide (a Chinese character counts 2), got 62',
      },
    ]);
  });

  it('refuses 59 Latin characters plus one emoji (61 wide)', () => {
    expect(v(body('a'.repeat(59) + '🎨'))).toBe(false);
    expect(formatErrors(v.errors)[0].params).toEqual({ limit: 60, width: 61 });
  });
});

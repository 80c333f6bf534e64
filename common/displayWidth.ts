/**
 * Display width of a string, as used by the `x-maxWidth` schema keyword.
 *
 * Rule (after Unicode UAX #11, East Asian Width): a code point of East Asian Wide (W) or Fullwidth (F)
 * counts 2 — CJK ideographs, kana, hangul, fullwidth forms, CJK punctuation, and emoji presentation
 * characters; combining marks, zero-width joiner/space and variation selectors count 0; every other
 * code point counts 1. So "作品" is 4, "Art" is 3, "👍" is 2 and "é" (e + U+0301) is 1.
 *
 * @param s any string (lone surrogates count 1)
 * @returns the width, a non-negative integer
 */
export function displayWidth(s: string): number {
  let width = 0;
  for (const ch of s) width += codePointWidth(ch.codePointAt(0)!);
  return width;
}

/** Width (0, 1 or 2) of one code point; see {@link displayWidth} for the rule. */
export function codePointWidth(cp: number): 0 | 1 | 2 {
  if (isZeroWidth(cp)) return 0;
  return isWide(cp) ? 2 : 1;
}

function isZeroWidth(cp: number): boolean {
  return (
    (cp >= 0x0300 && cp <= 0x036f) || // combining diacritical marks
    (cp >= 0x1ab0 && cp <= 0x1aff) ||
    (cp >= 0x1dc0 && cp <= 0x1dff) ||
    (cp >= 0x20d0 && cp <= 0x20ff) ||
    (cp >= 0xfe20 && cp <= 0xfe2f) ||
    cp === 0x200b || // zero width space
    cp === 0x200c ||
    cp === 0x200d || // zero width joiner
    (cp >= 0xfe00 && cp <= 0xfe0f) || // variation selectors
    (cp >= 0xe0100 && cp <= 0xe01ef) ||
    (cp >= 0x1f3fb && cp <= 0x1f3ff) // emoji skin-tone modifiers join the preceding emoji
  );
}

function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) || // Hangul Jamo initials
    (cp >= 0x2e80 && cp <= 0x303e) || // CJK radicals, Kangxi, CJK symbols and punctuation
    (cp >= 0x3041 && cp <= 0x33ff) || // Hiragana, Katakana, Bopomofo, CJK compatibility
    (cp >= 0x3400 && cp <= 0x4dbf) || // CJK Extension A
    (cp >= 0x4e00 && cp <= 0x9fff) || // CJK Unified Ideographs
    (cp >= 0xa000 && cp <= 0xa4cf) || // Yi
    (cp >= 0xa960 && cp <= 0xa97f) || // Hangul Jamo Extended-A
    (cp >= 0xac00 && cp <= 0xd7a3) || // Hangul syllables
    (cp >= 0xf900 && cp <= 0xfaff) || // CJK compatibility ideographs
    (cp >= 0xfe10 && cp <= 0xfe19) || // vertical forms
    (cp >= 0xfe30 && cp <= 0xfe6f) || // CJK compatibility forms, small form variants
    (cp >= 0xff00 && cp <= 0xff60) || // fullwidth forms
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) || // misc symbols and pictographs, emoticons
    (cp >= 0x1f680 && cp <= 0x1f6ff) || // transport and map symbols
    (cp >= 0x1f900 && cp <= 0x1f9ff) || // supplemental symbols and pictographs
    (cp >= 0x1fa70 && cp <= 0x1faff) || // symbols and pictographs extended-A
    (cp >= 0x2600 && cp <= 0x26ff && EMOJI_PRESENTATION_MISC.has(cp)) ||
    (cp >= 0x20000 && cp <= 0x2fffd) || // CJK Extension B and beyond
    (cp >= 0x30000 && cp <= 0x3fffd)
  );
}

/** Code points in Miscellaneous Symbols with Emoji_Presentation=Yes (wide in UAX #11). */
const EMOJI_PRESENTATION_MISC = new Set([
  0x2614, 0x2615, 0x2648, 0x2649, 0x264a, 0x264b, 0x264c, 0x264d, 0x264e, 0x264f, 0x2650, 0x2651, 0x2652,
  0x2653, 0x267f, 0x2693, 0x26a1, 0x26aa, 0x26ab, 0x26bd, 0x26be, 0x26c4, 0x26c5, 0x26ce, 0x26d4, 0x26ea,
  0x26f2, 0x26f3, 0x26f5, 0x26fa, 0x26fd,
]);

/** tileNeed: which tile paths a log signed at a given size serves, and which need an older checkpoint. */
import { describe, expect, it } from 'vitest';
import { tileNeed } from './tileAvailability';

const tile = (L: number, N: number, W = 256) => ({ H: 8, L, N, W });

describe('tileNeed', () => {
  it('full tiles once the signed tree covers them', () => {
    expect(tileNeed(tile(0, 0), 256)).toBe('yes');
    expect(tileNeed(tile(0, 0), 255)).toBe('no');
    expect(tileNeed(tile(-1, 1), 600)).toBe('yes');
    expect(tileNeed(tile(1, 0), 65_535)).toBe('no');
    expect(tileNeed(tile(1, 0), 65_536)).toBe('yes');
  });

  it("the signed size's own partial tiles", () => {
    expect(tileNeed(tile(0, 1, 51), 307)).toBe('yes');
    expect(tileNeed(tile(1, 0, 1), 307)).toBe('yes');
    expect(tileNeed(tile(-1, 1, 51), 307)).toBe('yes');
  });

  it('a partial tile narrower than the signed one: the sizes a checkpoint must have had', () => {
    expect(tileNeed(tile(0, 1, 21), 307)).toEqual({ from: 277, to: 278 });
    expect(tileNeed(tile(0, 0, 5), 307)).toEqual({ from: 5, to: 6 });
    expect(tileNeed(tile(-1, 0, 5), 307)).toEqual({ from: 5, to: 6 });
    // Level 1, width 2 at tile 0: any size in [512, 768).
    expect(tileNeed(tile(1, 0, 2), 70_000)).toEqual({ from: 512, to: 768 });
    // Tree of 70,000 (the spec's example): level 2 width 1 is the signed one.
    expect(tileNeed(tile(2, 0, 1), 70_000)).toBe('yes');
  });

  it('beyond the signed size', () => {
    expect(tileNeed(tile(0, 1, 52), 307)).toBe('no');
    expect(tileNeed(tile(0, 2, 1), 307)).toBe('no');
    expect(tileNeed(tile(1, 0, 2), 307)).toBe('no');
    expect(tileNeed(tile(2, 0, 1), 307)).toBe('no');
    expect(tileNeed(tile(63, 0, 1), Number.MAX_SAFE_INTEGER)).toBe('no');
  });
});

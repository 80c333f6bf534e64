/** deadlines.ts: callbacks fire once, not before their duration, never after a cancel; in order. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadlines } from './deadlines';

describe('Deadlines', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires each deadline once after its duration, in order, and not before', () => {
    const d = new Deadlines();
    const fired: string[] = [];
    d.add(100, () => fired.push('a'));
    vi.advanceTimersByTime(30);
    d.add(100, () => fired.push('b'));
    d.add(50, () => fired.push('short'));
    vi.advanceTimersByTime(69);
    expect(fired).toEqual(['short']);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['short', 'a']);
    vi.advanceTimersByTime(29);
    expect(fired).toEqual(['short', 'a']);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['short', 'a', 'b']);
    vi.advanceTimersByTime(1000);
    expect(fired).toEqual(['short', 'a', 'b']);
  });

  it('never fires a cancelled deadline, whether it was first in its lane or not', () => {
    const d = new Deadlines();
    const fired: number[] = [];
    const first = d.add(100, () => fired.push(1));
    d.add(100, () => fired.push(2));
    const third = d.add(100, () => fired.push(3));
    d.cancel(first);
    d.cancel(third);
    d.cancel(third);
    vi.advanceTimersByTime(100);
    expect(fired).toEqual([2]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves no timer once every deadline is cancelled, and works again afterwards', () => {
    const d = new Deadlines();
    const fired: string[] = [];
    const a = d.add(10, () => fired.push('a'));
    d.cancel(a);
    expect(vi.getTimerCount()).toBe(0);
    d.add(10, () => fired.push('b'));
    vi.advanceTimersByTime(10);
    expect(fired).toEqual(['b']);
  });

  it('runs a deadline added by a firing callback at its own time', () => {
    const d = new Deadlines();
    const fired: string[] = [];
    d.add(10, () => {
      fired.push('a');
      d.add(10, () => fired.push('b'));
    });
    vi.advanceTimersByTime(10);
    expect(fired).toEqual(['a']);
    vi.advanceTimersByTime(10);
    expect(fired).toEqual(['a', 'b']);
  });
});

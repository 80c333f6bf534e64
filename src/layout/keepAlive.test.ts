import { describe, expect, it } from 'vitest';
import { dropsKept, evicted, MAX_KEPT } from './keepAlive';
import type { TagsState } from '../shell/tagsView';

const view = (path: string, affix = false) => ({ name: path, path, fullPath: path, title: path, affix });
const tags: TagsState = {
  visited: [
    view('/dashboard', true),
    view('/authors/1'),
    view('/artworks/7/show'),
    view('/industry/authors'),
  ],
  cached: ['/authors/1', '/artworks/7/show', '/industry/authors'],
};
const go = (pathname: string, state?: unknown) => ({ pathname, state });

describe('what drops a kept page', () => {
  it('keeps it for a navigation to another page', () => {
    expect(dropsKept(tags, '/authors/1', go('/industry/authors'))).toBe(false);
    expect(dropsKept(tags, '/artworks/7/show', go('/dashboard'))).toBe(false);
  });

  it('drops it when its tab closes, with the others or all of them', () => {
    const close = (tagsAction: unknown) => go('/industry/authors', { tagsAction });
    expect(dropsKept(tags, '/authors/1', close({ type: 'close', path: '/authors/1' }))).toBe(true);
    expect(dropsKept(tags, '/authors/1', close({ type: 'close', path: '/artworks/7/show' }))).toBe(false);
    expect(dropsKept(tags, '/authors/1', close({ type: 'closeOthers', path: '/industry/authors' }))).toBe(
      true,
    );
    expect(dropsKept(tags, '/authors/1', close({ type: 'closeOthers', path: '/authors/1' }))).toBe(false);
    expect(dropsKept(tags, '/authors/1', close({ type: 'closeAll' }))).toBe(true);
  });

  it('drops it when it is refreshed, on any of its tabs; not when another page is', () => {
    expect(dropsKept(tags, '/authors/1', go('/redirect/authors/1'))).toBe(true);
    expect(dropsKept(tags, '/artworks/7/show', go('/redirect/artworks/7/show/history'))).toBe(true);
    expect(dropsKept(tags, '/authors/1', go('/redirect/artworks/7/show'))).toBe(false);
  });

  it('drops a page that is not cached (any more)', () => {
    expect(dropsKept({ ...tags, cached: [] }, '/authors/1', go('/industry/authors'))).toBe(true);
  });
});

describe('which kept pages go past the bound', () => {
  const pages = (n: number) => Array.from({ length: n }, (_, i) => `/authors/${i}`);
  const none = () => false;

  it('drops none up to the bound, then the ones shown longest ago', () => {
    expect(evicted(pages(MAX_KEPT), none)).toEqual([]);
    expect(evicted(pages(MAX_KEPT + 2), none)).toEqual(['/authors/0', '/authors/1']);
  });

  it('never drops a page with unsaved edits: the next oldest goes instead, or none', () => {
    const dirty = new Set(['/authors/0']);
    expect(evicted(pages(MAX_KEPT + 1), (p) => dirty.has(p))).toEqual(['/authors/1']);
    expect(evicted(pages(3), () => true, 1)).toEqual([]);
    expect(evicted(pages(3), (p) => p !== '/authors/2', 1)).toEqual(['/authors/2']);
  });
});

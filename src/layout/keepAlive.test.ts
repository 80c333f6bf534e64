import { describe, expect, it } from 'vitest';
import { dropsKept } from './keepAlive';
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

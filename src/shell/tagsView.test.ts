import { describe, expect, it } from 'vitest';
import { afterClose, initTags, tagsReducer, type TagsState, type VisitedView } from './tagsView';

const dashboard: VisitedView = {
  name: 'dashboard',
  path: '/dashboard',
  fullPath: '/dashboard',
  title: 'dashboard',
  affix: true,
};
const view = (name: string, extra: Partial<VisitedView> = {}): VisitedView => ({
  name,
  path: `/x/${name}`,
  fullPath: `/x/${name}`,
  title: name,
  ...extra,
});
const paths = (s: TagsState) => s.visited.map((v) => v.path);

function open(...views: VisitedView[]): TagsState {
  return views.reduce((s, v) => tagsReducer(s, { type: 'add', view: v }), initTags([dashboard]));
}

describe('tags view reducer', () => {
  it('starts with the pinned views', () => {
    expect(initTags([dashboard])).toEqual({ visited: [dashboard], cached: ['/dashboard'] });
  });

  it('adds each visited view once and caches it by its path unless noCache', () => {
    const s = open(view('a'), view('b', { noCache: true }), view('a'));
    expect(paths(s)).toEqual(['/dashboard', '/x/a', '/x/b']);
    expect(s.cached).toEqual(['/dashboard', '/x/a']);
    // Two pages of one route (two records' edit pages) are two kept views.
    const two = open(view('e', { path: '/authors/1' }), view('e', { path: '/authors/2' }));
    expect(two.cached).toEqual(['/dashboard', '/authors/1', '/authors/2']);
  });

  it('updates the fullPath of a revisited view (its query)', () => {
    const s = open(view('a'), view('a', { fullPath: '/x/a?page=3' }));
    expect(s.visited[1].fullPath).toBe('/x/a?page=3');
    const same = tagsReducer(s, { type: 'add', view: view('a', { fullPath: '/x/a?page=3' }) });
    expect(same).toBe(s);
  });

  it('closes one view and forgets its cache; the pinned dashboard stays', () => {
    const s = open(view('a'), view('b'));
    const closed = tagsReducer(s, { type: 'close', path: '/x/a' });
    expect(paths(closed)).toEqual(['/dashboard', '/x/b']);
    expect(closed.cached).toEqual(['/dashboard', '/x/b']);
    expect(tagsReducer(s, { type: 'close', path: '/dashboard' })).toBe(s);
    expect(tagsReducer(s, { type: 'close', path: '/nope' })).toBe(s);
  });

  it('closes others, keeping pinned views and the chosen one', () => {
    const s = tagsReducer(open(view('a'), view('b'), view('c')), { type: 'closeOthers', path: '/x/b' });
    expect(paths(s)).toEqual(['/dashboard', '/x/b']);
    expect(s.cached).toEqual(['/x/b']);
  });

  it('closes all but the pinned views', () => {
    const s = tagsReducer(open(view('a'), view('b')), { type: 'closeAll' });
    expect(paths(s)).toEqual(['/dashboard']);
    expect(s.cached).toEqual([]);
  });

  it('drops caches on demand', () => {
    const s = open(view('a'), view('b'));
    expect(tagsReducer(s, { type: 'uncache', path: '/x/a' }).cached).toEqual(['/dashboard', '/x/b']);
    expect(tagsReducer(s, { type: 'uncacheAll' }).cached).toEqual([]);
  });
});

describe('after closing a tab', () => {
  it('goes to the last remaining tab when the active one closed, else stays', () => {
    const s = tagsReducer(open(view('a'), view('b', { fullPath: '/x/b?q=1' })), {
      type: 'close',
      path: '/x/a',
    });
    expect(afterClose(s, '/x/a', '/x/a')).toBe('/x/b?q=1');
    expect(afterClose(s, '/x/a', '/x/b')).toBeNull();
  });

  it('goes to / when no tab remains', () => {
    expect(afterClose({ visited: [], cached: [] }, '/x/a', '/x/a')).toBe('/');
  });
});

describe('record names', () => {
  const show = { name: 'artworks.show', path: '/artworks/7/show', fullPath: '/artworks/7/show', title: 't' };

  it('names the record of a visited view, and ignores unknown paths and repeats', () => {
    const s1 = tagsReducer(initTags([]), { type: 'add', view: show });
    const s2 = tagsReducer(s1, {
      type: 'record',
      path: '/artworks/7/show',
      record: { resource: 'artworks', name: 'Sunset', view: 'show' as const },
    });
    expect(s2.visited[0].record).toEqual({ resource: 'artworks', name: 'Sunset', view: 'show' });
    const again = {
      type: 'record' as const,
      path: '/artworks/7/show',
      record: { resource: 'artworks', name: 'Sunset', view: 'show' as const },
    };
    expect(tagsReducer(s2, again)).toBe(s2);
    expect(tagsReducer(s2, { ...again, path: '/nowhere' })).toBe(s2);
  });
});

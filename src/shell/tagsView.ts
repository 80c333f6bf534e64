/**
 * The tab strip of visited pages ("tags view"), as a pure reducer.
 *
 * Rules (vue-element-admin `store/modules/tagsView.js` and `layout/components/TagsView`): each
 * visited named route becomes one tab, keyed by its path; visiting it again with another query
 * updates the tab's `fullPath` (so the tab returns to the same filters); pinned (`affix`) tabs are
 * never closed; "close others" keeps the pinned tabs and the chosen one; "close all" keeps the pinned
 * ones. `cached` lists the tab paths of the views kept alive (not `noCache`): the shell keeps each such
 * page as it was left — a half-filled form, the open tab, the scroll position (src/layout/keepAlive.tsx)
 * — until its tab is closed or refreshed. Keyed by path, not by route name: two records' edit pages are
 * two kept views.
 */

import { fillPath, type RouteMatch } from './router';

/**
 * The tab-strip path of a matched page: the page a tab route is a tab of (`meta.tabOf`, e.g.
 * `/artworks/7/show` for `/artworks/7/show/dealInfo`), else the page's own path. One record page keeps
 * one entry in the strip, whichever of its tabs is shown.
 */
export function tagPathOf(match: RouteMatch, pathname: string): string {
  const tabOf = match.route.meta?.tabOf;
  return tabOf ? fillPath(tabOf, match.params) : pathname;
}

/** One tab. `path` is the path name, `fullPath` adds the query string. `title` is an i18n key. */
export interface VisitedView {
  name: string;
  path: string;
  fullPath: string;
  title: string;
  affix?: boolean;
  noCache?: boolean;
  /**
   * The record a detail page shows: its tab reads `<resource's singular label>: <name>` (show) or
   * `Edit <label>: <name>` (edit).
   */
  record?: TagRecord;
}

/** State of the tab strip. */
export interface TagsState {
  visited: VisitedView[];
  /** Tab paths (`VisitedView.path`) of kept-alive views. */
  cached: string[];
}

/** Actions of the reducer. */
export type TagsAction =
  | { type: 'add'; view: VisitedView }
  | { type: 'close'; path: string }
  | { type: 'closeOthers'; path: string }
  | { type: 'closeAll' }
  /** Forget the kept state of the view at tab path `path` (a refresh). */
  | { type: 'uncache'; path: string }
  /** Forget every cached view (after a size switch). */
  | { type: 'uncacheAll' }
  /** Name the record shown by the view at `path` (once the page has loaded it). */
  | { type: 'record'; path: string; record: TagRecord };

/**
 * The history state of a navigation that closes tabs once it has happened (`tagsAction`), read by the tab
 * strip (src/layout/closeAfterLeaving.ts): a tab's × on the page shown, "Close all", a saved add page.
 */
export interface TagsNavigationState {
  tagsAction?: TagsAction;
}

/** The record shown by a detail page's view. */
export interface TagRecord {
  resource: string;
  name: string;
  view: 'show' | 'edit';
}

/** Initial state: the pinned views, in order. */
export function initTags(affix: VisitedView[]): TagsState {
  return tagsReducer({ visited: [], cached: [] }, { type: 'add', view: affix[0] }, ...affix.slice(1));
}

function addView(state: TagsState, view: VisitedView): TagsState {
  const i = state.visited.findIndex((v) => v.path === view.path);
  const visited =
    i === -1
      ? [...state.visited, view]
      : state.visited[i].fullPath === view.fullPath
        ? state.visited
        : state.visited.map((v, j) => (j === i ? { ...v, fullPath: view.fullPath } : v));
  const cached =
    view.noCache || state.cached.includes(view.path) ? state.cached : [...state.cached, view.path];
  return visited === state.visited && cached === state.cached ? state : { visited, cached };
}

/**
 * The reducer. Extra `views` after the action (used by `initTags`) are added in order.
 * Closing an unknown or pinned path leaves the state unchanged (same object).
 */
export function tagsReducer(state: TagsState, action: TagsAction, ...views: VisitedView[]): TagsState {
  let next = state;
  switch (action.type) {
    case 'add':
      if (action.view) next = addView(state, action.view);
      break;
    case 'close': {
      const view = state.visited.find((v) => v.path === action.path);
      if (!view || view.affix) break;
      next = {
        visited: state.visited.filter((v) => v !== view),
        cached: state.cached.filter((p) => p !== view.path),
      };
      break;
    }
    case 'closeOthers': {
      const visited = state.visited.filter((v) => v.affix || v.path === action.path);
      next = { visited, cached: state.cached.filter((p) => p === action.path) };
      break;
    }
    case 'closeAll':
      next = { visited: state.visited.filter((v) => v.affix), cached: [] };
      break;
    case 'uncache':
      next = { ...state, cached: state.cached.filter((p) => p !== action.path) };
      break;
    case 'uncacheAll':
      next = { ...state, cached: [] };
      break;
    case 'record': {
      const { path, record } = action;
      const view = state.visited.find((v) => v.path === path);
      const same = (a?: TagRecord) =>
        a?.resource === record.resource && a.name === record.name && a.view === record.view;
      if (!view || same(view.record)) break;
      next = { ...state, visited: state.visited.map((v) => (v === view ? { ...v, record } : v)) };
      break;
    }
  }
  return views.reduce((s, v) => addView(s, v), next);
}

/**
 * Where to go after closing the tab at `closedPath` while `currentPath` is shown: nowhere (`null`)
 * when another tab was closed; else the last remaining tab, or `/` when none remain.
 */
export function afterClose(state: TagsState, closedPath: string, currentPath: string): string | null {
  if (closedPath !== currentPath) return null;
  const last = state.visited[state.visited.length - 1];
  return last ? last.fullPath : '/';
}

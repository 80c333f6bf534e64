/**
 * Keep-alive of the tab strip's views (vue-element-admin `AppMain`, `<keep-alive :include="cachedViews">`;
 * issue 21): the page of a cached tab (`TagsState.cached`, tab paths; the shell passes the pages it keeps:
 * a record's show and edit pages, the add pages) stays mounted, hidden, while another page is shown, so coming back to its tab finds it as it was left: a half-filled form (its values and its
 * dirty state), the open tab of a show page or form, an open dialog. Built on React's `<Activity>`: a
 * hidden page keeps its state and its DOM; its effects (data subscriptions, the unsaved-edits blocker) stop
 * until it is shown again. Each kept page reads the location it was left at (react-router's location
 * context), so react-admin's routes keep rendering it while the address is another page's.
 *
 * A kept page is dropped when its tab leaves `cached`: the tab closed (×, close others, close all), or
 * refreshed (the strip's Refresh and the size switch go through `/redirect/<path>`: `dropsKept`). With
 * the tab strip switched off nothing is kept (the product's cache is the strip's).
 *
 * The unsaved-edits prompt (react-admin `warnWhenUnsavedChanges`, react-router `useBlocker`) asks only when
 * leaving loses the edits: going to another page keeps them (the page is kept), closing or refreshing the
 * page's tab asks (src/shell/keptPage.ts, `<Admin routerProvider>`).
 */
import {
  Activity,
  useContext,
  useLayoutEffect,
  useRef,
  useState,
  type ContextType,
  type ReactNode,
} from 'react';
import { UNSAFE_LocationContext } from 'react-router';
import type { RouterLocation } from 'ra-core';
import { KeptPageContext } from '../shell/keptPage';
import { matchRoute } from '../shell/router';
import { allRoutes } from '../shell/routes';
import { tagPathOf, tagsReducer, type TagsNavigationState, type TagsState } from '../shell/tagsView';

/** react-router's location context value (`{ location, navigationType }`). */
type LocationValue = ContextType<typeof UNSAFE_LocationContext>;

/** The tab path of the page `/redirect/<path>` refreshes (the strip's Refresh, the size switch), if any. */
function refreshedTab(pathname: string): string | undefined {
  if (!pathname.startsWith('/redirect/')) return undefined;
  const target = pathname.slice('/redirect'.length);
  const match = matchRoute(allRoutes, target);
  return match ? tagPathOf(match, target) : target;
}

/**
 * Whether the navigation to `next` drops the kept page of tab path `path` from `tags`: the page is no
 * longer cached, or the navigation carries a tab action (`TagsNavigationState.tagsAction`: close, close
 * others, close all) after which it is not, or it refreshes that page (`/redirect/<a path of its tab>`).
 */
export function dropsKept(
  tags: TagsState,
  path: string,
  next: Pick<RouterLocation, 'pathname' | 'state'>,
): boolean {
  if (!tags.cached.includes(path) || refreshedTab(next.pathname) === path) return true;
  const action = (next.state as TagsNavigationState | null | undefined)?.tagsAction;
  return !!action && !tagsReducer(tags, action).cached.includes(path);
}

/**
 * The routed pages (`children`, react-admin's routes) with the kept ones. `active`: the tab path of the
 * page shown when it may be kept (its route is not `noCache`), else undefined and `fallback` is shown (a
 * page that is not kept, the 401 page, the redirect spinner) with the kept pages hidden. `tags`: the
 * strip's state (which pages are kept). `enabled` false (the tab strip is off): nothing is kept.
 */
export function KeepAlive({
  active,
  tags,
  enabled,
  fallback,
  children,
}: {
  active: string | undefined;
  tags: TagsState;
  enabled: boolean;
  fallback: ReactNode;
  children: ReactNode;
}) {
  const live = useContext(UNSAFE_LocationContext);
  // A page being refreshed is dropped, whether or not its tab is still cached: it mounts afresh.
  const refreshed = refreshedTab(live.location.pathname);
  const shown = enabled ? active : undefined;
  const keep = (path: string) => enabled && path !== refreshed && tags.cached.includes(path);
  // The location each kept page was last shown at, by tab path.
  const [left, setLeft] = useState<ReadonlyMap<string, LocationValue>>(new Map());
  useLayoutEffect(() => {
    setLeft((m) => {
      const next = new Map([...m].filter(([path]) => path === shown || keep(path)));
      if (shown) next.set(shown, live);
      const same = next.size === m.size && [...next].every(([k, v]) => m.get(k) === v);
      return same ? m : next;
    });
  });
  // The blockers read the strip's state at the time of the navigation.
  const tagsRef = useRef(tags);
  useLayoutEffect(() => {
    tagsRef.current = tags;
  }, [tags]);
  const keepsFor = useRef(new Map<string, (next: RouterLocation) => boolean>());
  const keeps = (path: string) => {
    let f = keepsFor.current.get(path);
    if (!f) {
      f = (next: RouterLocation) => !dropsKept(tagsRef.current, path, next);
      keepsFor.current.set(path, f);
    }
    return f;
  };
  // The page shown comes first in the document, before the hidden ones (a query for the first element of a
  // kind, e.g. a form's input by name, finds the shown page's).
  const kept = [...left.keys()].filter((p) => p !== shown && keep(p));
  const pages = shown ? [shown, ...kept] : kept;
  return (
    <>
      {pages.map((path) => (
        <Activity key={path} mode={path === shown ? 'visible' : 'hidden'}>
          <UNSAFE_LocationContext.Provider value={path === shown ? live : left.get(path)!}>
            <KeptPageContext.Provider value={keeps(path)}>{children}</KeptPageContext.Provider>
          </UNSAFE_LocationContext.Provider>
        </Activity>
      ))}
      {!shown && fallback}
    </>
  );
}

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
 * the tab strip switched off nothing is kept (the product's cache is the strip's). At most `MAX_KEPT`
 * pages are kept hidden: past that the page shown longest ago is dropped (its tab stays, and opens the
 * page afresh), unless it holds unsaved edits — those are only dropped by closing or refreshing their tab,
 * which asks first.
 *
 * A hidden page is `display: none` (React's `<Activity mode="hidden">`): out of the accessibility tree
 * and of the tab order, so it takes no focus and is not announced; its effects are destroyed, so its
 * timers, polling and data subscriptions stop until it is shown. Each page sits in a `data-shell-view`
 * box (`display: contents`, no layout of its own) marked `data-kept-hidden` while hidden: the shown page
 * (or the page that is not kept) comes first, and tests scope their queries to the shown view with it
 * (tests/browser/helpers/shownView.ts).
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
import { KeptPageContext, type KeptPage } from '../shell/keptPage';
import { matchRoute } from '../shell/router';
import { allRoutes } from '../shell/routes';
import { tagPathOf, tagsReducer, type TagsNavigationState, type TagsState } from '../shell/tagsView';

/** The most pages kept hidden at once (besides the page shown). */
export const MAX_KEPT = 8;

/**
 * The kept pages to drop to bound them (issue 21 keep-alive): `hidden`, the hidden pages' tab paths from
 * the one shown longest ago to the latest; `unsaved(path)`: the page holds unsaved edits (never dropped
 * here). Drops the oldest others until at most `max` remain (fewer cannot be reached when too many hold edits).
 */
export function evicted(
  hidden: readonly string[],
  unsaved: (path: string) => boolean,
  max = MAX_KEPT,
): string[] {
  let over = hidden.length - max;
  const out: string[] = [];
  for (const path of hidden) {
    if (over <= 0) break;
    if (unsaved(path)) continue;
    out.push(path);
    over--;
  }
  return out;
}

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
  // Which blockers of each kept page reported unsaved edits when it was hidden (src/shell/keptPage.ts).
  const unsaved = useRef(new Map<string, Set<string>>());
  // The location each kept page was last shown at, by tab path, from the one shown longest ago to the latest.
  const [left, setLeft] = useState<ReadonlyMap<string, LocationValue>>(new Map());
  useLayoutEffect(() => {
    setLeft((m) => {
      const next = new Map([...m].filter(([path]) => path !== shown && keep(path)));
      const drop = evicted([...next.keys()], (path) => !!unsaved.current.get(path)?.size);
      for (const path of drop) next.delete(path);
      if (shown) next.set(shown, live);
      for (const path of unsaved.current.keys()) if (!next.has(path)) unsaved.current.delete(path);
      const a = [...m];
      const same = next.size === m.size && [...next].every(([k, v], i) => a[i][0] === k && a[i][1] === v);
      return same ? m : next;
    });
  });
  // The blockers read the strip's state at the time of the navigation.
  const tagsRef = useRef(tags);
  useLayoutEffect(() => {
    tagsRef.current = tags;
  }, [tags]);
  const keptFor = useRef(new Map<string, KeptPage>());
  const kept = (path: string) => {
    let k = keptFor.current.get(path);
    if (!k) {
      k = {
        keeps: (next: RouterLocation) => !dropsKept(tagsRef.current, path, next),
        dirty: (id, yes) => {
          const ids = unsaved.current.get(path) ?? new Set<string>();
          if (yes) ids.add(id);
          else ids.delete(id);
          unsaved.current.set(path, ids);
        },
      };
      keptFor.current.set(path, k);
    }
    return k;
  };
  // The page shown comes first in the document, before the hidden ones (a query for the first element of a
  // kind, e.g. a form's input by name, finds the shown page's).
  const hidden = [...left.keys()].filter((p) => p !== shown && keep(p));
  const pages = shown ? [shown, ...hidden] : hidden;
  return (
    <>
      {!shown && (
        <div data-shell-view="" style={{ display: 'contents' }}>
          {fallback}
        </div>
      )}
      {pages.map((path) => (
        // The box is outside the `<Activity>`: a hidden subtree's own updates are deferred, its mark must not be.
        <div
          key={path}
          data-shell-view={path}
          data-kept-hidden={path === shown ? undefined : ''}
          style={{ display: 'contents' }}
        >
          <Activity mode={path === shown ? 'visible' : 'hidden'}>
            <UNSAFE_LocationContext.Provider value={path === shown ? live : left.get(path)!}>
              <KeptPageContext.Provider value={kept(path)}>{children}</KeptPageContext.Provider>
            </UNSAFE_LocationContext.Provider>
          </Activity>
        </div>
      ))}
    </>
  );
}

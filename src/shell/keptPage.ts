/**
 * The unsaved-edits prompt of a kept page (issue 21 keep-alive, src/layout/keepAlive.tsx): react-admin's
 * `warnWhenUnsavedChanges` blocks every navigation that leaves a dirty form (react-router `useBlocker`),
 * but leaving a kept page loses nothing — it is shown again as it was left when its tab is clicked. So
 * inside a kept page the blocker blocks only a navigation that drops the page (its tab closed or
 * refreshed); elsewhere it is react-router's own. Kept apart from keepAlive.tsx (which reads the route
 * tree) so that `<Admin>` can take the provider without loading the routes.
 */
import { createContext, useContext, useId, useLayoutEffect, useRef } from 'react';
import { reactRouterProvider, type RouterLocation, type RouterProvider } from 'ra-core';

/**
 * What a kept page tells its blockers and what they tell it back. `keeps(next)`: whether a navigation to
 * `next` keeps the page. `dirty(id, unsaved)`: blocker `id` of the page has unsaved edits (true) or not,
 * reported when the page is hidden (its effects are destroyed then; a hidden page cannot be edited, so
 * that answer holds until it is shown again): the shell does not evict such a page to bound the kept ones.
 */
export interface KeptPage {
  keeps: (next: RouterLocation) => boolean;
  dirty: (id: string, unsaved: boolean) => void;
}

/** The kept page around a component (null outside kept pages). */
export const KeptPageContext = createContext<KeptPage | null>(null);

/** A location no form is on (the probe of `useKeptPageBlocker`: would leaving for it lose edits?). */
const ELSEWHERE: RouterLocation = { pathname: '/', search: '', hash: '', state: null, key: 'kept-probe' };

/** react-admin's react-router provider (`<Admin routerProvider>`) with the kept pages' `useBlocker`. */
export const keepAliveRouterProvider: RouterProvider = {
  ...reactRouterProvider,
  useBlocker: function useKeptPageBlocker(shouldBlock) {
    const kept = useContext(KeptPageContext);
    const id = useId();
    const location = reactRouterProvider.useLocation();
    const latest = useRef({ shouldBlock, location });
    useLayoutEffect(() => {
      latest.current = { shouldBlock, location };
    });
    // On hiding (and unmounting) the page: does it hold unsaved edits? Asked as react-admin's blocker would
    // be for a navigation away from the form.
    useLayoutEffect(() => {
      if (!kept) return;
      return () => {
        const { shouldBlock: block, location: current } = latest.current;
        const unsaved =
          typeof block === 'boolean'
            ? block
            : block({ currentLocation: current, nextLocation: ELSEWHERE, historyAction: 'PUSH' });
        kept.dirty(id, unsaved);
      };
    }, [kept, id]);
    return reactRouterProvider.useBlocker(
      kept
        ? (args) =>
            (typeof shouldBlock === 'boolean' ? shouldBlock : shouldBlock(args)) &&
            !kept.keeps(args.nextLocation)
        : shouldBlock,
    );
  },
};

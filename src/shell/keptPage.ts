/**
 * The unsaved-edits prompt of a kept page (issue 21 keep-alive, src/layout/keepAlive.tsx): react-admin's
 * `warnWhenUnsavedChanges` blocks every navigation that leaves a dirty form (react-router `useBlocker`),
 * but leaving a kept page loses nothing — it is shown again as it was left when its tab is clicked. So
 * inside a kept page the blocker blocks only a navigation that drops the page (its tab closed or
 * refreshed); elsewhere it is react-router's own. Kept apart from keepAlive.tsx (which reads the route
 * tree) so that `<Admin>` can take the provider without loading the routes.
 */
import { createContext, useContext } from 'react';
import { reactRouterProvider, type RouterLocation, type RouterProvider } from 'ra-core';

/** Inside a kept page: whether a navigation to `next` keeps the page (null outside kept pages). */
export const KeptPageContext = createContext<((next: RouterLocation) => boolean) | null>(null);

/** react-admin's react-router provider (`<Admin routerProvider>`) with the kept pages' `useBlocker`. */
export const keepAliveRouterProvider: RouterProvider = {
  ...reactRouterProvider,
  useBlocker: function useKeptPageBlocker(shouldBlock) {
    const keeps = useContext(KeptPageContext);
    return reactRouterProvider.useBlocker(
      keeps
        ? (args) =>
            (typeof shouldBlock === 'boolean' ? shouldBlock : shouldBlock(args)) && !keeps(args.nextLocation)
        : shouldBlock,
    );
  },
};

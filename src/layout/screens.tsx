/**
 * The routes the shell adds to react-admin (`<CustomRoutes>`), generated from the route tree: one
 * `<Route>` per leaf that is not a react-admin resource path, rendering its screen:
 * - resource lists at the product's paths (`/industry/authors` → the authors list);
 * - the shell's pages (dashboard, profile, 401, 404, switch roles, `/redirect/*`);
 * - the ledger section's screens (passed in by App.tsx);
 * - the "not available yet" page for every section whose screen does not exist.
 * Resource show/create/edit paths stay react-admin's own (`<Resource>` renders them).
 * The dashboard, profile and switch-roles pages and the ledger screens are lazy (own chunks).
 */
import type { ComponentType, ReactElement } from 'react';
import { Route } from 'react-router';
import { ResourceContextProvider } from 'react-admin';
import { flattenRoutes, matchRoute } from '../shell/router';
import { allRoutes, type LedgerScreen, type ShellPage } from '../shell/routes';
import { lazyComponent, type LazyComponent } from '../shell/lazy';
import { NotAvailable, Page401, Page404 } from './pages/ErrorPages';
import { AuthRedirect, RedirectPage } from './pages/Redirect';

/** A resource's views, as in the resource config objects App.tsx spreads into `<Resource>`. */
export interface ResourceViews {
  list?: ComponentType;
  show?: ComponentType;
  create?: ComponentType;
  edit?: ComponentType;
}

/** What App.tsx hands the shell: resource configs by name and the ledger screens by name. */
export interface ShellScreens {
  resources?: Record<string, ResourceViews>;
  ledger?: Partial<Record<LedgerScreen, ComponentType>>;
}

/**
 * The ledger section's screens (`src/resources/blockchain/index.tsx`, named exports), picked up when
 * that file exists; App.tsx may also pass them explicitly.
 */
const ledgerModules = import.meta.glob<Partial<Record<LedgerScreen, ComponentType>>>(
  '../resources/blockchain/index.tsx',
  { eager: true },
);
const LEDGER: Partial<Record<LedgerScreen, ComponentType>> = Object.values(ledgerModules)[0] ?? {};

// Pages split off the entry chunk (src/shell/lazy.tsx): their code loads when the page is first shown.
const Dashboard = lazyComponent(() => import('./dashboard/Dashboard').then((m) => m.Dashboard));
const Profile = lazyComponent(() => import('./pages/Profile').then((m) => m.Profile));
const SwitchRoles = lazyComponent(() => import('./pages/SwitchRoles').then((m) => m.SwitchRoles));
const RoleMatrix = lazyComponent(() => import('./pages/RoleMatrix').then((m) => m.RoleMatrix));
const ChangePassword = lazyComponent(() => import('./pages/ChangePassword').then((m) => m.ChangePassword));
const GroupIndex = lazyComponent(() => import('./pages/GroupIndex').then((m) => m.GroupIndex));
const Messages = lazyComponent(() => import('../resources/medicine/Messages').then((m) => m.Messages));
const Tracking = lazyComponent(() => import('../resources/medicine/Tracking').then((m) => m.Tracking));
const SentNotifications = lazyComponent(() =>
  import('../resources/medicine/SentNotifications').then((m) => m.SentNotifications),
);

const PAGES: Record<ShellPage, ComponentType | null> = {
  dashboard: Dashboard,
  profile: Profile,
  page401: Page401,
  page404: Page404,
  redirect: RedirectPage,
  switchRoles: SwitchRoles,
  roleMatrix: RoleMatrix,
  password: ChangePassword,
  messages: Messages,
  tracking: Tracking,
  sentNotifications: SentNotifications,
  groupIndex: GroupIndex,
  authRedirect: null,
};

/** The component of a shell page: the shell's own, else the ledger screen given or built in (null: none). */
function pageComponent(page: string, screens: ShellScreens): ComponentType | null | undefined {
  return (
    (PAGES as Record<string, ComponentType | null>)[page] ??
    screens.ledger?.[page as LedgerScreen] ??
    LEDGER[page as LedgerScreen]
  );
}

/** react-router path syntax: a final `*name` segment becomes `*`. */
function routerPath(path: string): string {
  return path.replace(/\/\*[^/]*$/, '/*');
}

/** The `<Route>` elements to put in `<CustomRoutes>` (with the layout). */
export function shellRoutes(screens: ShellScreens = {}): ReactElement[] {
  const out: ReactElement[] = [];
  for (const { route, fullPath } of flattenRoutes(allRoutes)) {
    if (route.public || route.redirect || route.children?.length) continue;
    const screen = route.screen;
    let element: ReactElement;
    if (screen && 'resource' in screen) {
      if (screen.view !== 'list') continue; // react-admin's own path
      const List = screens.resources?.[screen.resource]?.list;
      element = List ? (
        <ResourceContextProvider value={screen.resource}>
          <List />
        </ResourceContextProvider>
      ) : (
        <NotAvailable />
      );
    } else if (screen && 'page' in screen) {
      const Page = pageComponent(screen.page, screens) ?? NotAvailable;
      element = <Page />;
    } else {
      element = <NotAvailable />;
    }
    out.push(<Route key={fullPath} path={routerPath(fullPath)} element={element} />);
  }
  return out;
}

/**
 * Starts loading the code of the screen at `path` (a shell path such as `/dashboard` or
 * `/authors/3/show`; a route's `redirect` is followed once, so `/` preloads the dashboard) and returns at
 * once: the lazy page or resource view (src/shell/lazy.tsx `preload`) that `shellRoutes` or react-admin
 * renders there. Nothing happens for a path no route matches or a screen that is not lazy. Only the
 * download starts early: the screen's rules (roles, session) are checked when it renders, as before.
 */
export function preloadScreen(path: string, screens: ShellScreens = {}): void {
  let match = matchRoute(allRoutes, path);
  const to = match?.route.redirect;
  if (to && to !== 'noRedirect') match = matchRoute(allRoutes, to);
  const screen = match?.route.screen;
  if (!screen) return;
  const component =
    'resource' in screen
      ? screen.view === 'child'
        ? undefined
        : screens.resources?.[screen.resource]?.[screen.view]
      : pageComponent(screen.page, screens);
  void (component as Partial<LazyComponent<object>> | null | undefined)?.preload?.();
}

/** The `<Route>` elements to put in `<CustomRoutes noLayout>`: `/auth-redirect`. */
export function shellNoLayoutRoutes(): ReactElement[] {
  return [<Route key="/auth-redirect" path="/auth-redirect" element={<AuthRedirect />} />];
}

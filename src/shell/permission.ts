/**
 * Who may see which route, and what the navigation guard does with a path.
 *
 * Role rule (vue-element-admin `store/modules/permission.js`): `admin` gets every permission-gated
 * route; any other role gets the routes whose `meta.roles` include one of its roles, searched
 * recursively through children; routes without roles are open to all. The server refuses the same
 * calls for the same roles (docs/api.md).
 *
 * Guard rule (vue-element-admin `permission.js`): `/login` and `/auth-redirect` need no token; with a
 * token `/login` goes to `/`; without one any other path goes to `/login?redirect=<path>`. A path
 * that exists but not for these roles is a 401; a path that does not exist goes to `/404`.
 */
import { allRoutes, asyncRoutes, constantRoutes, type ShellRoute } from './routes';
import { fillPath, flattenRoutes, matchRoute, normalizePath, resolvePath, type RouteMatch } from './router';

/** True when `route` has no `meta.roles` or shares one with `roles`. */
export function hasPermission(roles: readonly string[], route: ShellRoute): boolean {
  const wanted = route.meta?.roles;
  return !wanted || roles.some((r) => wanted.includes(r));
}

/** The routes of `routes` these roles may see, children filtered recursively. Input is not mutated. */
export function filterAsyncRoutes(routes: ShellRoute[], roles: readonly string[]): ShellRoute[] {
  const res: ShellRoute[] = [];
  for (const route of routes) {
    if (!hasPermission(roles, route)) continue;
    const copy = { ...route };
    if (copy.children) copy.children = filterAsyncRoutes(copy.children, roles);
    res.push(copy);
  }
  return res;
}

/** The whole tree for an account: constant routes plus the role-filtered async routes. */
export function routesForRoles(
  roles: readonly string[],
  tree: { constant: ShellRoute[]; async: ShellRoute[] } = { constant: constantRoutes, async: asyncRoutes },
): ShellRoute[] {
  const accessible = roles.includes('admin') ? tree.async : filterAsyncRoutes(tree.async, roles);
  return [...tree.constant, ...accessible];
}

/** Paths that need no token (vue-element-admin's whiteList). */
export const WHITE_LIST = ['/login', '/auth-redirect'];

/** What the guard decided for one navigation. */
export type GuardDecision =
  | { kind: 'allow'; match: RouteMatch }
  /** Navigate (replace) to `to`, which may carry a query string. */
  | { kind: 'redirect'; to: string }
  /** The path exists but not for these roles: show the 401 page in place. */
  | { kind: 'unauthorized'; match: RouteMatch }
  /** Roles not loaded yet: wait, then decide again. */
  | { kind: 'pending' };

/** Input of `decideNavigation`. */
export interface GuardInput {
  /** Path name, e.g. `/industry/authors`. */
  path: string;
  /** Query string including `?`, or `''`. Kept in the login redirect. */
  search?: string;
  hasToken: boolean;
  /** The account's roles, or `undefined` while they load. */
  roles: readonly string[] | undefined;
  /** Tree to decide on (tests); the product's by default. */
  tree?: { constant: ShellRoute[]; async: ShellRoute[] };
}

const defaultFlat = flattenRoutes(allRoutes);

/**
 * The guard's decision for a navigation; see the module docstring for the rules. Redirect targets:
 * a route's `redirect`; a group that is not a link (`redirect: 'noRedirect'`) goes to its first leaf
 * these roles may see; `/login?redirect=<path+search>` without a token; `/404` for unknown paths.
 */
export function decideNavigation(input: GuardInput): GuardDecision {
  const path = normalizePath(input.path);
  const search = input.search ?? '';
  const tree = input.tree ?? { constant: constantRoutes, async: asyncRoutes };
  if (WHITE_LIST.includes(path)) {
    if (input.hasToken && path === '/login') return { kind: 'redirect', to: '/' };
    return allowPublic(path, tree);
  }
  if (!input.hasToken) {
    return { kind: 'redirect', to: `/login?redirect=${encodeURIComponent(path + search)}` };
  }
  const flat = input.tree ? flattenRoutes([...tree.constant, ...tree.async]) : defaultFlat;
  const match = matchRoute(flat, path);
  if (!match) return { kind: 'redirect', to: '/404' };
  if (match.route.public) return { kind: 'allow', match };
  if (!input.roles) return { kind: 'pending' };
  const mine = matchRoute(routesForRoles(input.roles, tree), path);
  if (!mine || mine.fullPath !== match.fullPath) return { kind: 'unauthorized', match };
  const redirect = mine.route.redirect;
  if (redirect && redirect !== 'noRedirect') {
    return {
      kind: 'redirect',
      // `:name` segments of the target take the matched path's parameters.
      to: redirect.startsWith('/') ? fillPath(redirect, mine.params) + search : resolvePath(path, redirect),
    };
  }
  if (redirect === 'noRedirect' || (mine.route.children?.length && !mine.route.screen)) {
    const leaf = firstLeaf(mine.route, mine.fullPath);
    return leaf ? { kind: 'redirect', to: leaf } : { kind: 'unauthorized', match };
  }
  return { kind: 'allow', match: mine };
}

function allowPublic(path: string, tree: { constant: ShellRoute[]; async: ShellRoute[] }): GuardDecision {
  const match = matchRoute([...tree.constant, ...tree.async], path);
  if (!match) return { kind: 'redirect', to: '/404' };
  return { kind: 'allow', match };
}

/** Absolute path of the first visible, parameter-free leaf under `route` (already role-filtered). */
function firstLeaf(route: ShellRoute, base: string): string | null {
  for (const child of route.children ?? []) {
    if (child.hidden || child.path.includes(':') || child.path.includes('*')) continue;
    const p = resolvePath(base, child.path);
    if (!child.children?.length) return p;
    const inner = firstLeaf(child, p);
    if (inner) return inner;
  }
  return null;
}

/**
 * The route pattern of the page each react-admin action opens for `resource` (react-admin's own paths,
 * as src/shell/resourceRoutes.ts declares them): list `/<name>` (the list, or the path forwarding to its
 * product path), show `/<name>/:id/show`, create and clone `/<name>/create`, edit `/<name>/:id`.
 * Actions that open no page (delete, export) have none.
 */
const ACTION_PAGES: Record<string, (resource: string) => string> = {
  list: (r) => `/${r}`,
  show: (r) => `/${r}/:id/show`,
  create: (r) => `/${r}/create`,
  clone: (r) => `/${r}/create`,
  edit: (r) => `/${r}/:id`,
};

const allPatterns = new Set(defaultFlat.map((f) => f.fullPath));
const patternsByRoles = new Map<string, Set<string>>();

/**
 * True when `roles` can reach the page `action` opens on `resource` (`ACTION_PAGES`): its route is in the
 * account's tree (`routesForRoles`), so a button leading there does not end on the 401 page. A role
 * the resource's schema admits but its group does not gets only the show page (resourceRoutes.ts
 * `openedRecordPages`): no List, Create or Edit for it. True for actions that open no page and for
 * pages that are not routes of the shell's tree.
 */
export function actionPageAllowed(roles: readonly string[], resource: string, action: string): boolean {
  const pattern = ACTION_PAGES[action]?.(resource);
  if (!pattern || !allPatterns.has(pattern)) return true;
  const key = [...roles].sort().join(',');
  let mine = patternsByRoles.get(key);
  if (!mine) {
    mine = new Set(flattenRoutes(routesForRoles(roles)).map((f) => f.fullPath));
    patternsByRoles.set(key, mine);
  }
  return mine.has(pattern);
}

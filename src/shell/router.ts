/**
 * Pure functions over the route tree (`routes.ts`): full paths, path matching, breadcrumbs, the
 * sidebar's menu model and the pinned tabs. No React, no browser: unit-tested in `router.test.ts`.
 */
import type { ShellRoute } from './routes';

/** A route with its absolute path pattern and its ancestors (root first, the route itself last). */
export interface FlatRoute {
  fullPath: string;
  route: ShellRoute;
  chain: ShellRoute[];
  /** Absolute path of each entry of `chain`. */
  chainPaths: string[];
}

/** The result of matching a concrete path. */
export interface RouteMatch extends FlatRoute {
  params: Record<string, string>;
}

/**
 * Joins a child path onto its parent's, as vue-router does: an absolute child (`/x`) stands alone,
 * an empty child is the parent itself. Result has no trailing slash (except the root `/`).
 */
export function resolvePath(base: string, path: string): string {
  if (path.startsWith('/')) return normalizePath(path);
  if (path === '') return normalizePath(base);
  return normalizePath(`${base.replace(/\/+$/, '')}/${path}`);
}

/** Collapses repeated slashes and drops a trailing slash: `//a/b/` → `/a/b`; `''` → `/`. */
export function normalizePath(path: string): string {
  const p = `/${path}`.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  return p === '' ? '/' : p;
}

/** Every route of the tree, depth first, with its absolute path. */
export function flattenRoutes(
  routes: ShellRoute[],
  base = '/',
  chain: ShellRoute[] = [],
  chainPaths: string[] = [],
) {
  const out: FlatRoute[] = [];
  for (const route of routes) {
    const fullPath = resolvePath(base, route.path);
    const c = [...chain, route];
    const cp = [...chainPaths, fullPath];
    out.push({ fullPath, route, chain: c, chainPaths: cp });
    if (route.children) out.push(...flattenRoutes(route.children, fullPath, c, cp));
  }
  return out;
}

/**
 * Matches `pattern` (segments: literal, `:param`, or a final `*rest`) against `path`.
 * Returns the parameters (decoded) and a specificity score (literal 3, param 2, rest 1 per segment),
 * or `null`. Parameter constraints (`route.params`) are checked by `matchRoute`.
 */
export function matchPattern(
  pattern: string,
  path: string,
): { params: Record<string, string>; score: number } | null {
  const ps = normalizePath(pattern).split('/').filter(Boolean);
  const xs = normalizePath(path).split('/').filter(Boolean);
  const params: Record<string, string> = {};
  let score = 0;
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i];
    if (p.startsWith('*')) {
      if (i !== ps.length - 1) throw new Error(`"${pattern}": a *rest segment must come last`);
      if (xs.length <= i) return null;
      params[p.slice(1) || '*'] = xs.slice(i).map(safeDecode).join('/');
      return { params, score: score + 1 };
    }
    const x = xs[i];
    if (x === undefined) return null;
    if (p.startsWith(':')) {
      params[p.slice(1)] = safeDecode(x);
      score += 2;
    } else if (p === x) score += 3;
    else return null;
  }
  if (xs.length !== ps.length) return null;
  return { params, score: score * 100 + ps.length };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The most specific route of `routes` matching `path` (query string and hash ignored), honouring
 * `route.params` constraints, or `null`. A literal segment beats a parameter (`/authors/create`
 * beats `/authors/:id`), as in react-router's ranking.
 */
export function matchRoute(routes: ShellRoute[] | FlatRoute[], path: string): RouteMatch | null {
  const flat = isFlat(routes) ? routes : flattenRoutes(routes);
  const clean = path.split(/[?#]/)[0];
  let best: RouteMatch | null = null;
  let bestScore = -1;
  for (const f of flat) {
    const m = matchPattern(f.fullPath, clean);
    if (!m) continue;
    const constraints = f.route.params ?? {};
    if (!Object.entries(constraints).every(([k, re]) => re.test(m.params[k] ?? ''))) continue;
    if (m.score > bestScore) {
      best = { ...f, params: m.params };
      bestScore = m.score;
    }
  }
  return best;
}

function isFlat(r: ShellRoute[] | FlatRoute[]): r is FlatRoute[] {
  return r.length > 0 && 'fullPath' in r[0];
}

/** Puts concrete parameter values into a path pattern: `fillPath('/baas/channel/:id', {id: '3'})`. */
export function fillPath(pattern: string, params: Record<string, string>): string {
  return pattern
    .split('/')
    .map((seg) =>
      seg.startsWith(':') || seg.startsWith('*')
        ? seg.startsWith('*')
          ? (params[seg.slice(1)] ?? '')
          : encodeURIComponent(params[seg.slice(1)] ?? '')
        : seg,
    )
    .join('/');
}

/** One breadcrumb: a title key (under `shell.route.`) and a link target, or none for plain text. */
export interface Crumb {
  title: string;
  path: string;
  link: boolean;
}

/**
 * Breadcrumbs for a match: each route of the chain with a title (and `breadcrumb !== false`), the
 * dashboard first unless the page is the dashboard. Groups with `redirect: 'noRedirect'` and the
 * current page are plain text. Rule: vue-element-admin `components/Breadcrumb`.
 */
export function breadcrumbs(match: RouteMatch): Crumb[] {
  const crumbs: Crumb[] = [];
  match.chain.forEach((r, i) => {
    if (!r.meta?.title || r.meta.breadcrumb === false) return;
    const path = fillPath(match.chainPaths[i], match.params);
    crumbs.push({ title: r.meta.title, path, link: r.redirect !== 'noRedirect' });
  });
  if (crumbs.length === 0 || crumbs[0].title !== 'dashboard') {
    crumbs.unshift({ title: 'dashboard', path: '/dashboard', link: true });
  }
  crumbs[crumbs.length - 1].link = false;
  return crumbs;
}

/** One entry of the sidebar: a link (`path`) or a group (`children`). */
export interface MenuNode {
  key: string;
  title: string;
  icon?: string;
  path: string;
  children?: MenuNode[];
}

/**
 * The sidebar's model from (already role-filtered) routes. Hidden routes are left out; a route with
 * exactly one visible child that has no children of its own is shown as that child (unless
 * `alwaysShow`); a route with no visible children is a link to itself. Rule: vue-element-admin
 * `layout/components/Sidebar/SidebarItem.vue`.
 */
export function buildMenu(routes: ShellRoute[], base = '/'): MenuNode[] {
  const out: MenuNode[] = [];
  for (const route of routes) {
    if (route.hidden) continue;
    const path = resolvePath(base, route.path);
    const showing = (route.children ?? []).filter((c) => !c.hidden);
    if (showing.length === 1 && !showing[0].children?.some((c) => !c.hidden) && !route.alwaysShow) {
      const child = showing[0];
      const childPath = resolvePath(path, child.path);
      out.push({
        key: childPath,
        title: child.meta?.title ?? route.meta?.title ?? '',
        icon: child.meta?.icon ?? route.meta?.icon,
        path: childPath,
      });
    } else if (showing.length === 0) {
      if (!route.meta?.title) continue;
      out.push({ key: path, title: route.meta.title, icon: route.meta.icon, path });
    } else {
      out.push({
        key: path,
        title: route.meta?.title ?? '',
        icon: route.meta?.icon,
        path,
        children: buildMenu(showing, path),
      });
    }
  }
  return out;
}

/** The menu entry to highlight for a match: `meta.activeMenu`, else the route's own path. */
export function activeMenuPath(match: RouteMatch): string {
  return match.route.meta?.activeMenu ?? fillPath(match.fullPath, match.params);
}

/** Keys of the menu groups that contain the entry at `path` (to open them). */
export function openGroupsFor(menu: MenuNode[], path: string): string[] {
  for (const node of menu) {
    if (!node.children) continue;
    if (node.children.some((c) => c.path === path)) return [node.key];
    const inner = openGroupsFor(node.children, path);
    if (inner.length) return [node.key, ...inner];
  }
  return [];
}

/**
 * The routes of the schema-declared resources (src/generated/resources.ts, from each schema's
 * `x-resource`; see scripts/codegen/resources.ts), merged into the hand-written route tree (routes.ts).
 *
 * For a resource `r` (not `hidden`) with base `/<name>` (react-admin's own paths):
 * - the list at the product path `r.path` (a menu entry, `meta.roles` = `r.roles`);
 * - show `/<name>/:id/show` and its tabs `/<name>/:id/show/<section>` (when `getOne` exists), and
 *   `/<name>/:id/show/history`, the History tab, when the schema declares `x-storage`;
 * - create `/<name>/create` and `/<name>/create/<section>` (when `create` exists);
 * - edit `/<name>/:id` and `/<name>/:id/<section>` (when `update` exists); tab paths are the schema's
 *   `x-ui.section`s, as react-admin's `TabbedShowLayout` and `TabbedForm` put them in the address
 *   (src/schema-ui/views.tsx);
 * - the resource's own child routes `/<name>/<route.path>` (`x-resource.routes`);
 * - the react-admin list path `/<name>` forwarding to `r.path` (react-admin goes there after a delete).
 * Detail routes are hidden and highlight the list's menu entry; like the list, they are cached: each
 * record page and add page is kept as it was left (a half-filled form, the open tab) until its tab is
 * closed or refreshed (src/layout/keepAlive.tsx, issue 21). Their tab routes name the page they are a tab
 * of (`meta.tabOf`) so the tab strip keeps one tab per record page.
 *
 * A role the resource's schema admits (`x-roles`) but its group does not also gets the show page and
 * its tabs, as hidden top-level routes for that role (`openedRecordPages`): a record it may read opens.
 *
 * All of them become children of the route at `r.group` (e.g. `/industry/artwork`), resources first,
 * ordered by `x-resource.order`, before the group's hand-written children; without a group, top-level
 * routes. Titles: `x-resource.titles`, else the generated label `resources.<name>.name` for the list
 * and `resources.<name>.name#<view>` for the detail pages (see routes.ts `RouteMeta.title`).
 */
import { schemas } from '../../kernel/dialect/schemaRegistry';
import type { GeneratedResource } from '../generated/resources';
import type { ShellRoute } from './routes';
import { resolvePath } from './router';

const DIGITS = /^\d+$/;

/** The title key of a resource view: the schema's product title or the derived one. */
function titleOf(r: GeneratedResource, view: 'list' | 'show' | 'create' | 'edit'): string {
  const given = r.titles[view];
  if (given) return given;
  return view === 'list' ? `resources.${r.name}.name` : `resources.${r.name}.name#${view}`;
}

/** Every route of one resource (see the module docstring); `[]` for a hidden resource. */
export function resourceRoutes(r: GeneratedResource): ShellRoute[] {
  if (r.hidden) return [];
  const base = `/${r.name}`;
  const roles = r.roles.length ? r.roles : undefined;
  const has = (verb: string) => r.verbs.includes(verb);
  const detail = { noAuth: true, activeMenu: r.path, roles };
  const out: ShellRoute[] = [
    {
      path: r.path,
      name: r.name,
      meta: { title: titleOf(r, 'list'), icon: r.icon ?? undefined, roles },
      screen: { resource: r.name, view: 'list' },
    },
  ];
  /** A detail page and one hidden route per tab. */
  const page = (view: 'show' | 'create' | 'edit', path: string, tabs: string[], params?: boolean) => {
    const title = titleOf(r, view);
    const name = `${r.name}.${view}`;
    const common = { hidden: true, ...(params ? { params: { id: DIGITS } } : {}) };
    out.push({ path, name, ...common, meta: { title, ...detail }, screen: { resource: r.name, view } });
    for (const tab of tabs)
      out.push({
        path: `${path}/${tab}`,
        name: `${name}.${tab}`,
        ...common,
        meta: { title, ...detail, tabOf: path },
        screen: { resource: r.name, view },
      });
  };
  // The show page of a stored resource also has the History tab (src/schema-ui/views.tsx `SchemaShow`).
  const stored = !!schemas[r.schemaId]?.['x-storage'];
  if (has('getOne'))
    page('show', `${base}/:id/show`, stored ? [...r.tabs.show, 'history'] : r.tabs.show, true);
  // A two-step add (`x-resource.twoStep`) creates with the main section only: no create tabs.
  const twoStep = !!schemas[r.schemaId]?.['x-resource']?.twoStep;
  if (has('create')) page('create', `${base}/create`, twoStep ? [] : r.tabs.form);
  if (has('update')) page('edit', `${base}/:id`, r.tabs.form, true);
  for (const child of r.routes)
    out.push({
      path: resolvePath(base, child.path),
      name: `${r.name}.${child.path.replace(/^:id\//, '')}`,
      hidden: true,
      ...(child.path.startsWith(':id/') ? { params: { id: DIGITS } } : {}),
      meta: { title: child.title, ...detail },
      screen: { resource: r.name, view: 'child' },
    });
  if (r.path !== base) out.push({ path: base, hidden: true, redirect: r.path, meta: { roles } });
  return out;
}

/**
 * The hand-written tree `tree` with every visible resource's routes added under its group (copies;
 * the input is not mutated). Throws when a resource names a group the tree does not have.
 */
export function withResourceRoutes(
  tree: ShellRoute[],
  resources: readonly GeneratedResource[],
): ShellRoute[] {
  const byGroup = new Map<string | null, GeneratedResource[]>();
  for (const r of [...resources].filter((x) => !x.hidden).sort((a, b) => a.order - b.order)) {
    byGroup.set(r.group, [...(byGroup.get(r.group) ?? []), r]);
  }
  const placed = new Set<string | null>();
  const opened: ShellRoute[] = [];
  const walk = (routes: ShellRoute[], parent: string): ShellRoute[] =>
    routes.map((route) => {
      const full = resolvePath(parent, route.path);
      const mine = byGroup.get(full);
      const children = route.children ? walk(route.children, full) : undefined;
      if (!mine) return children ? { ...route, children } : route;
      placed.add(full);
      for (const r of mine) opened.push(...openedRecordPages(r, route.meta?.roles));
      return { ...route, children: [...mine.flatMap(resourceRoutes), ...(children ?? [])] };
    });
  const merged = walk(tree, '/');
  for (const group of byGroup.keys()) {
    if (group === null || placed.has(group)) continue;
    const names = byGroup.get(group)!.map((r) => r.name);
    throw new Error(
      `x-resource.group "${group}" of ${names.join(', ')} is not a route of src/shell/routes.ts`,
    );
  }
  return [...merged, ...(byGroup.get(null) ?? []).flatMap(resourceRoutes), ...opened];
}

/**
 * The show page (and its tabs) of resource `r` for the roles its schema admits (`x-roles`) but its group
 * (roles `groupRoles`) does not, as hidden top-level routes for those roles only: a record they may read
 * opens for them (e.g. a contract template linked from the contracts list of the user account, whose
 * Medicine group is admin's and company's), without a menu entry. Other roles match the group's routes
 * first. Empty when the group admits every role of the resource.
 */
function openedRecordPages(r: GeneratedResource, groupRoles: string[] | undefined): ShellRoute[] {
  // Admin opens every route already (src/shell/permission.ts).
  const outside = groupRoles ? r.roles.filter((role) => role !== 'admin' && !groupRoles.includes(role)) : [];
  if (!outside.length) return [];
  return (
    resourceRoutes(r)
      .filter((route) => route.name === `${r.name}.show` || route.name?.startsWith(`${r.name}.show.`))
      // Route names are unique: the copy's names the roles it is for.
      .map((route) => ({
        ...route,
        name: `${route.name}~${outside.join('+')}`,
        meta: { ...route.meta, roles: outside },
      }))
  );
}

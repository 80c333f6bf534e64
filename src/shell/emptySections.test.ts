/**
 * The sections the product itself leaves empty (issue 8): agriculture, measure, interflow, support,
 * billing, vessel, qkCorrelation, secret, protect, Ethereum (`etherUme`) and Beijing Chain stay titled pages
 * reachable from the sidebar: each is a route of the tree, neither it nor any ancestor is hidden, the
 * roles that the product gives it can open it, and its title exists in English and in Chinese. A leaf
 * without `screen` renders the translated "not available yet" page under that title (routes.ts).
 */
import { describe, expect, it } from 'vitest';
import { en as shellEn } from '../layout/i18n';
import { zh as shellZh } from '../layout/i18n.zh';
import { asyncRoutes, type ShellRoute } from './routes';
import { routesForRoles } from './permission';

const shellMessages = { en: shellEn, zh: shellZh };

/** Route name → the role the product's router gives it. */
const EMPTY = {
  agriculture: 'admin',
  measure: 'admin',
  interflow: 'admin',
  support: 'user',
  billing: 'user',
  vessel: 'user',
  qkCorrelation: 'user',
  secret: 'user',
  protect: 'user',
  etherUme: 'user',
  BeijingChain: 'user',
} as const;

/** The route named `name` with its ancestors, in `tree`. */
function find(tree: ShellRoute[], name: string, up: ShellRoute[] = []): ShellRoute[] | undefined {
  for (const r of tree) {
    if (r.name === name) return [...up, r];
    const deeper = r.children && find(r.children, name, [...up, r]);
    if (deeper) return deeper;
  }
  return undefined;
}

/** Leaves of a route: the pages the sidebar opens. */
const leaves = (r: ShellRoute): ShellRoute[] => (r.children?.length ? r.children.flatMap(leaves) : [r]);

describe('the product’s empty sections stay titled pages in the sidebar', () => {
  it.each(Object.entries(EMPTY))('%s (role %s)', (name, role) => {
    const path = find(routesForRoles([role]), name);
    expect(path, `${name} is reachable for ${role}`).toBeDefined();
    expect(
      path!.some((r) => r.hidden),
      `${name} is in the sidebar`,
    ).toBe(false);
    const route = path![path!.length - 1];
    for (const lang of ['en', 'zh'] as const) {
      const titles = shellMessages[lang].shell.route as Record<string, string>;
      expect(titles[route.meta!.title!], `${lang} title of ${name}`).toMatch(/\S/);
      for (const leaf of leaves(route))
        expect(titles[leaf.meta!.title!], `${lang} ${leaf.name}`).toMatch(/\S/);
    }
    // Admin sees every section too.
    expect(find(routesForRoles(['admin']), name)).toBeDefined();
  });

  it('lists only routes of the tree', () => {
    for (const name of Object.keys(EMPTY)) expect(find(asyncRoutes, name), name).toBeDefined();
  });
});

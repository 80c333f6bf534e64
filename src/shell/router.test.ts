import { describe, expect, it } from 'vitest';
import { allRoutes, asyncRoutes } from './routes';
import {
  activeMenuPath,
  breadcrumbs,
  buildMenu,
  fillPath,
  flattenRoutes,
  matchPattern,
  matchRoute,
  openGroupsFor,
  resolvePath,
} from './router';
import { routesForRoles } from './permission';
import { generatedResources } from '../generated/resources';

/**
 * The menu entries the registry (src/generated/resources.ts) puts in `group`, in x-resource order, as
 * withResourceRoutes places them (before the group's hand-written children): paths and titles.
 */
const fromRegistry = (group: string) => {
  const rs = generatedResources
    .filter((r) => r.group === group && !r.hidden)
    .sort((a, b) => a.order - b.order);
  return { paths: rs.map((r) => r.path), titles: rs.map((r) => r.titles.list ?? `resources.${r.name}.name`) };
};

describe('paths', () => {
  it('resolves relative, absolute and empty child paths', () => {
    expect(resolvePath('/baas', 'channel/:id')).toBe('/baas/channel/:id');
    expect(resolvePath('/medicine', '/companies/add-company')).toBe('/companies/add-company');
    expect(resolvePath('/', 'dashboard')).toBe('/dashboard');
    expect(resolvePath('/set', '')).toBe('/set');
  });

  it('matches literal, parameter and rest segments with a specificity score', () => {
    expect(matchPattern('/authors/:id', '/authors/7')?.params).toEqual({ id: '7' });
    expect(matchPattern('/authors/:id', '/authors/7/show')).toBeNull();
    expect(matchPattern('/redirect/*path', '/redirect/a/b%20c')?.params).toEqual({ path: 'a/b c' });
    expect(matchPattern('/redirect/*path', '/redirect')).toBeNull();
    expect(matchPattern('/a/b', '/a/b')!.score).toBeGreaterThan(matchPattern('/a/:x', '/a/b')!.score);
  });

  it('prefers the literal route and ignores query and trailing slash', () => {
    expect(matchRoute(allRoutes, '/authors/create?x=1')?.route.name).toBe('authors.create');
    expect(matchRoute(allRoutes, '/authors/3')?.route.name).toBe('authors.edit');
    expect(matchRoute(allRoutes, '/industry/authors/')?.route.name).toBe('authors');
  });

  it('fills parameters back in', () => {
    expect(fillPath('/baas/channel/:id', { id: '9' })).toBe('/baas/channel/9');
  });

  it('gives every named route a unique name and every titled route a title key', () => {
    const named = flattenRoutes(allRoutes).filter((f) => f.route.name);
    const set = new Set(named.map((f) => f.route.name));
    expect(set.size).toBe(named.length);
    for (const f of named) expect(f.route.meta?.title, f.fullPath).toBeTruthy();
  });

  it('declares the product sections at their paths', () => {
    const paths = flattenRoutes(asyncRoutes).map((f) => f.fullPath);
    for (const p of [
      '/industry/authors',
      '/industry/approval',
      '/industry/entering',
      '/companies/add-company',
      '/companies/set-company',
      '/smContract/add',
      '/medicine/tacking',
      '/agriculture',
      '/permission/notifications',
      '/audit/distributed',
      '/measure/recover',
      '/interflow/cooperation',
      '/baas/fabric',
      '/baas/etherUme',
      '/baas/BeijingChain',
      '/baas/channel/:id',
      '/baas/chainCode/:id',
      '/data/pigeonhole',
      '/contract/new',
      '/support',
      '/billing/page',
      '/billing/cycle',
      '/vessel/k8s',
      '/vessel/docker',
      '/set/qkCorrelation',
      '/protect/consensus',
      '/protect/account',
    ]) {
      expect(paths, p).toContain(p);
    }
    const k8s = matchRoute(allRoutes, '/vessel/k8s')!.route.screen;
    expect(matchRoute(allRoutes, '/vessel/docker')!.route.screen).toEqual(k8s);
  });
});

describe('breadcrumbs', () => {
  it('puts the dashboard first, groups and the current page as text', () => {
    const m = matchRoute(allRoutes, '/industry/authors')!;
    expect(breadcrumbs(m)).toEqual([
      { title: 'dashboard', path: '/dashboard', link: true },
      { title: 'industry', path: '/industry', link: false },
      { title: 'artwork', path: '/industry/artwork', link: false },
      { title: 'authors', path: '/industry/authors', link: false },
    ]);
  });

  it('links a group with a real redirect and fills parameters', () => {
    const crumbs = breadcrumbs(matchRoute(allRoutes, '/billing/cycle')!);
    expect(crumbs.map((c) => [c.title, c.link])).toEqual([
      ['dashboard', true],
      ['billing', true],
      ['billingCycle', false],
    ]);
    const ch = breadcrumbs(matchRoute(allRoutes, '/baas/channel/5')!);
    expect(ch[ch.length - 1]).toEqual({ title: 'channel', path: '/baas/channel/5', link: false });
  });

  it('does not repeat the dashboard on the dashboard', () => {
    expect(breadcrumbs(matchRoute(allRoutes, '/dashboard')!)).toEqual([
      { title: 'dashboard', path: '/dashboard', link: false },
    ]);
  });
});

describe('menu', () => {
  const menu = buildMenu(routesForRoles(['admin']));

  it('shows a route with one visible leaf child as that child, and hides hidden routes', () => {
    expect(menu[0]).toEqual({ key: '/dashboard', title: 'dashboard', icon: 'Dashboard', path: '/dashboard' });
    const flat = JSON.stringify(menu);
    expect(flat).not.toContain(':id');
    expect(flat).not.toContain('/404');
  });

  it.each<[string, 'title' | 'path', string[]]>([
    ['/industry', 'title', ['artwork', 'approval', 'entering']],
    ['/set', 'path', ['/set/password', '/set/qkCorrelation', '/set/secret', '/protect']],
  ])(
    'keeps the alwaysShow group %s: its registry resources, then its hand-written children',
    (path, key, rest) => {
      const group = menu.find((m) => m.path === path)!;
      const fromSchemas = key === 'title' ? fromRegistry(path).titles : fromRegistry(path).paths;
      expect(group.children!.map((c) => c[key])).toEqual([...fromSchemas, ...rest]);
    },
  );

  it('nests the artwork group under industry', () => {
    const industry = menu.find((m) => m.path === '/industry')!;
    const artwork = industry.children!.find((c) => c.title === 'artwork')!;
    // the registry's resources of the group, the four product sections among them
    expect(artwork.children!.map((c) => c.path)).toEqual(fromRegistry('/industry/artwork').paths);
    expect(artwork.children!.map((c) => c.path)).toEqual(
      expect.arrayContaining([
        '/industry/authors',
        '/industry/artWork',
        '/industry/bidUser',
        '/industry/users',
      ]),
    );
  });

  it('highlights the list entry for a detail page and opens its groups', () => {
    const m = matchRoute(allRoutes, '/authors/3/show')!;
    expect(activeMenuPath(m)).toBe('/industry/authors');
    expect(openGroupsFor(menu, '/industry/authors')).toEqual(['/industry', '/industry/artwork']);
  });
});

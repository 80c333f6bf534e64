import { schemas } from '../../kernel/dialect/schemaRegistry';
import { describe, expect, it } from 'vitest';
import { generatedResources, type GeneratedResource } from '../generated/resources';
import { decideNavigation } from './permission';
import { breadcrumbs, buildMenu, flattenRoutes, matchRoute } from './router';
import { resourceRoutes, withResourceRoutes } from './resourceRoutes';
import { allRoutes, asyncRoutes, constantRoutes, handWrittenAsyncRoutes, type ShellRoute } from './routes';
import { tagPathOf } from './tagsView';

const admin = (path: string) => decideNavigation({ path, hasToken: true, roles: ['admin'] });

/** A resource row as codegen emits it, for trees built in the tests. */
const resource = (over: Partial<GeneratedResource>): GeneratedResource => ({
  name: 'widgets',
  schemaId: 'widget',
  roles: ['admin'],
  recordRepresentation: 'id',
  icon: null,
  verbs: ['getList', 'getOne', 'create', 'update'],
  verbRoles: {},
  frozen: null,
  group: null,
  path: '/widgets',
  order: 1000,
  hidden: false,
  titles: { list: null, show: null, create: null, edit: null },
  tabs: { show: ['more'], form: ['more'] },
  routes: [],
  ...over,
});

describe('resource routes from the schemas', () => {
  it('lets admin open every tab of every show, create and edit page (the tab 404 bug)', () => {
    const artworks = generatedResources.find((r) => r.name === 'artworks')!;
    expect(artworks.tabs.show).toContain('dealInfo');
    for (const r of generatedResources.filter((x) => !x.hidden)) {
      const paths = [
        ...(r.verbs.includes('getOne') ? r.tabs.show.map((t) => `/${r.name}/1335/show/${t}`) : []),
        ...(r.verbs.includes('update') ? r.tabs.form.map((t) => `/${r.name}/1335/${t}`) : []),
        // A two-step add creates with the main section only (x-resource.twoStep): no create tabs.
        ...(r.verbs.includes('create') && !schemas[r.schemaId]['x-resource']?.twoStep
          ? r.tabs.form.map((t) => `/${r.name}/create/${t}`)
          : []),
      ];
      for (const p of paths) {
        const d = admin(p);
        expect(d.kind, p).toBe('allow');
        if (d.kind === 'allow') expect(d.match.route.screen, p).toMatchObject({ resource: r.name });
      }
    }
    const d = admin('/artworks/1335/show/dealInfo');
    if (d.kind !== 'allow') throw new Error(d.kind);
    expect(d.match.route.meta?.title).toBe('artWorkDetails');
    expect(breadcrumbs(d.match).map((c) => c.title)).toEqual([
      'dashboard',
      'industry',
      'artwork',
      'artWorkDetails',
    ]);
    // One entry in the tab strip per record page, whichever tab is shown.
    expect(tagPathOf(d.match, '/artworks/1335/show/dealInfo')).toBe('/artworks/1335/show');
    const e = admin('/artworks/1335/dealInfo');
    if (e.kind !== 'allow') throw new Error(e.kind);
    expect(tagPathOf(e.match, '/artworks/1335/dealInfo')).toBe('/artworks/1335');
    expect(admin('/artworks/1335/show/noSuchTab')).toEqual({ kind: 'redirect', to: '/404' });
  });

  it("opens the History tab of a stored resource's show page, one tab strip entry per record", () => {
    const h = admin('/artworks/1335/show/history');
    if (h.kind !== 'allow') throw new Error(`/artworks/1335/show/history: ${h.kind}`);
    expect(h.match.route.screen).toMatchObject({ resource: 'artworks', view: 'show' });
    expect(tagPathOf(h.match, '/artworks/1335/show/history')).toBe('/artworks/1335/show');
    // A resource without x-storage (read from the chain) has no History tab.
    const unstored = generatedResources.find(
      (r) => !r.hidden && r.verbs.includes('getOne') && !schemas[r.schemaId]['x-storage'],
    );
    if (unstored) expect(admin(`/${unstored.name}/1/show/history`)).toEqual({ kind: 'redirect', to: '/404' });
  });

  it('keeps the product URLs: lists, details, own child routes and react-admin list aliases', () => {
    expect(admin('/industry/artWork')).toMatchObject({ kind: 'allow' });
    expect(admin('/authors/7/works')).toMatchObject({ kind: 'allow' });
    expect(admin('/companies?x=1')).toEqual({ kind: 'redirect', to: '/medicine/companies' });
    expect(decideNavigation({ path: '/artworks', search: '?p=2', hasToken: true, roles: ['admin'] })).toEqual(
      { kind: 'redirect', to: '/industry/artWork?p=2' },
    );
    // A user sees none of the registry's resources, tabs included.
    const user = decideNavigation({ path: '/artworks/1/show/dealInfo', hasToken: true, roles: ['user'] });
    expect(user.kind).toBe('unauthorized');
  });

  it("opens a record's show page to a role its schema admits where its group does not", () => {
    // Contract templates: x-roles admin and user; their group (Medicine) is admin's and company's. The
    // user account reads them (its contracts link to them) but neither lists nor edits them in the console.
    const user = (path: string) => decideNavigation({ path, hasToken: true, roles: ['user'] }).kind;
    expect(user('/contractTemplates/3/show')).toBe('allow');
    expect(user('/contractTemplates/3/show/history')).toBe('allow');
    expect(user('/contractTemplates/3')).toBe('unauthorized');
    expect(user('/medicine/smContract')).toBe('unauthorized');
    const company = (path: string) => decideNavigation({ path, hasToken: true, roles: ['company'] }).kind;
    expect(company('/contractTemplates/3/show')).toBe('unauthorized');
    // Admin still gets the group's page (its breadcrumbs and menu entry).
    const shown = admin('/contractTemplates/3/show');
    expect(shown.kind === 'allow' && shown.match.route.name).toBe('contractTemplates.show');
    // A group that admits every role of its resources opens nothing more.
    const group: ShellRoute = { path: '/g', meta: { title: 'g', roles: ['admin', 'user'] }, children: [] };
    const tree = withResourceRoutes([group], [resource({ group: '/g', path: '/g/w', roles: ['user'] })]);
    expect(tree).toHaveLength(1);
  });

  it('gives a hidden (data-only) resource no route and no menu entry', () => {
    expect(generatedResources.find((r) => r.name === 'artCategories')?.hidden).toBe(true);
    expect(matchRoute(allRoutes, '/artCategories')).toBeNull();
    expect(resourceRoutes(resource({ hidden: true }))).toEqual([]);
    const tree = withResourceRoutes([], [resource({ name: 'blocks', path: '/blocks', hidden: true })]);
    expect(tree).toEqual([]);
  });

  it('orders a group by x-resource.order, resources before the hand-written children', () => {
    const group: ShellRoute = {
      path: '/g',
      alwaysShow: true,
      meta: { title: 'g' },
      children: [{ path: 'page', meta: { title: 'page' } }],
    };
    const tree = withResourceRoutes(
      [group],
      [
        resource({ name: 'b', path: '/g/b', group: '/g', order: 2 }),
        resource({ name: 'a', path: '/g/a', group: '/g', order: 1 }),
      ],
    );
    expect(buildMenu(tree)[0].children!.map((c) => c.path)).toEqual(['/g/a', '/g/b', '/g/page']);
    expect(group.children).toHaveLength(1); // input not mutated
    expect(() => withResourceRoutes([], [resource({ group: '/nowhere' })])).toThrow(/"\/nowhere"/);
  });

  it('derives the titles of a resource that names none from its generated label', () => {
    const routes = withResourceRoutes([], [resource({})]);
    const titles = Object.fromEntries(
      flattenRoutes(routes).map((f) => [f.fullPath, f.route.meta?.title ?? null]),
    );
    expect(titles).toEqual({
      '/widgets': 'resources.widgets.name',
      '/widgets/:id/show': 'resources.widgets.name#show',
      '/widgets/:id/show/more': 'resources.widgets.name#show',
      '/widgets/create': 'resources.widgets.name#create',
      '/widgets/create/more': 'resources.widgets.name#create',
      '/widgets/:id': 'resources.widgets.name#edit',
      '/widgets/:id/more': 'resources.widgets.name#edit',
    });
  });

  it('leaves only pages that are not resources in the hand-written tree', () => {
    const hand = flattenRoutes([...constantRoutes, ...handWrittenAsyncRoutes]);
    expect(hand.filter((f) => f.route.screen && 'resource' in f.route.screen)).toEqual([]);
    const all = flattenRoutes(asyncRoutes);
    for (const r of generatedResources.filter((x) => !x.hidden))
      expect(all.some((f) => f.fullPath === r.path)).toBe(true);
  });
});

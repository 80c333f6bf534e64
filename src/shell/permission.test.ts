import { describe, expect, it } from 'vitest';
import {
  actionPageAllowed,
  decideNavigation,
  filterAsyncRoutes,
  hasPermission,
  routesForRoles,
} from './permission';
import { actionAllowed } from '../authProvider/roles';
import accountSchema from '../../schemas/account.schema.json';
import { asyncRoutes, type ShellRoute } from './routes';
import { buildMenu, flattenRoutes } from './router';
import { generatedResources } from '../generated/resources';

/** Top-level menu entries of the registry's resources without a group that `role` sees, in x-resource order. */
const topLevelResources = (role: string) =>
  generatedResources
    .filter((r) => r.group === null && !r.hidden && (!r.roles.length || r.roles.includes(role)))
    .sort((a, b) => a.order - b.order)
    .map((r) => r.path);

const names = (routes: ShellRoute[]) =>
  flattenRoutes(routes)
    .map((f) => f.route.name)
    .filter(Boolean);

describe('role filter', () => {
  const tree: ShellRoute[] = [
    { path: '/open', name: 'open' },
    { path: '/a', name: 'a', meta: { roles: ['admin'] } },
    {
      path: '/mixed',
      name: 'mixed',
      meta: { roles: ['user', 'editor'] },
      children: [
        { path: 'u', name: 'mixed-u', meta: { roles: ['user'] } },
        { path: 'e', name: 'mixed-e', meta: { roles: ['editor'] } },
        {
          path: 'deep',
          name: 'deep',
          children: [
            { path: 'du', name: 'deep-u', meta: { roles: ['user'] } },
            { path: 'de', name: 'deep-e', meta: { roles: ['editor'] } },
            { path: 'free', name: 'deep-free' },
          ],
        },
      ],
    },
  ];

  it('keeps routes without roles and those sharing a role, recursively through children', () => {
    expect(names(filterAsyncRoutes(tree, ['user']))).toEqual([
      'open',
      'mixed',
      'mixed-u',
      'deep',
      'deep-u',
      'deep-free',
    ]);
    expect(names(filterAsyncRoutes(tree, ['editor']))).toEqual([
      'open',
      'mixed',
      'mixed-e',
      'deep',
      'deep-e',
      'deep-free',
    ]);
    expect(names(filterAsyncRoutes(tree, ['guest']))).toEqual(['open']);
  });

  it('gives a route to an account with any one of its roles', () => {
    expect(hasPermission(['guest', 'editor'], tree[2])).toBe(true);
    expect(hasPermission([], tree[2])).toBe(false);
    expect(hasPermission([], tree[0])).toBe(true);
  });

  it('does not mutate the tree', () => {
    const before = JSON.stringify(tree);
    filterAsyncRoutes(tree, ['user']);
    expect(JSON.stringify(tree)).toBe(before);
  });

  it('gives admin every gated route, the product user only the user sections', () => {
    const userSections = ['/baas', '/data', '/support', '/billing', '/vessel', '/set'];
    expect(names(routesForRoles(['admin']))).toEqual(expect.arrayContaining(names(asyncRoutes)));
    const userMenu = buildMenu(routesForRoles(['user'])).map((m) => m.path);
    expect(userMenu).toEqual(['/dashboard', ...userSections, ...topLevelResources('user')]);
    const adminMenu = buildMenu(routesForRoles(['admin'])).map((m) => m.path);
    expect(adminMenu).toEqual([
      '/dashboard',
      ...['/industry', '/medicine', '/agriculture', '/permission', '/audit', '/measure', '/interflow'],
      ...userSections,
      ...topLevelResources('admin'),
    ]);
  });
});

describe('navigation guard', () => {
  const user = { hasToken: true, roles: ['user'] };
  const admin = { hasToken: true, roles: ['admin'] };

  it('lets /login and /auth-redirect through without a token', () => {
    expect(decideNavigation({ path: '/login', hasToken: false, roles: undefined }).kind).toBe('allow');
    expect(decideNavigation({ path: '/auth-redirect', hasToken: false, roles: undefined }).kind).toBe(
      'allow',
    );
  });

  it('sends a signed-in user away from /login to /', () => {
    expect(decideNavigation({ path: '/login', ...admin })).toEqual({ kind: 'redirect', to: '/' });
  });

  it('sends any other path to /login with the path and query as redirect when there is no token', () => {
    expect(
      decideNavigation({ path: '/industry/authors', search: '?page=2', hasToken: false, roles: undefined }),
    ).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Findustry%2Fauthors%3Fpage%3D2',
    });
    expect(decideNavigation({ path: '/no/such', hasToken: false, roles: undefined })).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Fno%2Fsuch',
    });
  });

  it('waits for the roles', () => {
    expect(decideNavigation({ path: '/industry/authors', hasToken: true, roles: undefined })).toEqual({
      kind: 'pending',
    });
  });

  it('shows 401 for an admin URL typed by a user, including detail pages', () => {
    expect(decideNavigation({ path: '/industry/authors', ...user }).kind).toBe('unauthorized');
    expect(decideNavigation({ path: '/authors/12/show', ...user }).kind).toBe('unauthorized');
    expect(decideNavigation({ path: '/permission/role', ...user }).kind).toBe('unauthorized');
  });

  it('allows user and open sections to a user, and everything to admin', () => {
    expect(decideNavigation({ path: '/baas/fabric', ...user }).kind).toBe('allow');
    expect(decideNavigation({ path: '/dashboard', ...user }).kind).toBe('allow');
    expect(decideNavigation({ path: '/profile/index', ...user }).kind).toBe('allow');
    expect(decideNavigation({ path: '/baas/fabric', ...admin }).kind).toBe('allow');
    const d = decideNavigation({ path: '/authors/create', ...admin });
    expect(d.kind === 'allow' && d.match.route.name).toBe('authors.create');
  });

  it('sends unknown paths to /404, including ids that are not digits', () => {
    expect(decideNavigation({ path: '/nowhere', ...admin })).toEqual({ kind: 'redirect', to: '/404' });
    expect(decideNavigation({ path: '/baas/channel/abc', ...user })).toEqual({
      kind: 'redirect',
      to: '/404',
    });
    const d = decideNavigation({ path: '/baas/channel/42', ...user });
    expect(d.kind === 'allow' && d.match.params).toEqual({ id: '42' });
  });

  it('follows redirects: / to the dashboard, /billing to its page, aliases keep the query', () => {
    expect(decideNavigation({ path: '/', ...user })).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(decideNavigation({ path: '/billing', ...user })).toEqual({
      kind: 'redirect',
      to: '/billing/page',
    });
    expect(decideNavigation({ path: '/authors', search: '?filter=%7B%7D', ...admin })).toEqual({
      kind: 'redirect',
      to: '/industry/authors?filter=%7B%7D',
    });
  });

  it("forwards the product's company paths to react-admin's, filling the id", () => {
    expect(decideNavigation({ path: '/companies/add-company', ...admin })).toEqual({
      kind: 'redirect',
      to: '/companies/create',
    });
    expect(decideNavigation({ path: '/companies/set-company/12', ...admin })).toEqual({
      kind: 'redirect',
      to: '/companies/12',
    });
    expect(decideNavigation({ path: '/companies/set-company', ...admin })).toEqual({
      kind: 'redirect',
      to: '/medicine/companies',
    });
    expect(decideNavigation({ path: '/companies/12', ...admin })).toMatchObject({ kind: 'allow' });
    expect(decideNavigation({ path: '/companies/set-company/12', ...user }).kind).toBe('unauthorized');
    expect(decideNavigation({ path: '/medicine', ...admin })).toEqual({
      kind: 'redirect',
      to: '/medicine/companies',
    });
  });

  it('sends a group that is not a link to its first visible leaf', () => {
    // Industry's first leaf: its own resources (x-resource order) before the Artwork group's
    const inGroup = (g: string) =>
      generatedResources
        .filter((r) => r.group === g && !r.hidden)
        .sort((a, b) => a.order - b.order)
        .map((r) => r.path);
    expect(decideNavigation({ path: '/industry', ...admin })).toEqual({
      kind: 'redirect',
      to: [...inGroup('/industry'), ...inGroup('/industry/artwork')][0],
    });
    expect(decideNavigation({ path: '/set/protect', ...user })).toEqual({ kind: 'redirect', to: '/404' });
    expect(decideNavigation({ path: '/protect', ...user })).toEqual({
      kind: 'redirect',
      to: '/protect/consensus',
    });
  });

  it('lets the public error pages and the refresh route through', () => {
    expect(decideNavigation({ path: '/401', ...user }).kind).toBe('allow');
    expect(decideNavigation({ path: '/404', hasToken: false, roles: undefined }).kind).toBe('redirect');
    const d = decideNavigation({ path: '/redirect/industry/authors', ...admin });
    expect(d.kind === 'allow' && d.match.params).toEqual({ path: 'industry/authors' });
  });
});

describe('the pages a button opens (actionAllowed, actionPageAllowed)', () => {
  /**
   * react-admin's path of the page each action opens (useCreatePath), for record 7, and the call the
   * resource needs for the console to offer the action at all (src/schema-ui/capabilities.ts).
   */
  const PAGES = {
    list: [(r: string) => `/${r}`, 'getList'],
    show: [(r: string) => `/${r}/7/show`, 'getOne'],
    create: [(r: string) => `/${r}/create`, 'create'],
    edit: [(r: string) => `/${r}/7`, 'update'],
  } as const;
  const ROLES = accountSchema.properties.roles.items.enum;

  it('every button offered (canAccess) leads to a page the account reaches, never to the 401 page', () => {
    expect(ROLES).toEqual(['admin', 'user', 'company']);
    const offered: string[] = [];
    for (const role of ROLES)
      for (const r of generatedResources.filter((x) => !x.hidden))
        for (const [action, [page, verb]] of Object.entries(PAGES)) {
          if (!r.verbs.includes(verb) || !actionAllowed([role], r.name, action, { id: 7 })) continue;
          offered.push(`${role} ${action} ${r.name}`);
          const d = decideNavigation({ path: page(r.name), hasToken: true, roles: [role] });
          const where = `${role}: ${action} of ${r.name} opens ${page(r.name)}`;
          expect(d.kind, where).not.toBe('unauthorized');
          expect(d.kind === 'redirect' ? d.to : '', where).not.toBe('/404');
        }
    // Not vacuous: admin and user are offered pages (no schema admits the company role yet).
    for (const role of ['admin', 'user']) expect(offered.some((o) => o.startsWith(`${role} `))).toBe(true);
  });

  it("the user account on a contract template's page (Medicine is not its group): the page, no List, Create or Edit", () => {
    // The defect: its show page offered buttons to /contractTemplates (List), the form, the edit page:
    // each the 401 page for this account.
    expect(actionAllowed(['user'], 'contractTemplates', 'show', { id: 1 })).toBe(true);
    for (const action of ['list', 'create', 'clone', 'edit'])
      expect(actionAllowed(['user'], 'contractTemplates', action, { id: 1 }), action).toBe(false);
    expect(actionPageAllowed(['user'], 'contractTemplates', 'list')).toBe(false);
    // Its contracts are its own: list, add and edit them.
    for (const action of ['list', 'show', 'create', 'edit'])
      expect(actionAllowed(['user'], 'contracts', action, { id: 1 }), action).toBe(true);
    // Admin reaches every page; actions that open no page follow the calls' roles only.
    for (const action of ['list', 'show', 'create', 'edit', 'delete'])
      expect(actionAllowed(['admin'], 'contractTemplates', action, { id: 1 }), action).toBe(true);
    expect(actionPageAllowed(['user'], 'contractTemplates', 'delete')).toBe(true);
  });
});

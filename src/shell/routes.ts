/**
 * The product's route tree: the one definition the sidebar, the breadcrumbs, the tab strip, the page
 * titles, the role filter and the navigation guard all read.
 *
 * Shape and flags follow vue-element-admin's router (`src/router/index.js`), which the product's
 * operators know: `constantRoutes` are open to every signed-in user, `asyncRoutes` carry `meta.roles`
 * and are filtered per role (see `permission.ts`). A child `path` is relative to its parent's path
 * unless it starts with `/`. Titles: see `RouteMeta.title`.
 *
 * This file holds only the pages that are not resources (dashboard, 401/404, profile, settings, the
 * blockchain section's pages, the sections without screens). Every resource's routes — list at the
 * product's path, show/create/edit and each of their tabs at react-admin's paths, its own child routes,
 * the react-admin list alias — are built from its schema's `x-resource` (`resourceRoutes.ts`) and put
 * under the group route it names, so they get a title, a tab, breadcrumbs and a role check.
 *
 * What a route renders is named by `screen` (resolved to a component in `src/layout/screens.tsx`):
 * - `{ resource, view }`: a react-admin resource view. Lists are mounted at the product's path
 *   (e.g. `/industry/authors`); show/create/edit and child routes are react-admin's own.
 * - `{ page }`: one of the shell's own pages or the ledger section's screens.
 * - no `screen` on a leaf: the translated "not available yet" page with the route's title.
 */

import { generatedResources } from '../generated/resources';
import { withResourceRoutes } from './resourceRoutes';

/** Per-route flags, as in vue-element-admin's `meta`. */
export interface RouteMeta {
  /**
   * The title: a key relative to `shell.route.` (`authors`, src/layout/i18n.ts); or a resource's
   * generated label `resources.<name>.name` (plural); or `resources.<name>.name#<show|create|edit>`,
   * the derived `shell.view.<view>` title with the singular label (src/layout/routeTitle.ts).
   */
  title?: string;
  /** Icon name, resolved in `src/layout/icons.tsx`. */
  icon?: string;
  /** Roles that may see the route; absent = open to every signed-in user. */
  roles?: string[];
  /** Not kept alive: its tab forgets scroll position when left. */
  noCache?: boolean;
  /** Needs no authorisation of its own (detail and add pages): it inherits its parent's. */
  noAuth?: boolean;
  /** Tab pinned in the tab strip, cannot be closed. */
  affix?: boolean;
  /** `false` hides the route from the breadcrumbs. */
  breadcrumb?: boolean;
  /** Menu entry to highlight while this (hidden) route is shown. */
  activeMenu?: string;
  /**
   * A tab of the page at this path pattern (e.g. `/artworks/:id/show` for `/artworks/:id/show/dealInfo`):
   * the tab strip keeps one entry for the page, which returns to the last tab shown.
   */
  tabOf?: string;
}

/** What a route renders; see the module docstring. */
export type Screen =
  | { resource: string; view: 'list' | 'show' | 'create' | 'edit' | 'child' }
  | { page: ShellPage | LedgerScreen };

/** The shell's own pages (`src/layout/pages/`). */
export type ShellPage =
  | 'dashboard'
  | 'profile'
  | 'page401'
  | 'page404'
  | 'redirect'
  | 'authRedirect'
  | 'switchRoles'
  | 'roleMatrix'
  | 'password'
  | 'messages'
  | 'tracking'
  | 'sentNotifications'
  | 'groupIndex';

/** The ledger section's screens, exported by `src/resources/blockchain/index.tsx`. */
export type LedgerScreen =
  | 'BlockchainDashboard'
  | 'ChannelList'
  | 'ChannelShow'
  | 'ChaincodeList'
  | 'ChaincodeShow'
  | 'BlockShow'
  | 'TransactionShow'
  | 'ChainSearch';

/** One node of the route tree. */
export interface ShellRoute {
  /** Absolute (`/x`) or relative to the parent; `:name` is one segment, `*name` the rest of the path. */
  path: string;
  /** Unique name. Named routes become tabs. */
  name?: string;
  /** Not in the sidebar. */
  hidden?: boolean;
  /**
   * Where the path itself goes (`:name` segments are filled from the path's parameters, the query string
   * is kept); `'noRedirect'` makes its breadcrumb plain text (a group, not a link).
   */
  redirect?: string;
  /** Show as a group in the sidebar even with a single visible child. */
  alwaysShow?: boolean;
  /** Constraints on path parameters, e.g. `{ id: /^\d+$/ }` (digits only). */
  params?: Record<string, RegExp>;
  /** Needs no token (`/login`, `/auth-redirect`, `/401`, `/404`). */
  public?: boolean;
  meta?: RouteMeta;
  screen?: Screen;
  children?: ShellRoute[];
}

const DIGITS = /^\d+$/;
/** Flags of hidden detail/add pages: no separate authorisation, not cached, menu entry highlighted. */
const detail = (activeMenu: string) => ({ noAuth: true, noCache: true, activeMenu });

/**
 * A sidebar group as vue-element-admin writes one (`redirect: 'noRedirect'`, `alwaysShow: true`): its
 * breadcrumb is plain text and it stays a group even with one visible child; its path is `/<name>` and
 * its title is its name.
 * `roles` absent = open to every signed-in user.
 */
function group(name: string, icon: string, roles: string[] | undefined, children: ShellRoute[]): ShellRoute {
  return {
    path: `/${name}`,
    name,
    redirect: 'noRedirect',
    alwaysShow: true,
    meta: { title: name, icon, ...(roles ? { roles } : {}) },
    children,
  };
}

/** A sidebar entry whose path (relative), name and title are the one word `name`; no screen of its own. */
const entry = (name: string, icon: string): ShellRoute => ({ path: name, name, meta: { title: name, icon } });

/** A sidebar entry showing `page`, titled `name` unless `meta` says otherwise (`meta` adds to title and icon). */
const pageEntry = (
  path: string,
  name: string,
  icon: string,
  page: ShellPage | LedgerScreen,
  meta: RouteMeta = {},
): ShellRoute => ({ path, name, meta: { title: name, icon, ...meta }, screen: { page } });

/**
 * A hidden detail page titled `name` showing `page`, under the menu entry `activeMenu` (flags: `detail`);
 * `params` constrains its path parameters.
 */
const detailPage = (
  path: string,
  name: string,
  activeMenu: string,
  page: LedgerScreen,
  params?: Record<string, RegExp>,
): ShellRoute => ({
  path,
  name,
  hidden: true,
  ...(params ? { params } : {}),
  meta: { title: name, ...detail(activeMenu) },
  screen: { page },
});

/**
 * Routes every signed-in user has (and the public ones). Order matters only for the sidebar.
 */
export const constantRoutes: ShellRoute[] = [
  { path: '/redirect/*path', hidden: true, screen: { page: 'redirect' } },
  { path: '/login', hidden: true, public: true },
  { path: '/auth-redirect', hidden: true, public: true, screen: { page: 'authRedirect' } },
  { path: '/404', hidden: true, meta: { title: 'page404' }, screen: { page: 'page404' } },
  { path: '/401', hidden: true, meta: { title: 'page401' }, screen: { page: 'page401' } },
  {
    path: '/',
    redirect: '/dashboard',
    children: [
      {
        path: 'dashboard',
        name: 'dashboard',
        // Pinned and not cached (spec §2): coming back to it starts at the top.
        meta: { title: 'dashboard', icon: 'Dashboard', affix: true, noCache: true },
        screen: { page: 'dashboard' },
      },
    ],
  },
  {
    path: '/profile',
    redirect: '/profile/index',
    hidden: true,
    children: [
      {
        path: 'index',
        name: 'profile',
        meta: { title: 'profile', icon: 'Person', noCache: true },
        screen: { page: 'profile' },
      },
    ],
  },
];

/**
 * The hand-written routes filtered by role (`meta.roles`): the pages that are not resources. The
 * resources' routes are added from their schemas (`asyncRoutes` below).
 */
export const handWrittenAsyncRoutes: ShellRoute[] = [
  // ---------------------------------------------------------------- admin: the art-works registry
  group(
    'industry',
    'Factory',
    ['admin'],
    [
      {
        path: 'artwork',
        name: 'artwork',
        redirect: 'noRedirect',
        alwaysShow: true,
        meta: { title: 'artwork', icon: 'Palette' },
        // The registry's resources (authors, artworks, bid users, platform users) come from their
        // schemas' x-resource (group "industry/artwork"): see resourceRoutes.ts.
        children: [],
      },
      // The product's level "groups" (spec §2: Industry → groups → authors, artWork, bidUser, users):
      // a page of its own listing that level's pages (the Art registry menu group), not in the sidebar.
      {
        path: 'groups',
        name: 'groups',
        hidden: true,
        meta: { title: 'groups', activeMenu: '/industry/artwork' },
        screen: { page: 'groupIndex' },
      },
      entry('approval', 'FactCheck'),
      entry('entering', 'PostAdd'),
    ],
  ),
  // Role company (a company's administrators) sees Messages only; every other entry is admin's.
  group(
    'medicine',
    'LocalHospital',
    ['admin', 'company'],
    [
      // The companies resource (x-resource group "medicine") comes first: see resourceRoutes.ts.
      // The product's add/set paths forward to react-admin's create and edit paths above; set-company
      // without an id goes to the list (pick the company there).
      { path: '/companies/add-company', hidden: true, redirect: '/companies/create' },
      { path: '/companies/set-company', hidden: true, redirect: '/medicine/companies' },
      {
        path: '/companies/set-company/:id',
        hidden: true,
        params: { id: DIGITS },
        redirect: '/companies/:id',
      },
      // Smart-contract templates are a resource (x-resource group "medicine", /medicine/smContract).
      // Add smart contract is the contracts resource's create form (a contract from a template); the
      // template's row button passes it as react-admin's prefill (`?source=`), which the redirect keeps.
      { path: '/smContract/add', hidden: true, redirect: '/contracts/create' },
      // Notification (`notification`) is the notifications resource (x-resource group "medicine").
      pageEntry('tacking', 'tacking', 'LocalShipping', 'tracking', { roles: ['admin'] }),
      pageEntry('messages', 'messages', 'Mail', 'messages', { roles: ['company'] }),
    ],
  ),
  {
    path: '/agriculture',
    name: 'agriculture',
    meta: { title: 'agriculture', icon: 'Agriculture', roles: ['admin'] },
  },
  group(
    'permission',
    'Lock',
    ['admin'],
    [
      pageEntry('notifications', 'permissionNotifications', 'Notifications', 'sentNotifications', {
        title: 'notifications',
      }),
      // Permission > User is the accounts resource (x-resource group "permission"): see resourceRoutes.ts.
      pageEntry('role', 'permissionRole', 'AdminPanelSettings', 'roleMatrix'),
    ],
  ),
  group(
    'audit',
    'Policy',
    ['admin'],
    [
      { path: 'distributed', name: 'auditDistributed', meta: { title: 'distributed', icon: 'AccountTree' } },
      // Audit > System is the auditEntries resource (x-resource group "audit"): see resourceRoutes.ts.
    ],
  ),
  group(
    'measure',
    'Straighten',
    ['admin'],
    [entry('emendation', 'EditNote'), entry('cut', 'ContentCut'), entry('recover', 'Restore')],
  ),
  group(
    'interflow',
    'SwapHoriz',
    ['admin'],
    [entry('isomorphism', 'Hub'), entry('communication', 'Forum'), entry('cooperation', 'Handshake')],
  ),
  // ---------------------------------------------------------------- user: the blockchain service
  group(
    'baas',
    'Link',
    ['user'],
    [
      pageEntry('fabric', 'fabric', 'ViewInAr', 'BlockchainDashboard'),
      entry('etherUme', 'CurrencyBitcoin'),
      entry('BeijingChain', 'AccountBalance'),
      detailPage('channel', 'channels', '/baas/fabric', 'ChannelList'),
      detailPage('channel/:id', 'channel', '/baas/fabric', 'ChannelShow', { id: DIGITS }),
      // A sidebar entry of its own (issue 12: it was reachable only through a dashboard card).
      pageEntry('chainCode', 'chainCodes', 'Code', 'ChaincodeList'),
      detailPage('chainCode/:id', 'chainCode', '/baas/chainCode', 'ChaincodeShow', { id: DIGITS }),
      detailPage('block/:channelId/:number', 'block', '/baas/fabric', 'BlockShow', {
        channelId: DIGITS,
        number: DIGITS,
      }),
      detailPage('transaction/:txId', 'transaction', '/baas/fabric', 'TransactionShow'),
      detailPage('search', 'chainSearch', '/baas/fabric', 'ChainSearch'),
    ],
  ),
  group(
    'data',
    'Storage',
    ['user'],
    [
      // Pigeonhole (archivedRecords, /data/pigeonhole) and Contracts (contracts, /data/contract) are
      // resources (x-resource group "data"): see resourceRoutes.ts. The product's new-contract path is
      // the contracts resource's create form.
      { path: '/contract/new', hidden: true, redirect: '/contracts/create' },
    ],
  ),
  { path: '/support', name: 'support', meta: { title: 'support', icon: 'SupportAgent', roles: ['user'] } },
  {
    path: '/billing',
    name: 'billing',
    redirect: '/billing/page',
    alwaysShow: true,
    meta: { title: 'billing', icon: 'ReceiptLong', roles: ['user'] },
    children: [
      { path: 'page', name: 'billingPage', meta: { title: 'billingPage', icon: 'Receipt' } },
      { path: 'cycle', name: 'billingCycle', meta: { title: 'billingCycle', icon: 'EventRepeat' } },
    ],
  },
  group(
    'vessel',
    'Inventory2',
    ['user'],
    [
      // Kubernetes and Docker: two entries into the containers screen, not in this version.
      entry('k8s', 'Sailing'),
      entry('docker', 'DirectionsBoat'),
    ],
  ),
  group(
    'set',
    'Settings',
    ['user'],
    [
      pageEntry('password', 'password', 'Password', 'password'),
      entry('qkCorrelation', 'Key'),
      entry('secret', 'VpnKey'),
      group('protect', 'Shield', undefined, [
        entry('consensus', 'HowToVote'),
        { path: 'account', name: 'protectAccount', meta: { title: 'protectAccount', icon: 'AccountCircle' } },
      ]),
    ],
  ),
];

/**
 * Routes filtered by role (`meta.roles`); `admin` gets all of them: the hand-written ones with every
 * schema-declared resource's routes under its `x-resource.group` (resourceRoutes.ts).
 */
export const asyncRoutes: ShellRoute[] = withResourceRoutes(handWrittenAsyncRoutes, generatedResources);

/** Every route, for matching a path before the role check. */
export const allRoutes: ShellRoute[] = [...constantRoutes, ...asyncRoutes];

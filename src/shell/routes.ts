/**
 * The product's route tree: the one definition the sidebar, the breadcrumbs, the tab strip, the page
 * titles, the role filter and the navigation guard all read.
 *
 * Shape and flags follow vue-element-admin's router (`src/router/index.js`), which the product's
 * operators know: `constantRoutes` are open to every signed-in user, `asyncRoutes` carry `meta.roles`
 * and are filtered per role (see `permission.ts`). A child `path` is relative to its parent's path
 * unless it starts with `/`. Titles are i18n keys under `shell.route.*` (`src/layout/i18n.ts`).
 *
 * What a route renders is named by `screen` (resolved to a component in `src/layout/screens.tsx`):
 * - `{ resource, view }`: a react-admin resource view. Lists are mounted at the product's path
 *   (e.g. `/industry/authors`); show/create/edit (and a resource's own child routes, `child`) use
 *   react-admin's paths (`/authors/:id/show`), declared here so they get a title, a tab, breadcrumbs
 *   and a role check.
 * - `{ page }`: one of the shell's own pages or the ledger section's screens.
 * - no `screen` on a leaf: the translated "not available yet" page with the route's title.
 */

/** Per-route flags, as in vue-element-admin's `meta`. */
export interface RouteMeta {
  /** i18n key of the title, relative to `shell.route.` (e.g. `authors`). */
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
  | 'containers';

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
        meta: { title: 'dashboard', icon: 'Dashboard', affix: true },
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

/** A react-admin resource list path that forwards to the product's path (keeps the query string). */
const alias = (from: string, to: string): ShellRoute => ({ path: from, hidden: true, redirect: to });

/** Routes filtered by role (`meta.roles`). `admin` gets all of them. */
export const asyncRoutes: ShellRoute[] = [
  // ---------------------------------------------------------------- admin: the art-works registry
  {
    path: '/industry',
    name: 'industry',
    redirect: 'noRedirect',
    alwaysShow: true,
    meta: { title: 'industry', icon: 'Factory', roles: ['admin'] },
    children: [
      {
        path: 'artwork',
        name: 'artwork',
        redirect: 'noRedirect',
        alwaysShow: true,
        meta: { title: 'artwork', icon: 'Palette' },
        children: [
          {
            path: '/industry/authors',
            name: 'authors',
            meta: { title: 'authors', icon: 'Person' },
            screen: { resource: 'authors', view: 'list' },
          },
          {
            path: '/authors/:id/show',
            name: 'authorDetails',
            hidden: true,
            meta: { title: 'authorDetails', ...detail('/industry/authors') },
            screen: { resource: 'authors', view: 'show' },
          },
          {
            path: '/authors/create',
            name: 'addAuthor',
            hidden: true,
            meta: { title: 'addAuthor', ...detail('/industry/authors') },
            screen: { resource: 'authors', view: 'create' },
          },
          {
            path: '/authors/:id',
            name: 'editAuthor',
            hidden: true,
            meta: { title: 'editAuthor', ...detail('/industry/authors') },
            screen: { resource: 'authors', view: 'edit' },
          },
          {
            // A child route of the authors resource (src/resources/authors).
            path: '/authors/:id/works',
            name: 'lookWorks',
            hidden: true,
            meta: { title: 'lookWorks', ...detail('/industry/authors') },
            screen: { resource: 'authors', view: 'child' },
          },
          {
            path: '/industry/artWork',
            name: 'artWork',
            meta: { title: 'artWork', icon: 'Image' },
            screen: { resource: 'artworks', view: 'list' },
          },
          {
            path: '/artworks/create',
            name: 'addArtworkOne',
            hidden: true,
            meta: { title: 'addArtworkOne', ...detail('/industry/artWork') },
            screen: { resource: 'artworks', view: 'create' },
          },
          {
            path: '/artworks/:id',
            name: 'addArtworkTwo',
            hidden: true,
            meta: { title: 'addArtworkTwo', ...detail('/industry/artWork') },
            screen: { resource: 'artworks', view: 'edit' },
          },
          {
            path: '/artworks/:id/show',
            name: 'artWorkDetails',
            hidden: true,
            meta: { title: 'artWorkDetails', ...detail('/industry/artWork') },
            screen: { resource: 'artworks', view: 'show' },
          },
          {
            path: '/industry/bidUser',
            name: 'bidUser',
            meta: { title: 'bidUser', icon: 'Gavel' },
            screen: { resource: 'bidUsers', view: 'list' },
          },
          {
            path: '/bidUsers/:id/show',
            name: 'bidUserDetail',
            hidden: true,
            meta: { title: 'bidUserDetail', ...detail('/industry/bidUser') },
            screen: { resource: 'bidUsers', view: 'show' },
          },
          {
            path: '/industry/users',
            name: 'users',
            meta: { title: 'users', icon: 'People' },
            screen: { resource: 'platformUsers', view: 'list' },
          },
          {
            path: '/platformUsers/:id/show',
            name: 'userDetails',
            hidden: true,
            meta: { title: 'userDetails', ...detail('/industry/users') },
            screen: { resource: 'platformUsers', view: 'show' },
          },
        ],
      },
      { path: 'approval', name: 'approval', meta: { title: 'approval', icon: 'FactCheck' } },
      { path: 'entering', name: 'entering', meta: { title: 'entering', icon: 'PostAdd' } },
    ],
  },
  {
    path: '/medicine',
    name: 'medicine',
    redirect: 'noRedirect',
    alwaysShow: true,
    meta: { title: 'medicine', icon: 'LocalHospital', roles: ['admin'] },
    children: [
      {
        path: 'companies',
        name: 'companies',
        meta: { title: 'companies', icon: 'Business' },
        screen: { resource: 'companies', view: 'list' },
      },
      {
        path: '/companies/create',
        name: 'addCompany',
        hidden: true,
        meta: { title: 'addCompany', ...detail('/medicine/companies') },
        screen: { resource: 'companies', view: 'create' },
      },
      {
        path: '/companies/:id',
        name: 'setCompany',
        hidden: true,
        params: { id: DIGITS },
        meta: { title: 'setCompany', ...detail('/medicine/companies') },
        screen: { resource: 'companies', view: 'edit' },
      },
      {
        path: '/companies/:id/show',
        name: 'companyDetails',
        hidden: true,
        params: { id: DIGITS },
        meta: { title: 'companyDetails', ...detail('/medicine/companies') },
        screen: { resource: 'companies', view: 'show' },
      },
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
      {
        path: '/smContract/add',
        name: 'addSmContract',
        hidden: true,
        meta: { title: 'addSmContract', ...detail('/medicine/companies') },
      },
      { path: 'tacking', name: 'tacking', meta: { title: 'tacking', icon: 'LocalShipping' } },
      {
        path: 'notification',
        name: 'medicineNotification',
        meta: { title: 'notification', icon: 'Campaign' },
      },
      { path: 'messages', name: 'messages', meta: { title: 'messages', icon: 'Mail' } },
    ],
  },
  {
    path: '/agriculture',
    name: 'agriculture',
    meta: { title: 'agriculture', icon: 'Agriculture', roles: ['admin'] },
  },
  {
    path: '/permission',
    name: 'permission',
    redirect: 'noRedirect',
    alwaysShow: true,
    meta: { title: 'permission', icon: 'Lock', roles: ['admin'] },
    children: [
      {
        path: 'notifications',
        name: 'permissionNotifications',
        meta: { title: 'notifications', icon: 'Notifications' },
      },
      { path: 'user', name: 'permissionUser', meta: { title: 'permissionUser', icon: 'ManageAccounts' } },
      {
        path: 'role',
        name: 'permissionRole',
        meta: { title: 'permissionRole', icon: 'AdminPanelSettings' },
        screen: { page: 'switchRoles' },
      },
    ],
  },
  {
    path: '/audit',
    name: 'audit',
    redirect: 'noRedirect',
    alwaysShow: true,
    meta: { title: 'audit', icon: 'Policy', roles: ['admin'] },
    children: [
      { path: 'distributed', name: 'auditDistributed', meta: { title: 'distributed', icon: 'AccountTree' } },
      { path: 'system', name: 'auditSystem', meta: { title: 'system', icon: 'Computer' } },
    ],
  },
  {
    path: '/measure',
    name: 'measure',
    redirect: 'noRedirect',
    alwaysShow: true,
    meta: { title: 'measure', icon: 'Straighten', roles: ['admin'] },
    children: [
      { path: 'emendation', name: 'emendation', meta: { title: 'emendation', icon: 'EditNote' } },
      { path: 'cut', name: 'cut', meta: { title: 'cut', icon: 'ContentCut' } },
      { path: 'recover', name: 'recover', meta: { title: 'recover', icon: 'Restore' } },
    ],
  },
  {
    path: '/interflow',
    name: 'interflow',
    redirect: 'noRedirect',
    alwaysShow: true,
    meta: { title: 'interflow', icon: 'SwapHoriz', roles: ['admin'] },
    children: [
      { path: 'isomorphism', name: 'isomorphism', meta: { title: 'isomorphism', icon: 'Hub' } },
      { path: 'communication', name: 'communication', meta: { title: 'communication', icon: 'Forum' } },
      { path: 'cooperation', name: 'cooperation', meta: { title: 'cooperation', icon: 'Handshake' } },
    ],
  },
  // ---------------------------------------------------------------- user: the blockchain service
  {
    path: '/baas',
    name: 'baas',
    redirect: 'noRedirect',
    alwaysShow: true,
    meta: { title: 'baas', icon: 'Link', roles: ['user'] },
    children: [
      {
        path: 'fabric',
        name: 'fabric',
        meta: { title: 'fabric', icon: 'ViewInAr' },
        screen: { page: 'BlockchainDashboard' },
      },
      { path: 'etherUme', name: 'etherUme', meta: { title: 'etherUme', icon: 'CurrencyBitcoin' } },
      { path: 'BeijingChain', name: 'BeijingChain', meta: { title: 'BeijingChain', icon: 'AccountBalance' } },
      {
        path: 'channel',
        name: 'channels',
        hidden: true,
        meta: { title: 'channels', ...detail('/baas/fabric') },
        screen: { page: 'ChannelList' },
      },
      {
        path: 'channel/:id',
        name: 'channel',
        hidden: true,
        params: { id: DIGITS },
        meta: { title: 'channel', ...detail('/baas/fabric') },
        screen: { page: 'ChannelShow' },
      },
      {
        path: 'chainCode',
        name: 'chainCodes',
        hidden: true,
        meta: { title: 'chainCodes', ...detail('/baas/fabric') },
        screen: { page: 'ChaincodeList' },
      },
      {
        path: 'chainCode/:id',
        name: 'chainCode',
        hidden: true,
        params: { id: DIGITS },
        meta: { title: 'chainCode', ...detail('/baas/fabric') },
        screen: { page: 'ChaincodeShow' },
      },
      {
        path: 'block/:channelId/:number',
        name: 'block',
        hidden: true,
        params: { channelId: DIGITS, number: DIGITS },
        meta: { title: 'block', ...detail('/baas/fabric') },
        screen: { page: 'BlockShow' },
      },
      {
        path: 'transaction/:txId',
        name: 'transaction',
        hidden: true,
        meta: { title: 'transaction', ...detail('/baas/fabric') },
        screen: { page: 'TransactionShow' },
      },
      {
        path: 'search',
        name: 'chainSearch',
        hidden: true,
        meta: { title: 'chainSearch', ...detail('/baas/fabric') },
        screen: { page: 'ChainSearch' },
      },
    ],
  },
  {
    path: '/data',
    name: 'data',
    redirect: 'noRedirect',
    alwaysShow: true,
    meta: { title: 'data', icon: 'Storage', roles: ['user'] },
    children: [
      { path: 'pigeonhole', name: 'pigeonhole', meta: { title: 'pigeonhole', icon: 'Inventory' } },
      { path: 'contract', name: 'contract', meta: { title: 'contract', icon: 'Description' } },
      {
        path: '/contract/new',
        name: 'newContract',
        hidden: true,
        meta: { title: 'newContract', ...detail('/data/contract') },
      },
    ],
  },
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
  {
    path: '/vessel',
    name: 'vessel',
    redirect: 'noRedirect',
    alwaysShow: true,
    meta: { title: 'vessel', icon: 'Inventory2', roles: ['user'] },
    children: [
      // Kubernetes and Docker are two entries into the same containers screen.
      { path: 'k8s', name: 'k8s', meta: { title: 'k8s', icon: 'Sailing' }, screen: { page: 'containers' } },
      {
        path: 'docker',
        name: 'docker',
        meta: { title: 'docker', icon: 'DirectionsBoat' },
        screen: { page: 'containers' },
      },
    ],
  },
  {
    path: '/set',
    name: 'set',
    redirect: 'noRedirect',
    alwaysShow: true,
    meta: { title: 'set', icon: 'Settings', roles: ['user'] },
    children: [
      { path: 'password', name: 'password', meta: { title: 'password', icon: 'Password' } },
      { path: 'qkCorrelation', name: 'qkCorrelation', meta: { title: 'qkCorrelation', icon: 'Key' } },
      { path: 'secret', name: 'secret', meta: { title: 'secret', icon: 'VpnKey' } },
      {
        path: '/protect',
        name: 'protect',
        redirect: 'noRedirect',
        alwaysShow: true,
        meta: { title: 'protect', icon: 'Shield' },
        children: [
          { path: 'consensus', name: 'consensus', meta: { title: 'consensus', icon: 'HowToVote' } },
          {
            path: 'account',
            name: 'protectAccount',
            meta: { title: 'protectAccount', icon: 'AccountCircle' },
          },
        ],
      },
    ],
  },
  // react-admin's own list paths forward to the product's paths (after a create or delete, react-admin
  // goes back to `/<resource>`).
  { ...alias('/authors', '/industry/authors'), meta: { roles: ['admin'] } },
  { ...alias('/artworks', '/industry/artWork'), meta: { roles: ['admin'] } },
  { ...alias('/bidUsers', '/industry/bidUser'), meta: { roles: ['admin'] } },
  { ...alias('/platformUsers', '/industry/users'), meta: { roles: ['admin'] } },
  { ...alias('/companies', '/medicine/companies'), meta: { roles: ['admin'] } },
];

/** Every route, for matching a path before the role check. */
export const allRoutes: ShellRoute[] = [...constantRoutes, ...asyncRoutes];

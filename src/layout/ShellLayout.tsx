/**
 * The console's react-admin `Layout` (`<Admin layout={ShellLayout}>`): vue-element-admin's frame —
 * sidebar (210 px, collapsible, mobile drawer under 992 px), top bar (breadcrumbs, full screen,
 * size, language, avatar menu), tab strip of visited pages, settings drawer, error log, and the
 * "logged out" dialog — around react-admin's pages.
 *
 * It also runs the navigation guard (`decideNavigation`): redirects, the 401 page for routes the
 * roles do not allow, the page title `<route title> - <product title>`, the last route in session
 * storage, and scrolling (top for a new page, the saved position for a kept-alive tab). The pages of cached
 * tabs are kept as they were left (`KeepAlive`, ./keepAlive.tsx).
 */
import { useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type ReactNode } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { useLocation, useNavigate } from 'react-router';
import { Box, CircularProgress, CssBaseline, GlobalStyles, useMediaQuery } from '@mui/material';
import { ThemeProvider } from '@mui/material/styles';
import { Error as RaError, useGetOne, useTranslate } from 'react-admin';
import { generatedResources } from '../generated/resources';
import { decideNavigation } from '../shell/permission';
import { flattenRoutes, matchRoute } from '../shell/router';
import { allRoutes } from '../shell/routes';
import { LAST_ROUTE_KEY } from '../shell/session';
import {
  initTags,
  tagPathOf,
  tagsReducer,
  type TagsAction,
  type TagsState,
  type VisitedView,
} from '../shell/tagsView';
import { rememberedAccount, setPreferencesAccount, setSidebarOpened } from '../shell/preferences';
import { addErrorLog } from '../shell/errorLog';
import { ShellContext, usePreferences, useShellSession, type ShellState } from './ShellContext';
import { createShellTheme, SHELL } from './theme';
import { REDUCED_MOTION_QUERY } from './motion';
import { Sidebar } from './Sidebar';
import { Navbar } from './Navbar';
import { TagsView } from './TagsView';
import { LoggedOutDialog } from './LoggedOutDialog';
import { KeepAlive } from './keepAlive';
import { LiveUpdates } from '../live/LiveUpdates';
import { Page401 } from './pages/ErrorPages';
import { recordTagText, routeTitle } from './routeTitle';

/** Pinned tabs, from the route tree's `meta.affix`. */
const AFFIX_VIEWS: VisitedView[] = flattenRoutes(allRoutes)
  .filter((f) => f.route.meta?.affix && f.route.name)
  .map((f) => ({
    name: f.route.name!,
    path: f.fullPath,
    fullPath: f.fullPath,
    title: f.route.meta!.title!,
    affix: true,
    noCache: f.route.meta?.noCache,
  }));

/** The match of the 401 route, shown in place of a page the roles do not allow. */
const UNAUTHORIZED_MATCH = matchRoute(allRoutes, '/401');

/** The tab-strip reducer with React's two-argument signature. */
const reduceTags = (state: TagsState, action: TagsAction) => tagsReducer(state, action);

/** Saved window scroll positions of kept-alive views, by path. */
const scrollPositions = new Map<string, number>();

/** How long (ms) a kept-alive page's scroll position is tried again while its content is still loading. */
const RESTORE_MS = 5000;

/** True when the page is narrower than the mobile breakpoint (vue-element-admin ResizeHandler). */
function isMobileWidth(): boolean {
  return document.body.getBoundingClientRect().width - 1 < SHELL.mobileBreakpoint;
}

/** The react-admin Layout; see the module docstring. */
export function ShellLayout({ children }: { children?: ReactNode }) {
  const prefs = usePreferences();
  // The system's "reduce motion" setting, followed live (src/layout/motion.ts).
  const reducedMotion = useMediaQuery(REDUCED_MOTION_QUERY, { noSsr: true });
  const theme = useMemo(
    () => createShellTheme({ color: prefs.settings.theme, size: prefs.size, reducedMotion }),
    [prefs.settings.theme, prefs.size, reducedMotion],
  );
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <ShellFrame>{children}</ShellFrame>
    </ThemeProvider>
  );
}

function ShellFrame({ children }: { children?: ReactNode }) {
  const translate = useTranslate();
  const location = useLocation();
  const navigate = useNavigate();
  const prefs = usePreferences();
  const session = useShellSession();
  const [tags, dispatchTags] = useReducer(reduceTags, AFFIX_VIEWS, initTags);
  const [mobile, setMobile] = useState(isMobileWidth);
  const [withoutAnimation, setWithoutAnimation] = useState(isMobileWidth);

  const decision = decideNavigation({
    path: location.pathname,
    search: location.search,
    hasToken: !!session.token,
    roles: session.roles,
  });
  const match = decision.kind === 'allow' ? decision.match : undefined;

  // The settings drawer's choices are the signed-in account's own (src/shell/preferences.ts): the account
  // the user info names, or until it answers the one this session's token was last seen to belong to
  // (applied before the first paint, so a reload does not flash the defaults).
  const named = session.info?.account ?? null;
  const account = named ?? rememberedAccount(session.token);
  useLayoutEffect(() => {
    if (account !== null) setPreferencesAccount(account, named !== null ? session.token : undefined);
  }, [account, named, session.token]);
  useEffect(() => () => setPreferencesAccount(null), []);
  // The 401 page shown in place keeps its own title and breadcrumbs.
  const shown = match ?? (decision.kind === 'unauthorized' ? (UNAUTHORIZED_MATCH ?? undefined) : undefined);

  // Guard: redirects replace the entry, as vue-router's `next(path)` does.
  useEffect(() => {
    if (decision.kind === 'redirect') navigate(decision.to, { replace: true });
  }, [decision.kind, decision.kind === 'redirect' ? decision.to : '', navigate]);

  // Device: mobile under 992 px, re-evaluated on resize; the sidebar closes without animation.
  useEffect(() => {
    const onResize = () => {
      if (document.hidden) return;
      const m = isMobileWidth();
      setMobile(m);
      if (m) {
        setWithoutAnimation(true);
        setSidebarOpened(false, false);
      }
    };
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  // Route change: close the mobile sidebar.
  useEffect(() => {
    if (mobile && prefs.sidebarOpened) {
      setWithoutAnimation(false);
      setSidebarOpened(false, false);
    }
  }, [location.pathname]);

  // Allowed route: tab, page title, last route.
  const routeName = match?.route.name;
  const titleKey = shown?.route.meta?.title;
  const fullPath = location.pathname + location.search;
  useEffect(() => {
    if (!match || match.route.public) return;
    if (!location.pathname.startsWith('/redirect/')) sessionStorage.setItem(LAST_ROUTE_KEY, fullPath);
    if (routeName && titleKey) {
      dispatchTags({
        type: 'add',
        view: {
          name: routeName,
          path: tagPathOf(match, location.pathname),
          fullPath,
          title: titleKey,
          affix: match.route.meta?.affix,
          noCache: match.route.meta?.noCache,
        },
      });
    }
  }, [fullPath, routeName]);

  // A record's page names its tab after the record, from the same getOne the page makes (react-admin's
  // query cache: no second request).
  const screen = match?.route.screen;
  const recordResource =
    screen && 'resource' in screen && (screen.view === 'show' || screen.view === 'edit') && match?.params.id
      ? screen.resource
      : undefined;
  const { data: record } = useGetOne(
    recordResource ?? '',
    { id: match?.params.id ?? '' },
    { enabled: !!recordResource },
  );
  const rep = generatedResources.find((r) => r.name === recordResource)?.recordRepresentation;
  const recordValue = record && rep ? (record as Record<string, unknown>)[rep] : undefined;
  const recordName =
    record && String(record.id) === match?.params.id
      ? recordValue !== undefined && recordValue !== null && recordValue !== ''
        ? String(recordValue)
        : `#${record.id}`
      : undefined;
  const tagPath = match ? tagPathOf(match, location.pathname) : undefined;
  const recordView = screen && 'resource' in screen && screen.view === 'edit' ? 'edit' : 'show';
  // The page title names the record too, as its tab does ("Artwork: Sunset - <product>").
  useEffect(() => {
    const product = translate('shell.productTitle');
    const page =
      recordResource && recordName
        ? recordTagText(translate, { resource: recordResource, name: recordName, view: recordView })
        : titleKey
          ? routeTitle(translate, titleKey)
          : undefined;
    document.title = page ? `${page} - ${product}` : product;
  }, [titleKey, translate, recordResource, recordName, recordView]);
  useEffect(() => {
    if (recordResource && recordName && tagPath)
      dispatchTags({
        type: 'record',
        path: tagPath,
        record: { resource: recordResource, name: recordName, view: recordView },
      });
  }, [recordResource, recordName, recordView, tagPath, routeName]);

  // Scroll: save the position of the page we leave; restore a kept-alive page, else go to the top. A scroll
  // event is the page's whose path is `scrolledPath` when it fires: the path changes in the same commit as
  // the page, so the events of that change (the scroll to the top, the clamp to a shorter page) are the new
  // page's and never overwrite the position the left page was at.
  const previousPath = useRef(location.pathname);
  const scrolledPath = useRef(location.pathname);
  const cachedRef = useRef(tags.cached);
  cachedRef.current = tags.cached;
  useLayoutEffect(() => {
    const prev = previousPath.current;
    previousPath.current = location.pathname;
    scrolledPath.current = location.pathname;
    if (prev === location.pathname) return;
    const saved = tagPath && cachedRef.current.includes(tagPath) ? scrollPositions.get(location.pathname) : 0;
    window.scrollTo(0, 0);
    if (!saved) return;
    // The page may not be tall enough yet (a list refetching its rows): try again on each frame until the
    // position is reached, for at most RESTORE_MS, unless the operator scrolls or leaves first.
    const start = performance.now();
    const page = location.pathname;
    let stopped = false;
    const stop = () => {
      stopped = true;
    };
    const inputs = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;
    inputs.forEach((e) => window.addEventListener(e, stop, { once: true, passive: true }));
    const restore = () => {
      if (!stopped && previousPath.current === page) window.scrollTo(0, saved);
      const reached = Math.abs(window.scrollY - saved) <= 1;
      if (!stopped && !reached && previousPath.current === page && performance.now() - start < RESTORE_MS)
        requestAnimationFrame(restore);
      else inputs.forEach((e) => window.removeEventListener(e, stop));
    };
    requestAnimationFrame(restore);
  }, [location.pathname]);
  useEffect(() => {
    const onScroll = () => scrollPositions.set(scrolledPath.current, window.scrollY);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  // The pages kept mounted while hidden (./keepAlive.tsx): a record's show and edit pages and the add pages,
  // where an operator leaves a half-filled form or an open tab, when their route is cached. A list is
  // restored from react-admin's store (filters, sort, page) and its scroll position, not kept mounted.
  const keptScreen =
    !!screen &&
    'resource' in screen &&
    screen.view !== 'list' &&
    screen.view !== 'child' &&
    !match?.route.meta?.noCache;

  const state: ShellState = { ...session, match: shown, tags, dispatchTags, mobile, prefs };
  const opened = prefs.sidebarOpened;
  const sideWidth = mobile ? 0 : opened ? SHELL.sidebarWidth : SHELL.sidebarCollapsedWidth;
  const headerHeight = SHELL.navbarHeight + (prefs.settings.tagsView ? SHELL.tagsViewHeight : 0);
  const transition = withoutAnimation ? 'none' : 'margin-left .28s, width .28s';

  let content: ReactNode;
  if (decision.kind === 'allow') content = children;
  else if (decision.kind === 'unauthorized') content = <Page401 />;
  else
    content = (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
        <CircularProgress size={32} />
      </Box>
    );

  return (
    <ShellContext.Provider value={state}>
      <GlobalStyles styles={{ body: { backgroundColor: '#fff' } }} />
      <Box
        className={`app-wrapper ${mobile ? 'mobile' : 'desktop'} ${opened ? 'openSidebar' : 'hideSidebar'}`}
        data-device={mobile ? 'mobile' : 'desktop'}
        data-sidebar={opened ? 'opened' : 'closed'}
        sx={{ position: 'relative', minHeight: '100vh', width: '100%' }}
      >
        {mobile && opened && (
          <Box
            className="drawer-bg"
            data-testid="sidebar-backdrop"
            onClick={() => setSidebarOpened(false, false)}
            sx={{
              background: '#000',
              opacity: 0.3,
              width: '100%',
              top: 0,
              height: '100%',
              position: 'fixed',
              zIndex: 1200,
            }}
          />
        )}
        <Sidebar withoutAnimation={withoutAnimation} />
        <Box
          className="main-container"
          sx={{ minHeight: '100vh', ml: `${sideWidth}px`, transition, position: 'relative' }}
        >
          <Box
            className="header"
            sx={
              prefs.settings.fixedHeader
                ? {
                    position: 'fixed',
                    top: 0,
                    right: 0,
                    zIndex: 1100,
                    width: `calc(100% - ${sideWidth}px)`,
                    transition: withoutAnimation ? 'none' : 'width .28s',
                  }
                : {}
            }
          >
            <Navbar />
            {prefs.settings.tagsView && <TagsView />}
          </Box>
          <Box
            component="main"
            id="main-content"
            // The route pattern shown (e.g. `/artworks/:id/show`): tests wait on it for a page to be up.
            data-route={shown?.fullPath ?? ''}
            className="app-main"
            sx={{
              // border-box: the padding under the fixed header is part of the height.
              minHeight: prefs.settings.fixedHeader ? '100vh' : `calc(100vh - ${headerHeight}px)`,
              pt: prefs.settings.fixedHeader ? `${headerHeight}px` : 0,
              position: 'relative',
              overflow: 'hidden',
              bgcolor: 'background.default',
              // Every react-admin table scrolls sideways inside the page on a narrow screen instead of
              // being cut off by this container.
              '& .RaDataTable-tableWrapper, & .RaDatagrid-tableWrapper': { overflowX: 'auto' },
            }}
          >
            <Box sx={{ p: { xs: 1, md: 2 } }}>
              <ErrorBoundary
                resetKeys={[location.pathname]}
                onError={(error, info) => addErrorLog(error, info.componentStack ?? 'React render')}
                fallbackRender={({ error, resetErrorBoundary }) => (
                  <RaError error={error as Error} resetErrorBoundary={resetErrorBoundary} />
                )}
              >
                <KeepAlive
                  active={decision.kind === 'allow' && routeName && keptScreen ? tagPath : undefined}
                  tags={tags}
                  enabled={prefs.settings.tagsView}
                  fallback={content}
                >
                  {children}
                </KeepAlive>
              </ErrorBoundary>
            </Box>
          </Box>
        </Box>
        <LoggedOutDialog />
        {/* The session's live record events: lists and pages reload what others change (src/live). */}
        <LiveUpdates />
      </Box>
    </ShellContext.Provider>
  );
}

/**
 * The element-admin shell, as App.tsx uses it:
 *
 * ```tsx
 * <Admin layout={ShellLayout} authProvider={withShellSession(authProvider)} theme={initialShellTheme()}
 *        notification={ShellNotification} catchAll={Page404} ...>
 *   <CustomRoutes>{shellRoutes({ resources: { authors, artworks, bidUsers, platformUsers }, ledger })}</CustomRoutes>
 *   <CustomRoutes noLayout>{shellNoLayoutRoutes()}</CustomRoutes>
 *   ...resources
 * </Admin>
 * ```
 * The dashboard is a shell route (`/dashboard`, `/` redirects there), so `<Admin dashboard>` is not set.
 */
import { Notification } from 'react-admin';
import { installErrorLog } from '../shell/errorLog';
import { getPreferences } from '../shell/preferences';
import { createShellTheme } from './theme';
import { lazyComponent } from '../shell/lazy';

/**
 * The layout (sidebar, navbar, tags view, settings drawer) and the dashboard are lazy (src/shell/lazy.tsx):
 * the login page loads neither.
 */
export const ShellLayout = lazyComponent(() => import('./ShellLayout').then((m) => m.ShellLayout));
export const Layout = ShellLayout;
export const Dashboard = lazyComponent(() => import('./dashboard/Dashboard').then((m) => m.Dashboard));

export {
  preloadScreen,
  shellRoutes,
  shellNoLayoutRoutes,
  type ShellScreens,
  type ResourceViews,
} from './screens';
export { Page401, Page404, NotAvailable } from './pages/ErrorPages';
export { createShellTheme } from './theme';
export { withShellSession } from '../shell/session';

/** The theme for the stored theme colour and size (the layout re-themes itself on change). */
export function initialShellTheme() {
  const p = getPreferences();
  return createShellTheme({ color: p.settings.theme, size: p.size });
}

/** Failure toasts stay 5 seconds (vue-element-admin `utils/request.js`). */
export function ShellNotification() {
  return <Notification autoHideDuration={5000} />;
}

// Production builds record uncaught errors in the error log (top-bar badge).
if (typeof window !== 'undefined') installErrorLog(import.meta.env.PROD);

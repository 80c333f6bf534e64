/**
 * react-admin's `<Admin>` (react-admin/src/Admin.tsx: `AdminContext` around `AdminUI`) without the screens
 * it defaults to. `AdminUI` names a default for every screen in its parameter list (the material Layout
 * with its AppBar and menus, the Login page and its react-hook-form form, the error page with its
 * accordion, the OAuth callback...), so a bundler keeps all of them in the console's first chunk even when
 * each is replaced. This component renders the same tree (`AdminContext`, `CssBaseline`, ra-core's
 * `CoreAdminUI`, the notification) with the console's own screens, and loads the two react-admin screens
 * it still uses only when they show: the error page (an uncaught render error) and the access-denied page.
 * `authCallbackPage` is off: the console signs in with a password, not OAuth.
 *
 * Props: those of `<Admin>` that App.tsx passes; every screen is required, none has a default.
 */
import { createElement, useEffect, type ComponentType, type ReactNode } from 'react';
import { CssBaseline } from '@mui/material';
import {
  CoreAdminUI,
  localStorageStore,
  useI18nProvider,
  useLocaleState,
  type AdminChildren,
  type AuthProvider,
  type DataProvider,
  type I18nProvider,
  type LayoutComponent,
} from 'ra-core';
import { AdminContext, LoadingPage, type RaThemeOptions } from 'ra-ui-materialui';
import type { QueryClient } from '@tanstack/react-query';
import { lazyComponent } from './lazy';
import { keepAliveRouterProvider } from './keptPage';

/** react-admin's error page (Error.tsx), loaded when a render error reaches the top boundary. */
const ErrorPage = lazyComponent(() => import('./raPages').then((m) => m.Error));
/** react-admin's access-denied page (AccessDenied.tsx), loaded when `canAccess` refuses a route. */
const AccessDeniedPage = lazyComponent(() => import('./raPages').then((m) => m.AccessDenied));

/** The store `<Admin>` uses by default (react-admin/src/Admin.tsx `defaultStore`). */
const defaultStore = localStorageStore();

export interface ConsoleAdminProps {
  authProvider: AuthProvider;
  dataProvider: DataProvider;
  i18nProvider: I18nProvider;
  queryClient: QueryClient;
  theme: RaThemeOptions;
  title: string;
  layout: LayoutComponent;
  loginPage: ComponentType;
  catchAll: ComponentType;
  authenticationError: ComponentType;
  notification: ComponentType;
  requireAuth?: boolean;
  disableTelemetry?: boolean;
  children: AdminChildren;
}

/**
 * Keeps `<html lang>` on the catalogue on screen (`en`, `zh-CN`), for screen readers, the browser's
 * hyphenation and fonts (CJK glyph choice), and as the signal that a language switch is complete: it
 * changes in the commit that remounts the tree under the new catalogue (ra-core's I18nContextProvider
 * re-keys its children once `changeLocale` resolved), never while the old catalogue is still shown.
 */
function DocumentLanguage(): null {
  const [locale] = useLocaleState();
  const i18nProvider = useI18nProvider();
  useEffect(() => {
    const shown = i18nProvider.getLocale();
    if (shown === locale) document.documentElement.lang = shown === 'zh' ? 'zh-CN' : 'en';
  }, [locale, i18nProvider]);
  return null;
}

/** `<Admin>` with the console's screens only (see the module comment). */
export function ConsoleAdmin({
  authProvider,
  dataProvider,
  i18nProvider,
  queryClient,
  theme,
  notification,
  children,
  ...ui
}: ConsoleAdminProps): ReactNode {
  return (
    <AdminContext
      authProvider={authProvider}
      dataProvider={dataProvider}
      i18nProvider={i18nProvider}
      queryClient={queryClient}
      store={defaultStore}
      theme={theme}
      // Kept pages (the tab strip's keep-alive) ask about unsaved edits only when they are dropped.
      routerProvider={keepAliveRouterProvider}
    >
      <DocumentLanguage />
      <CssBaseline enableColorScheme>
        <CoreAdminUI
          {...ui}
          loading={LoadingPage}
          error={ErrorPage}
          accessDenied={AccessDeniedPage}
          authCallbackPage={false}
        >
          {children}
        </CoreAdminUI>
        {createElement(notification)}
      </CssBaseline>
    </AdminContext>
  );
}

/**
 * The shell's React state: the signed-in account (user info, roles), the routes and menu for those
 * roles, the current route match, the tab strip, the device (desktop/mobile) and the preferences.
 * Provided by `ShellLayout`, read with `useShell()`.
 */
import {
  createContext,
  useCallback,
  useContext,
  useMemo,
  useState,
  useSyncExternalStore,
  type Dispatch,
} from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { useNotify } from 'react-admin';
import { cookieTokenStore } from '../authProvider';
import { httpClient } from '../dataProvider/httpClient';
import { routesForRoles } from '../shell/permission';
import { buildMenu, type MenuNode, type RouteMatch } from '../shell/router';
import type { ShellRoute } from '../shell/routes';
import { SessionError, validateUserInfo, type ShellUserInfo } from '../shell/session';
import type { TagsAction, TagsState } from '../shell/tagsView';
import { getPreferences, subscribePreferences, type Preferences } from '../shell/preferences';

/** Everything the shell's components share. */
export interface ShellState {
  token: string | undefined;
  info: ShellUserInfo | undefined;
  roles: string[] | undefined;
  routes: ShellRoute[];
  menu: MenuNode[];
  /** The allowed route shown now (undefined while redirecting or on the 401 page). */
  match: RouteMatch | undefined;
  tags: TagsState;
  dispatchTags: Dispatch<TagsAction>;
  mobile: boolean;
  prefs: Preferences;
  /** Re-reads the token cookie and the user info (after a role switch). */
  reloadSession: () => void;
}

export const ShellContext = createContext<ShellState | null>(null);

/** The shell's state; throws outside `ShellLayout`. */
export function useShell(): ShellState {
  const ctx = useContext(ShellContext);
  if (!ctx) throw new Error('useShell() must be used inside the shell Layout');
  return ctx;
}

/** The persisted preferences, re-rendering on change. */
export function usePreferences(): Preferences {
  return useSyncExternalStore(subscribePreferences, getPreferences, getPreferences);
}

/**
 * Loads `GET /dev-api/user/info` for the current token (validated by `validateUserInfo`). On
 * failure it shows the message (translated, or the server's, or "Has Error") as a toast, forgets the
 * token and goes to `/login?redirect=<current page>` (vue-element-admin `permission.js`).
 */
export function useShellSession() {
  const [token, setToken] = useState(() => cookieTokenStore.get());
  const notify = useNotify();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['shell', 'userInfo', token],
    enabled: !!token,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    queryFn: async () => {
      // The token this query is for is no longer the session's (a logout removed it; react-admin's cache
      // clear after a logout refetches the mounted query): nothing to load, nothing to say.
      if (cookieTokenStore.get() !== token) throw new SessionError('shell.session.hasError', true);
      try {
        const { json } = await httpClient(`/dev-api/user/info?token=${encodeURIComponent(token ?? '')}`);
        return validateUserInfo(json.data);
      } catch (e) {
        const err = e as SessionError & { message?: string };
        const message = err.message || 'shell.session.hasError';
        notify(message, { type: 'error', autoHideDuration: 5000 });
        cookieTokenStore.remove();
        navigate(`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`, {
          replace: true,
        });
        throw e;
      }
    },
  });
  const reloadSession = useCallback(() => {
    setToken(cookieTokenStore.get());
    queryClient.invalidateQueries({ queryKey: ['auth'] });
  }, [queryClient]);
  const info = query.data;
  const roles = info?.roles;
  const routes = useMemo(() => (roles ? routesForRoles(roles) : []), [roles]);
  const menu = useMemo(() => buildMenu(routes), [routes]);
  return { token, info, roles, routes, menu, reloadSession };
}

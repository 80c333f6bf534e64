/**
 * The console's react-admin AuthProvider over the platform's `/dev-api/user/*` calls (docs/api.md).
 *
 * - login({username, password}): `POST /dev-api/user/login` (username trimmed) → `{token}`, kept in the
 *   `Admin-Token` cookie; then `GET /dev-api/user/info?token=` is loaded once (roles, name, avatar).
 * - logout(): `POST /dev-api/user/logout` (revokes the token; a failure is ignored: the cookie goes anyway).
 * - checkAuth(): resolves while the cookie holds a token.
 * - checkError(error): envelope code 2 (token expired/revoked/unknown) rejects with
 *   `baas.auth.session_expired` → react-admin notifies and runs logout (the "logged out" flow); HTTP 401
 *   rejects with react-admin's logged-out message; HTTP 403 (role refused) rejects with
 *   `logoutUser: false` → a "not authorized" notification, the user stays logged in; anything else resolves.
 * - getIdentity(): `{ id: account, fullName: name, avatar }` from `/dev-api/user/info`.
 * - getPermissions(): the roles array (when a changed token cookie is refused as ended, the roles this page
 *   had: see `accessRoles`); canAccess({resource, action}): true when the user's roles meet the
 *   resource's `x-roles` and the roles of the calls the action makes (`x-endpoints.<verb>.roles`;
 *   src/generated/resources.ts, roles.ts `actionAllowed`), and no edit or delete of a final record
 *   (`x-frozen`). Resources no schema declares (dashboard, shell
 *   pages) are open to every logged-in user.
 */
import Cookies from 'js-cookie';
import type { AuthProvider, UserIdentity } from 'ra-core';
import { sessionEnded } from '../shell/session';
import { httpClient as defaultHttpClient, TOKEN_COOKIE, type HttpClient } from '../dataProvider/httpClient';

/** What `GET /dev-api/user/info` answers. */
export interface UserInfo {
  roles: string[];
  name: string;
  account: string;
  avatar?: string | null;
  introduction?: string | null;
}

/** Where the token is kept; injectable for tests (default: the `Admin-Token` cookie). */
export interface TokenStore {
  get(): string | undefined;
  set(token: string): void;
  remove(): void;
}

export const cookieTokenStore: TokenStore = {
  get: () => Cookies.get(TOKEN_COOKIE),
  set: (token) => Cookies.set(TOKEN_COOKIE, token, { sameSite: 'strict', path: '/' }),
  remove: () => Cookies.remove(TOKEN_COOKIE, { path: '/' }),
};

function statusOf(error: any): number | undefined {
  return typeof error?.status === 'number' ? error.status : undefined;
}

/**
 * Builds the AuthProvider.
 * @param httpClient the transport (it reads the token from the cookie and sends X-Token)
 * @param store where the token lives
 */
export function createAuthProvider(
  httpClient: HttpClient = defaultHttpClient,
  store: TokenStore = cookieTokenStore,
): AuthProvider {
  let cache: { token: string; info: Promise<UserInfo> } | undefined;
  /** The roles the server last gave this page (any token of it), until a login or logout. */
  let lastRoles: string[] | undefined;

  function info(): Promise<UserInfo> {
    const token = store.get();
    if (!token) return Promise.reject(new Error('Not logged in'));
    if (cache?.token !== token) {
      const p = httpClient<UserInfo>(`/dev-api/user/info?token=${encodeURIComponent(token)}`).then(
        (r) => r.json.data,
      );
      cache = { token, info: p };
      p.then(
        (i) => {
          if (cache?.info === p) lastRoles = i.roles;
        },
        () => {
          if (cache?.info === p) cache = undefined;
        },
      );
    }
    return cache.info;
  }

  /**
   * The roles access decisions use: the user info's. When the token cookie changed under this page
   * (another tab logged out and in again) and the server refuses the new token as ended (envelope code
   * 2), the roles this page had: the session ended as any expiry does, and the page stays as it was
   * behind the shell's "Confirm logout" dialog (its calls answer code 2); rejecting would send
   * react-admin to its `/authentication-error` route, which the shell's guard shows as the 404 page.
   * @throws the user-info call's error otherwise (no token, first load, network, other refusals)
   */
  async function accessRoles(): Promise<string[]> {
    try {
      return (await info()).roles;
    } catch (e) {
      if (lastRoles && sessionEnded(e)) return lastRoles;
      throw e;
    }
  }

  return {
    async login({ username, password }: { username: string; password: string }) {
      const { json } = await httpClient<{ token: string }>('/dev-api/user/login', {
        method: 'POST',
        body: JSON.stringify({ username: String(username ?? '').trim(), password }),
      });
      if (!json.data?.token) throw new Error('The server answered the login without a token');
      store.set(json.data.token);
      cache = undefined;
      lastRoles = undefined;
      await info();
    },

    async logout() {
      const token = store.get();
      cache = undefined;
      lastRoles = undefined;
      if (token) {
        try {
          await httpClient('/dev-api/user/logout', { method: 'POST', body: '{}' });
        } catch {
          // the token may already be revoked or expired; the session ends here anyway
        }
      }
      store.remove();
    },

    async checkAuth() {
      if (!store.get()) throw new Error('ra.auth.auth_check_error');
    },

    async checkError(error: any) {
      const status = statusOf(error);
      if (sessionEnded(error)) {
        cache = undefined;
        throw { message: 'baas.auth.session_expired' };
      }
      if (status === 401) {
        cache = undefined;
        throw { message: 'ra.notification.logged_out' };
      }
      if (status === 403)
        throw { logoutUser: false, redirectTo: false, message: 'ra.notification.not_authorized' };
    },

    async getIdentity(): Promise<UserIdentity> {
      const i = await info();
      return { id: i.account, fullName: i.name || i.account, avatar: i.avatar ?? undefined };
    },

    async getPermissions() {
      if (!store.get()) return [];
      return accessRoles();
    },

    async canAccess({
      resource,
      action,
      record,
    }: {
      resource: string;
      action: string;
      record?: Record<string, unknown>;
    }) {
      if (!store.get()) return false;
      const roles = await accessRoles();
      // The resource table (src/generated/resources.ts) is not part of the login page's chunk.
      const { actionAllowed } = await import('./roles');
      return actionAllowed(roles, resource, action, record);
    },
  };
}

/** The console's AuthProvider (cookie token, default transport). */
export const authProvider = createAuthProvider();
export default authProvider;

/**
 * Session rules of the shell: checking the user-info answer, the safe post-login redirect, the
 * "logged out" signal raised by envelope code 2, and an AuthProvider wrapper that plugs these into
 * react-admin. Wording and rules: vue-element-admin `store/modules/user.js` (getInfo) and
 * `utils/request.js` (code 2 → confirm dialog instead of an immediate logout).
 */
import type { AuthProvider } from 'ra-core';
import { Codes } from '../../common/envelope';

/** What `GET /dev-api/user/info` answers (docs/api.md); `availableRoles` = the account's own roles. */
export interface ShellUserInfo {
  roles: string[];
  name: string;
  account: string;
  avatar: string;
  introduction: string;
  availableRoles?: string[];
}

/** An error whose message is an i18n key under `shell.session.*`, or a server message. */
export class SessionError extends Error {
  constructor(
    message: string,
    /** True when `message` is an i18n key rather than text to show as is. */
    readonly translatable = false,
    /** Envelope code of the failure, when it came from the server. */
    readonly code?: number,
  ) {
    super(message);
    this.name = 'SessionError';
  }
}

/**
 * Checks the `data` of a user-info answer.
 * @throws SessionError `shell.session.verificationFailed` when it is empty (null, not an object),
 *   `shell.session.rolesRequired` when `roles` is not a non-empty array of strings.
 */
export function validateUserInfo(data: unknown): ShellUserInfo {
  if (!data || typeof data !== 'object') throw new SessionError('shell.session.verificationFailed', true);
  const d = data as Record<string, unknown>;
  if (!Array.isArray(d.roles) || d.roles.length === 0 || !d.roles.every((r) => typeof r === 'string')) {
    throw new SessionError('shell.session.rolesRequired', true);
  }
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    roles: d.roles as string[],
    name: text(d.name) || text(d.account),
    account: text(d.account),
    avatar: text(d.avatar),
    introduction: text(d.introduction),
    availableRoles: Array.isArray(d.availableRoles) ? (d.availableRoles as string[]) : undefined,
  };
}

/**
 * The in-app path to go to after login, from a `?redirect=` value: only a path of this site (starts
 * with one `/`, no scheme, no `//`) is accepted, `/login` itself is not; anything else gives `fallback`.
 */
export function safeRedirect(value: string | null | undefined, fallback = '/'): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return fallback;
  if (/^\/login(?:[/?#]|$)/.test(value)) return fallback;
  return value;
}

/** The envelope code carried by a rejected request (react-admin `HttpError` with an envelope body). */
export function envelopeCodeOf(error: unknown): number | undefined {
  const code = (error as { body?: { code?: unknown } } | null)?.body?.code;
  return typeof code === 'number' ? code : undefined;
}

/** True when a refused call failed because the session ended (envelope code 2), not because of what it asked. */
export function sessionEnded(error: unknown): boolean {
  return envelopeCodeOf(error) === Codes.TOKEN_INVALID;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let loggedOut = false;
/** The page on which the user closed the dialog; code-2 answers on that same page do not reopen it. */
let dismissedOn: string | null = null;

const currentPage = () => {
  if (typeof window === 'undefined') return '';
  const { pathname, search } = appLocation();
  return pathname + search;
};

/**
 * Raises the "logged out" signal (code 2): the shell opens its confirm dialog once. After the user
 * closed it, the other requests of the same page that answer code 2 (a list page fires several) are
 * ignored; the next page that meets code 2 opens it again.
 */
export function signalLoggedOut(page: string = currentPage()): void {
  if (dismissedOn !== null && dismissedOn === page) return;
  dismissedOn = null;
  loggedOut = true;
  listeners.forEach((l) => l());
}

/** Clears the signal (the user chose to stay on the page). */
export function clearLoggedOut(page: string = currentPage()): void {
  loggedOut = false;
  dismissedOn = page;
  listeners.forEach((l) => l());
}

/**
 * Forgets the signal and the page it was dismissed on: a new session (login) or a logout starts clean,
 * so a dialog of the previous session never opens over the next one.
 */
export function resetLoggedOut(): void {
  loggedOut = false;
  dismissedOn = null;
  listeners.forEach((l) => l());
}

/** Current state of the signal, for `useSyncExternalStore`. */
export function isLoggedOutSignalled(): boolean {
  return loggedOut;
}

/** Subscribes to the signal; returns the unsubscribe function. */
export function onLoggedOutChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Session-storage key of the last visited route (full path with query). */
export const LAST_ROUTE_KEY = 'lastRoute';

/** Reads a value of the current location (injectable for tests). */
export interface LocationLike {
  pathname: string;
  search: string;
}

/**
 * The console's current route: from the hash (`#/industry/authors?x=1`, react-admin's default hash
 * router) when there is one, else from the path.
 */
export function appLocation(
  loc: { pathname: string; search: string; hash: string } = window.location,
): LocationLike {
  if (loc.hash.startsWith('#/')) {
    const url = new URL(loc.hash.slice(1), 'http://route.invalid');
    return { pathname: url.pathname, search: url.search };
  }
  return { pathname: loc.pathname, search: loc.search };
}

/**
 * `/login?redirect=<path+search>` for the given location; on the login page itself, the login page
 * unchanged (its own `?redirect=` kept).
 */
export function loginWithRedirect({ pathname, search }: LocationLike): string {
  if (/^\/login(?:\/|$)/.test(pathname)) return `/login${search}`;
  return `/login?redirect=${encodeURIComponent(pathname + search)}`;
}

/**
 * Wraps the console's AuthProvider with the shell's session rules:
 * - `login` resolves `{ redirectTo }` = the `?redirect=` of the login page (`safeRedirect`), so
 *   react-admin goes back to the page that sent the user to log in (without one, react-admin's own
 *   rule applies: the page it remembered, else `/`);
 * - `logout` resolves `/login?redirect=<current page>` (react-admin navigates there), so a reload of
 *   the login page still knows where to go back;
 * - `checkAuth` rejects with `redirectTo: /login?redirect=<current page>` (on the login page: the login
 *   page with its own `?redirect=`), without a notification when the user is on the login page or has
 *   just logged out (react-admin's checks that run while a logout navigates must not say "Please login
 *   to continue" nor drop the redirect);
 * - `checkError` after the user logged out (a request of the page being left, refused): rejects
 *   silently with the login page (its redirect kept);
 * - `checkError` with envelope code 2: while the session has not been confirmed by the server in this
 *   page load (the first answer after a reload or login refuses the token), it rejects with the login
 *   page and the current page as redirect (react-admin logs out at once: there is no work on screen to
 *   keep); once confirmed, it raises the "logged out" signal and resolves, so the user stays on the page
 *   until they answer the dialog; other errors go to the base provider;
 * - `getPermissions` / `canAccess` / `getIdentity` answering confirm the session; login and logout
 *   reset it and clear any "logged out" signal, so the dialog never survives into a new session.
 */
export function withShellSession(
  base: AuthProvider,
  location: () => LocationLike = appLocation,
): AuthProvider {
  /** The server accepted the token in this page load (an auth call answered). */
  let confirmed = false;
  /** A logout ran and no login followed yet. */
  let loggedOutByUser = false;
  const confirm = <T>(p: Promise<T>) =>
    p.then((v) => {
      confirmed = true;
      return v;
    });
  return {
    ...base,
    async login(params: unknown) {
      const result = await base.login(params);
      confirmed = true;
      loggedOutByUser = false;
      resetLoggedOut();
      const redirect = new URLSearchParams(location().search).get('redirect');
      return redirect ? { redirectTo: safeRedirect(redirect) } : result;
    },
    async logout(params: unknown) {
      // Set before the server revokes the token: the answers refused meanwhile are this logout's.
      confirmed = false;
      loggedOutByUser = true;
      const result = await base.logout(params);
      resetLoggedOut();
      if (typeof result === 'string' || result === false) return result;
      return loginWithRedirect(location());
    },
    async checkAuth(params: unknown) {
      try {
        await base.checkAuth(params);
      } catch (e) {
        const here = location();
        const onLogin = /^\/login(?:\/|$)/.test(here.pathname);
        const message =
          onLogin || loggedOutByUser
            ? false
            : ((e as { message?: string } | null)?.message ?? 'ra.auth.auth_check_error');
        throw { message, redirectTo: loginWithRedirect(here) };
      }
    },
    async checkError(error: unknown) {
      const status = (error as { status?: unknown } | null)?.status;
      if (loggedOutByUser && (status === 401 || sessionEnded(error)))
        // A request of the page being left, refused because the user logged out: no toast, no dialog.
        throw { message: false, redirectTo: loginWithRedirect(location()) };
      if (sessionEnded(error)) {
        if (!confirmed)
          throw { message: 'baas.auth.session_expired', redirectTo: loginWithRedirect(location()) };
        const { pathname, search } = location();
        signalLoggedOut(pathname + search);
        return;
      }
      return base.checkError(error);
    },
    ...(base.getPermissions && {
      getPermissions: (params: unknown) => confirm(base.getPermissions!(params)),
    }),
    ...(base.canAccess && { canAccess: (params: any) => confirm(base.canAccess!(params)) }),
    ...(base.getIdentity && { getIdentity: () => confirm(base.getIdentity!()) }),
  };
}

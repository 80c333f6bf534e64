/**
 * react-admin's `/authentication-error` route (where it navigates when `authProvider.canAccess` fails,
 * e.g. the token was revoked and the user info call refuses it): instead of a dead page (the shell's
 * 404), the session ends and the user lands on the login page with the last page they were on as the
 * redirect (sessionStorage `lastRoute`, kept by the shell layout), so logging in again returns there.
 */
import { useEffect, useRef } from 'react';
import { useLogout } from 'react-admin';
import { LAST_ROUTE_KEY, loginWithRedirect } from '../shell/session';

/** The path to return to after login: the last route the shell recorded, this error route aside. */
export function returnPath(last: string | null): string {
  if (!last || !last.startsWith('/') || last.startsWith('/authentication-error')) return '/';
  return last;
}

export default function AuthenticationErrorPage() {
  const logout = useLogout();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    const url = new URL(returnPath(sessionStorage.getItem(LAST_ROUTE_KEY)), 'http://route.invalid');
    void logout({}, loginWithRedirect({ pathname: url.pathname, search: url.search }), false);
  }, [logout]);
  return null;
}

import { describe, expect, it, vi } from 'vitest';
import type { AuthProvider } from 'ra-core';
import {
  appLocation,
  isLoggedOutSignalled,
  clearLoggedOut,
  signalLoggedOut,
  onLoggedOutChange,
  safeRedirect,
  validateUserInfo,
  withShellSession,
  SessionError,
} from './session';

describe('validateUserInfo', () => {
  it('rejects an empty answer with the verification message', () => {
    for (const empty of [null, undefined, '', 0]) {
      expect(() => validateUserInfo(empty)).toThrow('shell.session.verificationFailed');
    }
  });
  it('rejects roles that are not a non-empty array of strings', () => {
    for (const roles of [undefined, null, [], 'admin', [1]]) {
      try {
        validateUserInfo({ roles, name: 'x' });
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(SessionError);
        expect((e as SessionError).message).toBe('shell.session.rolesRequired');
        expect((e as SessionError).translatable).toBe(true);
      }
    }
  });
  it('normalises a good answer', () => {
    expect(
      validateUserInfo({ roles: ['user'], account: 'user', avatar: null, availableRoles: ['user'] }),
    ).toEqual({
      roles: ['user'],
      name: 'user',
      account: 'user',
      avatar: '',
      introduction: '',
      availableRoles: ['user'],
    });
  });
});

describe('safeRedirect', () => {
  it('keeps in-app paths with their query', () => {
    expect(safeRedirect('/industry/authors?page=2')).toBe('/industry/authors?page=2');
  });
  it('refuses other sites, the login page and empty values', () => {
    for (const v of [
      '//evil.example/x',
      'https://evil.example',
      '/\\evil',
      '/login',
      '/login?redirect=/x',
      '',
      null,
    ]) {
      expect(safeRedirect(v, '/home')).toBe('/home');
    }
    expect(safeRedirect('/loginhelp')).toBe('/loginhelp');
  });
});

describe('appLocation', () => {
  it('reads the hash route when there is one', () => {
    expect(appLocation({ pathname: '/', search: '', hash: '#/industry/authors?page=2' })).toEqual({
      pathname: '/industry/authors',
      search: '?page=2',
    });
    expect(appLocation({ pathname: '/baas/fabric', search: '?a=1', hash: '' })).toEqual({
      pathname: '/baas/fabric',
      search: '?a=1',
    });
  });
});

describe('withShellSession', () => {
  const base = (): AuthProvider => ({
    login: vi.fn(async () => undefined),
    logout: vi.fn(async () => undefined),
    checkAuth: vi.fn(async () => {
      throw new Error('ra.auth.auth_check_error');
    }),
    checkError: vi.fn(async () => {
      throw { message: 'baas.auth.session_expired' };
    }),
    getPermissions: vi.fn(async () => ['admin']),
  });

  it('returns to the ?redirect= page after login', async () => {
    const p = withShellSession(base(), () => ({ pathname: '/login', search: '?redirect=%2Fbaas%2Ffabric' }));
    await expect(p.login({})).resolves.toEqual({ redirectTo: '/baas/fabric' });
    const q = withShellSession(base(), () => ({ pathname: '/login', search: '?redirect=https://x.example' }));
    await expect(q.login({})).resolves.toEqual({ redirectTo: '/' });
    const r = withShellSession(base(), () => ({ pathname: '/login', search: '' }));
    await expect(r.login({})).resolves.toBeUndefined();
  });

  it('logs out to the login page with the current page as redirect', async () => {
    const p = withShellSession(base(), () => ({ pathname: '/baas/channel/3', search: '' }));
    await expect(p.logout({})).resolves.toBe('/login?redirect=%2Fbaas%2Fchannel%2F3');
    const q = withShellSession(base(), () => ({ pathname: '/login', search: '?redirect=%2Fx' }));
    await expect(q.logout({})).resolves.toBe('/login?redirect=%2Fx');
  });

  it('sends a failed auth check to the login page with the current page', async () => {
    const p = withShellSession(base(), () => ({ pathname: '/industry/authors', search: '?x=1' }));
    await expect(p.checkAuth({})).rejects.toEqual({
      message: 'ra.auth.auth_check_error',
      redirectTo: '/login?redirect=%2Findustry%2Fauthors%3Fx%3D1',
    });
  });

  it('turns code 2 into the logged-out signal and keeps the user, other errors go to the base', async () => {
    const b = base();
    const p = withShellSession(b, () => ({ pathname: '/', search: '' }));
    const seen = vi.fn();
    const off = onLoggedOutChange(seen);
    clearLoggedOut();
    await p.getPermissions!({}); // the server accepted the token once: a session is on screen
    await expect(
      p.checkError({ status: 401, body: { code: 2, msg: 'revoked', data: null } }),
    ).resolves.toBeUndefined();
    expect(isLoggedOutSignalled()).toBe(true);
    expect(b.checkError).not.toHaveBeenCalled();
    await expect(p.checkError({ status: 500, body: { code: 500 } })).rejects.toEqual({
      message: 'baas.auth.session_expired',
    });
    expect(seen).toHaveBeenCalledTimes(2);
    off();
    clearLoggedOut();
  });

  it('sends a token refused on the first answer straight to the login page, with the page as redirect', async () => {
    const p = withShellSession(base(), () => ({ pathname: '/industry/authors', search: '?page=2' }));
    await expect(
      p.checkError({ status: 401, body: { code: 2, msg: 'revoked', data: null } }),
    ).rejects.toEqual({
      message: 'baas.auth.session_expired',
      redirectTo: '/login?redirect=%2Findustry%2Fauthors%3Fpage%3D2',
    });
    expect(isLoggedOutSignalled()).toBe(false);
  });

  it('a logout and a new login clear a raised logged-out signal (no stale dialog)', async () => {
    const p = withShellSession(base(), () => ({ pathname: '/industry/authors', search: '' }));
    await p.getPermissions!({});
    await p.checkError({ status: 401, body: { code: 2, msg: 'revoked', data: null } });
    expect(isLoggedOutSignalled()).toBe(true);
    await p.login({ username: 'admin', password: 'x' });
    expect(isLoggedOutSignalled()).toBe(false);
    await p.getPermissions!({});
    await p.checkError({ status: 401, body: { code: 2, msg: 'revoked', data: null } });
    await p.logout({});
    expect(isLoggedOutSignalled()).toBe(false);
  });

  it('after a logout, checkAuth keeps the login page with its redirect and shows no toast', async () => {
    let here = { pathname: '/industry/authors', search: '?filter=%7B%22q%22%3A%22Blake%22%7D' };
    const p = withShellSession(base(), () => here);
    expect(await p.logout({})).toBe(
      '/login?redirect=%2Findustry%2Fauthors%3Ffilter%3D%257B%2522q%2522%253A%2522Blake%2522%257D',
    );
    // A list request of the page being left, refused because the token was just revoked: silent.
    await expect(
      p.checkError({ status: 401, body: { code: 2, msg: 'revoked', data: null } }),
    ).rejects.toEqual({
      message: false,
      redirectTo:
        '/login?redirect=%2Findustry%2Fauthors%3Ffilter%3D%257B%2522q%2522%253A%2522Blake%2522%257D',
    });
    expect(isLoggedOutSignalled()).toBe(false);
    here = { pathname: '/login', search: '?redirect=%2Findustry%2Fauthors' };
    await expect(p.checkAuth({})).rejects.toEqual({
      message: false,
      redirectTo: '/login?redirect=%2Findustry%2Fauthors',
    });
    // A visitor who did not log out, on a page: the usual message and the page as redirect.
    const fresh = withShellSession(base(), () => ({ pathname: '/baas/fabric', search: '' }));
    await expect(fresh.checkAuth({})).rejects.toEqual({
      message: 'ra.auth.auth_check_error',
      redirectTo: '/login?redirect=%2Fbaas%2Ffabric',
    });
  });

  it('after the user closed the dialog, code 2 from the same page does not reopen it; another page does', () => {
    clearLoggedOut('/industry/artWork');
    signalLoggedOut('/industry/artWork');
    expect(isLoggedOutSignalled()).toBe(false);
    signalLoggedOut('/industry/authors');
    expect(isLoggedOutSignalled()).toBe(true);
    clearLoggedOut();
  });
});

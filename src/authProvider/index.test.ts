import { describe, expect, it } from 'vitest';
import { HttpError } from 'ra-core';
import { createAuthProvider, type TokenStore } from './index';
import { actionAllowed, rolesAllow } from './roles';
import type { HttpClient, HttpOptions } from '../dataProvider/httpClient';

function memoryStore(initial?: string): TokenStore & { value?: string } {
  const s: TokenStore & { value?: string } = {
    value: initial,
    get: () => s.value,
    set: (t) => (s.value = t),
    remove: () => (s.value = undefined),
  };
  return s;
}

/** A fake transport: `routes[url]` answers data or throws the given error. */
function fake(routes: Record<string, unknown | ((o: HttpOptions) => unknown)>) {
  const calls: { url: string; method?: string; body?: unknown }[] = [];
  const client: HttpClient = async (url: string, options: HttpOptions = {}) => {
    calls.push({
      url,
      method: options.method ?? 'GET',
      body: typeof options.body === 'string' ? JSON.parse(options.body) : undefined,
    });
    const route = routes[url.split('?')[0]];
    const data = typeof route === 'function' ? route(options) : route;
    if (data instanceof Error) throw data;
    return { status: 200, headers: new Headers(), body: '', json: { code: 0, msg: '', data } as any };
  };
  return { calls, client };
}

const adminInfo = { roles: ['admin'], name: 'Administrator', account: 'admin', avatar: null };

describe('authProvider', () => {
  it('login trims the username, stores the token and loads the identity', async () => {
    const store = memoryStore();
    const { calls, client } = fake({
      '/dev-api/user/login': { token: 'abc' },
      '/dev-api/user/info': adminInfo,
    });
    const ap = createAuthProvider(client, store);
    await ap.login({ username: '  admin ', password: 'pw' });
    expect(store.value).toBe('abc');
    expect(calls[0]).toEqual({
      url: '/dev-api/user/login',
      method: 'POST',
      body: { username: 'admin', password: 'pw' },
    });
    expect(calls[1].url).toBe('/dev-api/user/info?token=abc');
    expect(await ap.getIdentity!()).toEqual({ id: 'admin', fullName: 'Administrator', avatar: undefined });
    expect(await ap.getPermissions!({})).toEqual(['admin']);
    expect(calls.length).toBe(2); // identity cached per token
  });

  it('login with bad credentials rejects with the server message and stores nothing', async () => {
    const store = memoryStore();
    const { client } = fake({
      '/dev-api/user/login': new HttpError('Wrong username or password', 401, {
        code: 401,
        msg: 'Wrong username or password',
        data: null,
      }),
    });
    await expect(
      createAuthProvider(client, store).login({ username: 'admin', password: 'x' }),
    ).rejects.toThrow('Wrong username or password');
    expect(store.value).toBeUndefined();
  });

  it('login rejects an answer without a token', async () => {
    const { client } = fake({ '/dev-api/user/login': {} });
    await expect(
      createAuthProvider(client, memoryStore()).login({ username: 'a', password: 'b' }),
    ).rejects.toThrow(/without a token/);
  });

  it('checkAuth resolves only while a token is stored', async () => {
    const { client } = fake({});
    await expect(createAuthProvider(client, memoryStore('t')).checkAuth({})).resolves.toBeUndefined();
    await expect(createAuthProvider(client, memoryStore()).checkAuth({})).rejects.toThrow();
  });

  it.each([
    {
      name: 'checkError: envelope code 2 → logged-out flow with the session-expired message',
      error: new HttpError('token expired', 401, { code: 2, msg: 'token expired', data: null }),
      message: 'baas.auth.session_expired',
    },
    {
      name: 'checkError: HTTP 401 without code 2 → logged out',
      error: new HttpError('no token', 401, { code: 401, msg: 'no token', data: null }),
      message: 'ra.notification.logged_out',
    },
  ])('$name', async ({ error, message }) => {
    const ap = createAuthProvider(fake({}).client, memoryStore('t'));
    await expect(ap.checkError(error)).rejects.toEqual({ message });
  });

  it('checkError: HTTP 403 → not authorized, but the user stays logged in', async () => {
    const ap = createAuthProvider(fake({}).client, memoryStore('t'));
    const err = await ap
      .checkError(new HttpError('admin only', 403, { code: 403, msg: 'admin only', data: null }))
      .catch((e) => e);
    expect(err).toEqual({ logoutUser: false, redirectTo: false, message: 'ra.notification.not_authorized' });
  });

  it.each([
    ['400 validation', new HttpError('bad', 400, { code: 400, msg: 'bad', data: { errors: [] } })],
    ['404', new HttpError('gone', 404, { code: 404, msg: 'gone', data: null })],
    ['409', new HttpError('has works', 409, { code: 409, msg: 'has works', data: null })],
    ['500', new HttpError('boom', 500, { code: 500, msg: 'boom', data: null })],
    ['a network error', new TypeError('Failed to fetch')],
  ])('checkError: %s resolves (not an auth problem)', async (_name, error) => {
    await expect(
      createAuthProvider(fake({}).client, memoryStore('t')).checkError(error),
    ).resolves.toBeUndefined();
  });

  it('logout revokes the token on the server and forgets it; a failing revoke still logs out', async () => {
    const store = memoryStore('t');
    const { calls, client } = fake({
      '/dev-api/user/logout': new HttpError('token expired', 401, { code: 2, msg: '', data: null }),
    });
    await createAuthProvider(client, store).logout({});
    expect(calls).toEqual([{ url: '/dev-api/user/logout', method: 'POST', body: {} }]);
    expect(store.value).toBeUndefined();
  });

  it('logout without a token makes no call', async () => {
    const { calls, client } = fake({});
    await createAuthProvider(client, memoryStore()).logout({});
    expect(calls).toEqual([]);
  });

  it('canAccess follows the schemas x-roles: admin sees the registry, user does not', async () => {
    const admin = createAuthProvider(fake({ '/dev-api/user/info': adminInfo }).client, memoryStore('a'));
    const user = createAuthProvider(
      fake({ '/dev-api/user/info': { ...adminInfo, roles: ['user'] } }).client,
      memoryStore('u'),
    );
    expect(await admin.canAccess!({ resource: 'artworks', action: 'list' })).toBe(true);
    expect(await user.canAccess!({ resource: 'artworks', action: 'list' })).toBe(false);
    expect(await user.canAccess!({ resource: 'dashboard', action: 'list' })).toBe(true);
    expect(
      await createAuthProvider(fake({}).client, memoryStore()).canAccess!({
        resource: 'dashboard',
        action: 'list',
      }),
    ).toBe(false);
  });

  it('a failed identity call is not cached', async () => {
    let fail = true;
    const { client } = fake({
      '/dev-api/user/info': () => (fail ? new HttpError('down', 500, {}) : adminInfo),
    });
    const ap = createAuthProvider(client, memoryStore('t'));
    await expect(ap.getIdentity!()).rejects.toThrow('down');
    fail = false;
    await expect(ap.getIdentity!()).resolves.toMatchObject({ id: 'admin' });
  });

  it('a token cookie swapped under the page and refused as ended keeps the roles this page had (issue 32)', async () => {
    const ended = new HttpError('token expired', 401, { code: 2, msg: 'token expired', data: null });
    const store = memoryStore('a');
    const { client } = fake({ '/dev-api/user/info': () => (store.value === 'b' ? ended : adminInfo) });
    const ap = createAuthProvider(client, store);
    expect(await ap.canAccess!({ resource: 'artworks', action: 'list' })).toBe(true);
    // Another tab logged out and in again (cookie "b"), then that session ended on the server.
    store.value = 'b';
    expect(await ap.canAccess!({ resource: 'artworks', action: 'list' })).toBe(true);
    expect(await ap.getPermissions!({})).toEqual(['admin']);
    // The identity still says the session ended (react-admin's checkError then raises the dialog).
    await expect(ap.getIdentity!()).rejects.toBe(ended);
    // A page load that never had an answer, or a logout, knows no roles to keep: the refusal stands.
    const fresh = createAuthProvider(client, memoryStore('b'));
    await expect(fresh.canAccess!({ resource: 'artworks', action: 'list' })).rejects.toBe(ended);
    await ap.logout({});
    store.value = 'b';
    await expect(ap.getPermissions!({})).rejects.toBe(ended);
  });

  it('canAccess follows the roles of each call and the pages the account reaches: a user sees a template but may not list, add, edit or delete them', async () => {
    const admin = createAuthProvider(fake({ '/dev-api/user/info': adminInfo }).client, memoryStore('a'));
    const user = createAuthProvider(
      fake({ '/dev-api/user/info': { ...adminInfo, roles: ['user'] } }).client,
      memoryStore('u'),
    );
    const resource = 'contractTemplates';
    for (const action of ['show', 'export'])
      expect(await user.canAccess!({ resource, action }), action).toBe(true);
    // The list page is in the Medicine group, not the user account's (a List button would open its 401
    // page); the user reads a template on its show page, linked from its contracts.
    for (const action of ['list', 'create', 'clone', 'edit', 'delete'])
      expect(await user.canAccess!({ resource, action }), action).toBe(false);
    for (const action of ['list', 'show', 'create', 'edit', 'delete'])
      expect(await admin.canAccess!({ resource, action }), action).toBe(true);
    // Contracts admit the user for every call: nothing is taken away.
    expect(await user.canAccess!({ resource: 'contracts', action: 'create' })).toBe(true);
  });

  it('actionAllowed matches the server: a call with its own roles admits admin and those roles', () => {
    expect(actionAllowed(['user'], 'contractTemplates', 'edit')).toBe(false);
    expect(actionAllowed(['admin'], 'contractTemplates', 'edit')).toBe(true);
    expect(actionAllowed(['user'], 'artworks', 'list')).toBe(false);
    expect(actionAllowed(['user'], 'dashboard', 'list')).toBe(true);
  });

  it('a final record (x-frozen) is neither edited nor deleted, even by admin; a draft is', async () => {
    const admin = createAuthProvider(fake({ '/dev-api/user/info': adminInfo }).client, memoryStore('a'));
    const sent = { id: 1, status: 'sent', sent: 1 };
    const draft = { id: 2, status: 'draft', sent: 0 };
    for (const action of ['edit', 'delete'])
      expect(await admin.canAccess!({ resource: 'notifications', action, record: sent }), action).toBe(false);
    for (const action of ['show', 'edit', 'delete'])
      expect(await admin.canAccess!({ resource: 'notifications', action, record: draft }), action).toBe(true);
    expect(await admin.canAccess!({ resource: 'notifications', action: 'show', record: sent })).toBe(true);
    // Without a record (the list's own check) the action follows the roles.
    expect(await admin.canAccess!({ resource: 'notifications', action: 'delete' })).toBe(true);
  });

  it('rolesAllow: resources without x-roles are open', () => {
    expect(rolesAllow(['user'], 'authors')).toBe(false);
    expect(rolesAllow(['admin'], 'authors')).toBe(true);
    expect(rolesAllow([], 'somethingElse')).toBe(true);
  });
});

/**
 * A session swapped from another tab (issue 32): tab B of the same browser (cookies shared) logs out and
 * signs in again, then that new session ends on the server. Tab A, which still shows the console of the
 * first session with a kept-alive tab, opens Artworks from the sidebar (a screen it has not loaded yet):
 * the changed cookie makes the console reload the user info, which the server refuses. The user sees
 * "Confirm logout" over Artworks, never the 404 page; Close keeps Artworks; a reload shows the login page,
 * and signing in again lands on Artworks. In English and Chinese.
 */
import { describe, expect, it } from 'vitest';
import { httpApi } from '../support/httpApi';
import { sharedEnv } from './helpers/sharedEnv';
import { LoginPage } from './pages/LoginPage';
import { SessionPage } from './pages/SessionPage';
import { SessionSwapPage } from './pages/SessionSwapPage';

const env = sharedEnv(180_000);
const ARTWORKS = '/industry/artWork';

describe('session swapped from another tab', () => {
  for (const lang of ['en', 'zh'] as const)
    it(`a session swapped from another tab leaves no 404 (${lang})`, async () => {
      const a = new SessionSwapPage(await env.signIn('admin', lang), env.baseUrl);
      try {
        await a.waitActiveTab('/dashboard');
        // A kept-alive tab beside the dashboard.
        await a.navigate('/industry/authors');
        await a.rows().first().waitFor();
        await a.navigate('/dashboard');
        const first = await a.token();

        // Tab B: log out, sign in again, then that new session ends on the server.
        const b = new SessionPage(await a.page.context().newPage(), env.baseUrl);
        await b.goto('/dashboard');
        await b.logout();
        await b.usernameInput().waitFor();
        await new LoginPage(b.page, env.baseUrl).login('admin', env.passwords.admin);
        const second = await b.token();
        expect(second).not.toBe(first);
        expect((await httpApi(env.baseUrl, second!, 'POST', '/dev-api/user/logout', {})).status).toBe(200);

        // Tab A: Artworks from the sidebar. "Confirm logout" over Artworks, not over the 404 page.
        await a.page.bringToFront();
        await a.openFromSidebar(ARTWORKS, ['/industry', '/industry/artwork']);
        const dialog = a.loggedOutDialog();
        await dialog.waitFor();
        expect(a.route()).toBe(ARTWORKS);
        expect(await a.shownRoute()).toBe(ARTWORKS);
        expect(await a.page404().count()).toBe(0);
        // Close keeps Artworks.
        await dialog.getByRole('button', { name: lang === 'en' ? 'Close' : '关闭' }).click();
        await dialog.waitFor({ state: 'hidden' });
        expect(a.route()).toBe(ARTWORKS);
        expect(await a.page404().count()).toBe(0);

        // A reload finds the session ended: the login page, which returns to Artworks.
        await a.page.reload();
        await a.loginForm().waitFor();
        expect(a.loginRedirect()).toBe(ARTWORKS);
        await new LoginPage(a.page, env.baseUrl).login('admin', env.passwords.admin);
        await a.page.waitForURL((u) => u.hash === `#${ARTWORKS}`);
        await a.rows().first().waitFor();
        expect(await a.shownRoute()).toBe(ARTWORKS);
        expect(await a.loggedOutDialog().count()).toBe(0);
        expect(await a.page404().count()).toBe(0);
      } finally {
        await a.page.context().close();
      }
    });
});

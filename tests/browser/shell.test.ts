/**
 * Browser tests of the element-admin shell, against the real server and a production build:
 * roles drive the menu and the 401 page; the tab strip; the language switch and the settings survive
 * a reload; a 375 px window closes the sidebar; a token revoked server-side opens the code-2 dialog; the
 * system's "reduce motion" setting stops the console's transitions and ripples (src/layout/motion.ts).
 * The last test writes the shell's screenshots (desktop and 375 px, zh and en, admin and user, several
 * tabs open) to .tmp/screenshots/ (docs/screenshots/ with `npm run screenshots`).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { screenshotDir } from './helpers/screenshots';
import { startEnv, STILL, type TestEnv } from './helpers/env';
import { LoginPage } from './pages/LoginPage';
import { ShellPage } from './pages/ShellPage';

let env: TestEnv;

beforeAll(async () => {
  env = await startEnv();
});

afterAll(async () => {
  await env?.stop();
});

/** A fresh browser context logged in as `who`, in `lang`, `width` px wide. */
async function session(who: 'admin' | 'user', lang: 'en' | 'zh' = 'en', width = 1440) {
  const page = await env.signIn(who, lang, { width, height: 900 });
  const context: BrowserContext = page.context();
  const shell = new ShellPage(page, env.baseUrl);
  // Login lands on `/`, which the guard sends to the dashboard: wait until that has settled.
  await shell.waitActiveTab('/dashboard');
  return { context, page, shell };
}

describe('shell', () => {
  it('sends a visitor without a token to the login page with the path, and back after login', async () => {
    const context = await env.browser.newContext(STILL);
    const page = await context.newPage();
    const shell = new ShellPage(page, env.baseUrl);
    await shell.goto('/baas/fabric');
    await page.waitForURL((u) => u.hash.startsWith('#/login'));
    expect(shell.route()).toBe('/login?redirect=%2Fbaas%2Ffabric');
    await new LoginPage(page, env.baseUrl).login('user', env.passwords.user);
    await page.waitForURL((u) => u.hash === '#/baas/fabric');
    // The layout is a lazy chunk: under load it can arrive more than the default second after the URL.
    await expect.poll(() => page.title(), { timeout: 15_000 }).toBe('Fabric - BaaS');
    await context.close();
  });

  it('shows a user only the user sections, and 401 on an admin URL', async () => {
    const { context, page, shell } = await session('user');
    expect(await shell.topMenuPaths()).toEqual([
      '/dashboard',
      '/baas',
      '/data',
      '/support',
      '/billing',
      '/vessel',
      '/set',
    ]);
    await shell.navigate('/industry/authors');
    await page.getByTestId('page-401').waitFor();
    expect(await page.getByTestId('page-401').textContent()).toContain('No permission');
    expect(shell.route()).toBe('/industry/authors');
    // The server refuses the same call for the same role.
    const status = await page.evaluate(async () => {
      const token = document.cookie.match(/Admin-Token=([^;]+)/)![1];
      return (await fetch('/artmanager/authors/getList', { headers: { 'X-Token': token } })).status;
    });
    expect(status).toBe(403);
    // A section with no screen yet says so, with its title and breadcrumbs.
    await shell.navigate('/billing/cycle');
    await page.getByTestId('not-available').waitFor();
    expect(await shell.breadcrumbs().textContent()).toBe('Dashboard/Billing/Billing cycle');
    await context.close();
  });

  it('gives admin every section', async () => {
    const { context, shell } = await session('admin');
    const paths = await shell.topMenuPaths();
    expect(paths).toEqual(
      expect.arrayContaining(['/industry', '/medicine', '/agriculture', '/permission', '/baas', '/set']),
    );
    await context.close();
  });

  it('opens tabs, closes one, closes others, and keeps the pinned dashboard', async () => {
    const { context, page, shell } = await session('admin');
    for (const r of [
      '/dashboard',
      '/industry/authors',
      '/industry/artWork',
      '/baas/fabric',
      '/medicine/tacking',
    ]) {
      await shell.navigate(r);
      await shell.waitActiveTab(r);
    }
    expect(await shell.tabPaths()).toEqual([
      '/dashboard',
      '/industry/authors',
      '/industry/artWork',
      '/baas/fabric',
      '/medicine/tacking',
    ]);
    // The pinned dashboard has no close button.
    expect(await shell.tab('/dashboard').getByTestId('tag-close').count()).toBe(0);
    // Closing the active tab goes to the last remaining one.
    await shell.closeTab('/medicine/tacking');
    await page.waitForURL((u) => u.hash === '#/baas/fabric');
    expect(await shell.tabPaths()).toEqual([
      '/dashboard',
      '/industry/authors',
      '/industry/artWork',
      '/baas/fabric',
    ]);
    // Close others from the right-click menu (105 px wide) on a tab that is not active.
    await shell.tab('/industry/artWork').click({ button: 'right' });
    const menu = page.getByTestId('tags-contextmenu');
    expect((await menu.boundingBox())!.width).toBe(105);
    await menu.getByRole('menuitem', { name: 'Close others' }).click();
    await shell.waitActiveTab('/industry/artWork');
    expect(await shell.tabPaths()).toEqual(['/dashboard', '/industry/artWork']);
    // Close all keeps the dashboard and goes there.
    await shell.tabMenu('/industry/artWork', /^Close all$/);
    await shell.waitActiveTab('/dashboard');
    expect(await shell.tabPaths()).toEqual(['/dashboard']);
    await context.close();
  });

  it('keeps the language across a reload', async () => {
    const { context, page, shell } = await session('admin', 'en');
    await shell.navigate('/industry/authors');
    await shell.switchLanguage('zh');
    await page.getByText('切换语言成功').waitFor();
    expect(await shell.breadcrumbs().textContent()).toBe('首页/工业应用/艺术品登记/作者管理');
    await page.reload();
    await shell.breadcrumbs().getByText('作者管理').waitFor();
    expect(await page.title()).toBe('作者管理 - BaaS');
    const cookies = await context.cookies(env.baseUrl);
    expect(cookies.find((c) => c.name === 'language')?.value).toBe('zh');
    await context.close();
  });

  it('closes the sidebar in a 375 px wide window, and on a backdrop click', async () => {
    const { context, page, shell } = await session('admin', 'en', 375);
    await expect.poll(() => shell.wrapper().getAttribute('data-device')).toBe('mobile');
    expect(await shell.wrapper().getAttribute('data-sidebar')).toBe('closed');
    await expect
      .poll(async () => {
        const box = await shell.sidebar().boundingBox();
        return box!.x + box!.width;
      })
      .toBeLessThanOrEqual(0);
    await page.getByTestId('hamburger').click();
    expect(await shell.wrapper().getAttribute('data-sidebar')).toBe('opened');
    await page.getByTestId('sidebar-backdrop').click({ position: { x: 350, y: 450 } });
    expect(await shell.wrapper().getAttribute('data-sidebar')).toBe('closed');
    // Wider than 992 px again: desktop.
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect.poll(() => shell.wrapper().getAttribute('data-device')).toBe('desktop');
    await context.close();
  });

  it('keeps the settings across a reload', async () => {
    const { context, page, shell } = await session('admin');
    const panel = await shell.openSettings();
    await panel.locator('[data-theme-color="#11A983"]').click();
    await panel.getByTestId('setting-tagsView').locator('input').uncheck();
    await panel.getByTestId('setting-sidebarLogo').locator('input').uncheck();
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('tags-view').count()).toBe(0);
    // The account's settings show at once after a reload, before the shell's own user-info call answers
    // (held here; the first call, react-admin's sign-in check, passes): the shell remembers whose session
    // this is, so the defaults never flash.
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    let calls = 0;
    await page.route('**/dev-api/user/info**', async (route) => {
      if (++calls > 1) await held;
      await route.continue();
    });
    await page.reload();
    await page.getByTestId('settings-toggle').waitFor();
    expect(await page.getByTestId('tags-view').count()).toBe(0);
    expect(await page.getByTestId('sidebar-logo').count()).toBe(0);
    answer();
    await shell.waitSignedIn();
    await page.unroute('**/dev-api/user/info**');
    expect(await page.getByTestId('tags-view').count()).toBe(0);
    expect(await page.getByTestId('sidebar-logo').count()).toBe(0);
    // The settings gear (in the navbar since issue 12) is drawn in the theme colour.
    const colour = await page.getByTestId('settings-toggle').evaluate((e) => getComputedStyle(e).color);
    expect(colour).toBe('rgb(17, 169, 131)');
    const again = await shell.openSettings();
    expect(await again.getByTestId('setting-fixedHeader').locator('input').isChecked()).toBe(true);
    await context.close();
  });

  it('opens the logged-out dialog when the token is revoked server-side', async () => {
    const { context, page, shell } = await session('admin');
    await shell.navigate('/industry/authors');
    await page.locator('table tbody tr').first().waitFor();
    const token = await shell.token();
    const r = await fetch(`${env.baseUrl}/dev-api/user/logout`, {
      method: 'POST',
      headers: { 'X-Token': token!, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(r.status).toBe(200);
    await shell.navigate('/industry/artWork');
    const dialog = shell.loggedOutDialog();
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      'You have been logged out, you can cancel to stay on this page, or log in again',
    );
    // Close keeps the user on the page.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(shell.route().startsWith('/industry/artWork')).toBe(true);
    // Re-login clears the token and reloads to the login page, with the page as redirect.
    await shell.navigate('/industry/authors');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Re-Login' }).click();
    await page.waitForURL((u) => u.hash.startsWith('#/login'));
    expect(shell.route()).toBe('/login?redirect=%2Findustry%2Fauthors');
    expect(await shell.token()).toBeUndefined();
    await context.close();
  });

  it('does not move when the system asks for reduced motion, and animates when it does not', async () => {
    // The tests' browser contexts ask for reduced motion (helpers/env.ts STILL): an ordinary session.
    const still = await session('admin');
    expect(await still.shell.asksForReducedMotion()).toBe(true);
    expect(await still.shell.sidebarTransition()).toBe('0s');
    expect(await still.shell.ripplesWhilePressed()).toBe(0);
    await still.context.close();
    // A browser with the default setting.
    const context = await env.browser.newContext({
      viewport: { width: 1440, height: 900 },
      reducedMotion: 'no-preference',
    });
    const page = await context.newPage();
    const login = new LoginPage(page, env.baseUrl);
    await login.open();
    await login.login('admin', env.passwords.admin);
    const shell = new ShellPage(page, env.baseUrl);
    await shell.waitSignedIn();
    expect(await shell.asksForReducedMotion()).toBe(false);
    expect(await shell.sidebarTransition()).toBe('0.28s, 0.28s');
    expect(await shell.ripplesWhilePressed()).toBeGreaterThan(0);
    await context.close();
  });

  it('renders the shell for the screenshots (desktop and 375 px, zh and en, admin and user)', async () => {
    const dir = screenshotDir();
    const plans: { who: 'admin' | 'user'; routes: string[] }[] = [
      {
        who: 'admin',
        routes: ['/industry/authors', '/industry/artWork', '/baas/fabric', '/permission/role', '/dashboard'],
      },
      { who: 'user', routes: ['/baas/fabric', '/data/contract', '/billing/page', '/dashboard'] },
    ];
    for (const { who, routes } of plans) {
      for (const lang of ['en', 'zh'] as const) {
        for (const width of [1440, 375]) {
          const { context, page, shell } = await session(who, lang, width);
          for (const r of routes) {
            await shell.navigate(r);
            await shell.waitActiveTab(r);
          }
          await page.getByTestId('dashboard').waitFor();
          if (width > 992) expect((await shell.tabPaths()).length).toBe(routes.length);
          await page.waitForTimeout(300); // let charts finish their entry animation before the picture
          await page.screenshot({
            path: join(dir, `shell-${who}-${lang}-${width === 375 ? 'mobile' : 'desktop'}.png`),
          });
          await context.close();
        }
      }
    }
  });
});

/**
 * The console defects and last partial rows of issue 21, each as an operator meets it, in en and zh,
 * on the real server with the Tate seed:
 * - a platform user's details open (getUerById gets the integer id, not the route's string);
 * - a refusal whose envelope has no message shows "error" (the product), not the HTTP status text;
 * - the setting `showSettings` (default on) shows the settings button; off, the navbar has none;
 * - `/industry/groups` is a level of the route tree with a page of its own (its title, links to its
 *   pages: authors, artworks, bid users, platform users), not the 404 page;
 * - cancelling the unsaved-edits prompt of a tab's × or of "Close all" keeps the tab, the page and its
 *   edits; the next navigation goes where it was asked to, not to the dashboard (going to another tab
 *   keeps the page and asks nothing: tests/browser/keep-alive.test.ts);
 * - the "Add author" and "Add artwork" tabs close once saved (the new record's page takes their place);
 * - an expired session opens "Confirm logout" over the operator's page, not over "Page not found";
 * - a token that really expired keeps the record page asked for behind "Confirm logout" (not the list
 *   react-admin redirects to when a getOne fails, nor 404), and re-login comes back to that page;
 * - the dashboard is a pinned tab that is not cached: back on it, it starts at the top, while a cached
 *   list still comes back where it was left;
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { httpApi } from '../support/httpApi';
import { screenshotDir } from './helpers/screenshots';
import { sharedEnv } from './helpers/sharedEnv';
import { ConsolePage } from './pages/ConsolePage';
import { DefectsPage } from './pages/DefectsPage';
import { LoginPage } from './pages/LoginPage';
import { expireToken } from './helpers/expireToken';
import { addPlatformUser } from './helpers/records';

const env = sharedEnv(180_000);

/** A signed-in admin page in `lang` at `width` px, on the dashboard. */
async function admin(lang: 'en' | 'zh', width = 1440, height = 900) {
  const page = await env.signIn('admin', lang, { width, height });
  const ui = new DefectsPage(page, env.baseUrl);
  await ui.waitActiveTab('/dashboard');
  return ui;
}

const LANGS = ['en', 'zh'] as const;

/**
 * Goes to `path` once the session has ended: "Confirm logout" opens and, behind it, the console stays on
 * `path`, showing the route `shown` (not the 404 page). Resolves the dialog.
 */
async function dialogOver(ui: Awaited<ReturnType<typeof admin>>, path: string, shown: string) {
  await ui.navigate(path);
  const dialog = ui.loggedOutDialog();
  await dialog.waitFor();
  await ui.page.waitForTimeout(500);
  expect(ui.route()).toBe(path);
  expect(await ui.shownRoute()).toBe(shown);
  expect(await ui.page.getByTestId('page-404').count()).toBe(0);
  return dialog;
}

/** A platform user as the mini-program makes one (helpers/records.ts): resolves its nickname. */
async function platformUser(phone: string, nickname: string): Promise<string> {
  await addPlatformUser(env, phone, nickname);
  return nickname;
}

describe('console defects (browser)', () => {
  for (const lang of LANGS)
    it(`a platform user's details open from the list (${lang})`, async () => {
      const ui = await admin(lang);
      try {
        const nickname = await platformUser(lang === 'en' ? '13800000001' : '13800000002', `Bidder ${lang}`);
        await ui.open('/industry/users');
        const row = ui.rows().filter({ hasText: nickname }).first();
        await row.waitFor();
        await row.click();
        await ui.page.waitForURL((u) => /^#\/platformUsers\/\d+\/show$/.test(u.hash));
        await ui.page.locator('#main-content[data-route="/platformUsers/:id/show"]').waitFor();
        await ui.settle();
        await ui.main().getByText(nickname, { exact: true }).first().waitFor();
        // Still the details page once loaded: a refused getOne sends react-admin back to the list.
        expect(await ui.shownRoute()).toBe('/platformUsers/:id/show');
        expect(ui.route()).toMatch(/^\/platformUsers\/\d+\/show$/);
      } finally {
        await ui.page.context().close();
      }
    });

  for (const lang of LANGS)
    it(`a refusal without a message shows "error", not the HTTP status text (${lang})`, async () => {
      const ui = await admin(lang);
      try {
        // The server refuses the list with an envelope that carries no msg (HTTP 500).
        await ui.page.route('**/artmanager/authors/getList**', (route) =>
          route.fulfill({ status: 500, contentType: 'application/json', body: '{"code":500,"data":null}' }),
        );
        await ui.open('/industry/authors');
        const shown = ui.notifications().filter({ hasText: /error/i }).first();
        await shown.waitFor();
        expect((await shown.innerText()).trim()).toBe('error');
        expect(await ui.notifications().allInnerTexts()).not.toContainEqual(
          expect.stringMatching(/Internal Server Error|HTTP 500/),
        );
      } finally {
        await ui.page.context().close();
      }
    });

  for (const lang of LANGS)
    it(`showSettings: on by default shows the settings button, off hides it (${lang})`, async () => {
      const ui = await admin(lang);
      try {
        const toggle = ui.page.getByTestId('settings-toggle');
        await toggle.waitFor();
        await ui.openSettings();
        await ui.page.keyboard.press('Escape');
        // The account's stored settings say off (as `changeSetting({key: 'showSettings'})` would).
        const account = (await ui.page.evaluate(async () => {
          const token = decodeURIComponent(document.cookie.match(/Admin-Token=([^;]+)/)?.[1] ?? '');
          const r = await fetch('/dev-api/user/info', { headers: { 'X-Token': token } });
          return ((await r.json()) as { data: { account: string } }).data.account;
        })) as string;
        await ui.page.evaluate(
          (key) => localStorage.setItem(key, JSON.stringify({ showSettings: false })),
          `shell-settings:${account}`,
        );
        await ui.page.reload();
        await ui.waitActiveTab('/dashboard');
        await ui.page.getByTestId('lang-select').waitFor();
        expect(await toggle.count()).toBe(0);
        // The other settings keep their defaults: the tab strip is still shown.
        expect(await ui.page.getByTestId('tags-view').isVisible()).toBe(true);
      } finally {
        await ui.page.context().close();
      }
    });

  for (const lang of LANGS)
    it(`/industry/groups is a level of the route tree with its pages, not 404 (${lang})`, async () => {
      const ui = await admin(lang);
      try {
        await ui.open('/industry/groups');
        expect(ui.route()).toBe('/industry/groups');
        expect(await ui.shownRoute()).toBe('/industry/groups');
        const pageEl = ui.page.getByTestId('group-index');
        await pageEl.waitFor();
        await expect
          .poll(() => pageEl.getByRole('heading').innerText())
          .toBe(lang === 'en' ? 'Registry groups' : '登记分组');
        const entries = await pageEl
          .locator('[data-group-entry]')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-group-entry')));
        expect(entries).toEqual([
          '/industry/authors',
          '/industry/artWork',
          '/industry/bidUser',
          '/industry/users',
        ]);
        expect(await ui.page.getByTestId('page-404').count()).toBe(0);
        await pageEl.locator('[data-group-entry="/industry/authors"]').click();
        await ui.page.waitForURL((u) => u.hash === '#/industry/authors');
        await ui.rows().first().waitFor();
      } finally {
        await ui.page.context().close();
      }
    });

  for (const lang of LANGS)
    it(`the dashboard is pinned and not cached: back on it, it starts at the top (${lang})`, async () => {
      const ui = await admin(lang, 1440, 500);
      try {
        await ui.settle();
        /** Scrolls the window to `y` (again until the page is tall enough); resolves the position. */
        const scrollTo = async (y: number) => {
          const at = () =>
            ui.page.evaluate((to) => {
              window.scrollTo(0, to);
              return window.scrollY;
            }, y);
          await expect.poll(at, { timeout: 15_000 }).toBeGreaterThan(100);
          return ui.page.evaluate(() => window.scrollY);
        };
        await scrollTo(400);
        await ui.navigate('/industry/authors');
        // The list's own tab first: the address changes before the list replaces the dashboard, whose rows
        // would match too (and the scroll would be the dashboard's).
        await ui.waitActiveTab('/industry/authors');
        await ui.rows().first().waitFor();
        const listY = await scrollTo(300);
        // The dashboard's tab is pinned: no close button.
        expect(await ui.tab('/dashboard').getByTestId('tag-close').count()).toBe(0);
        await ui.tab('/dashboard').click();
        await ui.waitActiveTab('/dashboard');
        await ui.settle();
        await ui.page.waitForTimeout(300);
        expect(await ui.page.evaluate(() => window.scrollY)).toBe(0);
        // A cached view still comes back where it was left.
        await ui.tab('/industry/authors').click();
        await ui.waitActiveTab('/industry/authors');
        // Its rows may be fetched again first (the page is not tall enough for its position until then).
        await ui.rows().first().waitFor();
        await expect.poll(() => ui.page.evaluate(() => window.scrollY)).toBe(listY);
      } finally {
        await ui.page.context().close();
      }
    });

  for (const lang of LANGS)
    it(`cancelling the unsaved-edits prompt keeps the tab, on × and on Close all (${lang})`, async () => {
      const ui = await admin(lang);
      try {
        await ui.navigate('/industry/artWork');
        // The list's own tab, not only rows (the dashboard has rows too): the next navigation would else
        // supersede the list's render before its tab is added.
        await ui.waitActiveTab('/industry/artWork');
        await ui.rows().first().waitFor();
        await ui.navigate('/authors/1');
        await ui.waitActiveTab('/authors/1');
        const intro = ui.textbox(lang === 'en' ? /Introduction/ : /作者简介/);
        await intro.waitFor();
        // The record is loaded (its name is in the form) before its stored introduction is read.
        await expect.poll(() => ui.main().locator('[name="authorName"]').first().inputValue()).not.toBe('');
        const original = await intro.inputValue();
        const typed = `Edited by the test ${lang}`;
        await intro.fill(typed);
        const before = await ui.tabPaths();
        expect(before).toContain('/authors/1');

        /** Does `close`, answers the prompt with Cancel: the tabs, the page and the typed text stay. */
        const cancelled = async (close: () => Promise<void>) => {
          const cancel = ui.answerNextPrompt(false);
          await close();
          await cancel;
          await ui.page.waitForTimeout(300);
          expect(await ui.tabPaths()).toEqual(before);
          expect(ui.route()).toBe('/authors/1');
          expect(await intro.inputValue()).toBe(typed);
        };
        // The tab's ×, then Close all from the tab's menu.
        await cancelled(() => ui.closeTab('/authors/1'));
        await cancelled(() => ui.tabMenu('/authors/1', lang === 'en' ? /^Close all$/ : /^关闭所有$/));

        // The next navigation lands where it was asked to, and closes nothing. Going to another tab keeps the
        // edit page as it was left (keep-alive), so it asks nothing; an unexpected prompt would be dismissed
        // (Playwright's default) and the navigation would not happen.
        await ui.tab('/industry/artWork').click();
        await ui.page.waitForURL((u) => u.hash.startsWith('#/industry/artWork'));
        await ui.waitActiveTab('/industry/artWork');
        expect(await ui.tabPaths()).toEqual(before);

        // Closing a tab with nothing unsaved still closes it at once, and goes to the last tab. The kept page
        // still has the typed text: typing the stored text back leaves nothing unsaved.
        await ui.navigate('/authors/1');
        await ui.waitActiveTab('/authors/1');
        expect(await intro.inputValue()).toBe(typed);
        await intro.fill(original);
        await ui.closeTab('/authors/1');
        await ui.page.waitForURL((u) => !u.hash.startsWith('#/authors/1'));
        // The address changes before React shows the new page (a transition): wait for its tab.
        await ui.waitActiveTab('/industry/artWork');
        await expect.poll(() => ui.tabPaths()).toEqual(before.filter((p) => p !== '/authors/1'));
      } finally {
        await ui.page.context().close();
      }
    });

  for (const lang of LANGS)
    it(`the "Add author" and "Add artwork" tabs close after saving (${lang})`, async () => {
      const ui = await admin(lang);
      const form = new ConsolePage(ui.page, env.baseUrl);
      try {
        const authorName = `Tab test author ${lang}`;
        await ui.navigate('/authors/create');
        await ui.waitActiveTab('/authors/create');
        await form.input('authorName').fill(authorName);
        await form.save();
        await ui.page.waitForURL((u) => /^#\/authors\/\d+\/show$/.test(u.hash));
        const authorTab = ui.route();
        await ui.waitActiveTab(authorTab);
        await expect.poll(() => ui.tabPaths()).not.toContain('/authors/create');
        expect(await ui.tabPaths()).toContain(authorTab);

        await ui.navigate('/artworks/create');
        await ui.waitActiveTab('/artworks/create');
        await form.input('artWorkName').fill(`Tab test artwork ${lang}`);
        await form.autocomplete('author', authorName, authorName);
        await form.autocomplete('classify', 'painting', 'painting');
        await form.input('texture').fill('Ink on paper');
        await form.save();
        // Two-step add: saving step one leads to step two, a tab of the new artwork's edit page.
        await ui.page.waitForURL((u) => /^#\/artworks\/\d+\/baseInfo$/.test(u.hash));
        await ui.waitActiveTab(ui.route().replace(/\/baseInfo$/, ''));
        await expect.poll(() => ui.tabPaths()).not.toContain('/artworks/create');
        expect(await ui.tabPaths()).toContain(authorTab);
      } finally {
        await ui.page.context().close();
      }
    });

  for (const lang of LANGS)
    it(`an expired session keeps the operator's page behind "Confirm logout" (${lang})`, async () => {
      const ui = await admin(lang);
      try {
        await ui.navigate('/industry/authors');
        await ui.rows().first().waitFor();
        // The session ends on the server (as an expired token does): the next call answers code 2.
        const token = await ui.token();
        const out = await httpApi(env.baseUrl, token!, 'POST', '/dev-api/user/logout', {});
        expect(out.status).toBe(200);
        const dialog = await dialogOver(ui, '/industry/artWork', '/industry/artWork');
        // Closing the dialog leaves the operator on that page.
        await dialog.getByRole('button', { name: lang === 'en' ? 'Close' : /关闭|Close/ }).click();
        await dialog.waitFor({ state: 'hidden' });
        expect(await ui.shownRoute()).toBe('/industry/artWork');
        expect(await ui.page.getByTestId('page-404').count()).toBe(0);
      } finally {
        await ui.page.context().close();
      }
    });

  for (const lang of LANGS)
    it(`an expired token keeps the record page asked for behind "Confirm logout", re-login returns to it (${lang})`, async () => {
      const ui = await admin(lang);
      try {
        await ui.navigate('/industry/authors');
        await ui.rows().first().waitFor();
        // The token really expires (TOKEN_TTL_HOURS): its next call answers code 2.
        expireToken(env.dataDir, (await ui.token())!);
        // Behind the dialog: the author's page, not the list (react-admin's "does not exist" redirect), not 404.
        const dialog = await dialogOver(ui, '/authors/1/show', '/authors/:id/show');
        expect(await ui.notifications().allInnerTexts()).not.toContainEqual(
          expect.stringMatching(/Element does not exist|条目不存在/),
        );
        // Re-login: the token goes, the login page's redirect is the author's page, and signing in returns there.
        await dialog.getByTestId('relogin').click();
        await ui.page.waitForURL((u) => u.hash.startsWith('#/login'));
        expect(new URLSearchParams(ui.page.url().split('?')[1]).get('redirect')).toBe('/authors/1/show');
        await new LoginPage(ui.page, env.baseUrl).login('admin', env.passwords.admin);
        await ui.page.waitForURL((u) => u.hash === '#/authors/1/show');
        expect(await ui.loggedOutDialog().count()).toBe(0);
      } finally {
        await ui.page.context().close();
      }
    });

  it('screenshots of the changed screens at 1440 and 375 px, en and zh', async () => {
    for (const lang of LANGS)
      for (const width of [1440, 375]) {
        const ui = await admin(lang, width, 800);
        try {
          await ui.open('/industry/groups');
          await ui.page.getByTestId('group-index').waitFor();
          await ui.page.screenshot({ path: join(screenshotDir(), `defects-groups-${lang}-${width}.png`) });
        } finally {
          await ui.page.context().close();
        }
      }
  });
});

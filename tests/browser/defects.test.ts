/**
 * The console defects and last partial rows of issue 21, each as an operator meets it, in en and zh,
 * on the real server with the Tate seed:
 * - a platform user's details open (getUerById gets the integer id, not the route's string);
 * - a refusal whose envelope has no message shows "error" (the product), not the HTTP status text;
 * - the setting `showSettings` (default on) shows the settings button; off, the navbar has none;
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpApi } from '../support/httpApi';
import { startEnv, type TestEnv } from './helpers/env';
import { DefectsPage } from './pages/DefectsPage';

let env: TestEnv;

beforeAll(async () => {
  env = await startEnv();
}, 180_000);

afterAll(async () => {
  await env?.stop();
});

/** A signed-in admin page in `lang` at `width` px, on the dashboard. */
async function admin(lang: 'en' | 'zh', width = 1440) {
  const page = await env.signIn('admin', lang, { width, height: 900 });
  const ui = new DefectsPage(page, env.baseUrl);
  await ui.waitActiveTab('/dashboard');
  return ui;
}

const LANGS = ['en', 'zh'] as const;

/**
 * A platform user, as the mini-program makes one: a bid user added by the admin, then its first
 * sign-in (`/app-api/user/login`, the initial password being the phone number). Resolves its nickname.
 */
async function platformUser(phone: string, nickname: string): Promise<string> {
  const added = await env.adminApi('/artmanager/subjects/insertUser', { phone, nickname });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  const login = await httpApi(env.baseUrl, null, 'POST', '/app-api/user/login', {
    account: phone,
    password: phone,
  });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
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
        await ui.settle();
        await ui.main().getByText(nickname, { exact: true }).first().waitFor();
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
});

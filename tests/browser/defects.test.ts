/**
 * The console defects and last partial rows of issue 21, each as an operator meets it, in en and zh,
 * on the real server with the Tate seed:
 * - a platform user's details open (getUerById gets the integer id, not the route's string);
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('console defects (browser)', () => {
  for (const lang of LANGS)
    it(`a platform user's details open from the list (${lang})`, async () => {
      const ui = await admin(lang);
      try {
        await ui.open('/industry/users');
        const row = ui.rows().first();
        await row.waitFor();
        const nickname = (await row.locator('td').nth(2).innerText()).trim();
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
});

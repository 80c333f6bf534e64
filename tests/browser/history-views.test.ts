/**
 * Record history and saved views in the console (issue 21 items 3 and 4), on the real server with the
 * Tate seed, in English and Chinese:
 * - an artwork edited twice, then reverted to its first edit: the History tab shows three revisions, the
 *   newest a diff of the name from the second edit back to the first, labelled in the console's language;
 * - a list view saved with a filter comes back after signing out and in (the Views menu, and the list
 *   restored to the last view from the server);
 * - the column chooser hides a column of the list.
 */
import { describe, expect, it } from 'vitest';
import { sharedEnv } from './helpers/sharedEnv';
import { HistoryPage } from './pages/HistoryPage';
import { SessionPage } from './pages/SessionPage';
import { LoginPage } from './pages/LoginPage';

const env = sharedEnv(300_000);

const TEXT = {
  en: {
    name: 'Artwork name',
    revert: /^Confirm$/,
    views: /^Views$/,
    save: /Save current view/,
    saveButton: /^Save$/,
    columns: /^Columns$/,
  },
  zh: {
    name: '作品名称',
    revert: /确认|确定/,
    views: /^视图$/,
    save: /保存当前视图/,
    saveButton: /^保存$/,
    columns: /列/,
  },
};

describe.each(['en', 'zh'] as const)('history and views (%s)', (lang) => {
  const t = TEXT[lang];

  it('edit an artwork twice and revert the first edit: three revisions and the diff', async () => {
    const page = await env.signIn('admin', lang);
    const ui = new HistoryPage(page, env.baseUrl);
    try {
      const id = lang === 'en' ? 3 : 4;
      const edit = (artWorkName: string) =>
        ui.api('POST', '/artmanager/artwork/baseInfo', { id, artWorkName });
      await edit(`First edit ${lang}`);
      await edit(`Second edit ${lang}`);
      await ui.openHistory('artworks', id);
      expect(await ui.revisions().count()).toBe(2);
      await ui.revert(1, t.revert);
      expect(await ui.revisions().count()).toBe(3);
      expect(await ui.diffRows(0)).toContainEqual([t.name, `Second edit ${lang}`, `First edit ${lang}`]);
      const stored = await ui.api<{ artWorkName: string }>(
        'GET',
        `/artmanager/artwork/ArtInfoByArtId?artId=${id}`,
      );
      expect(stored.artWorkName).toBe(`First edit ${lang}`);
    } finally {
      await page.context().close();
    }
  });

  it('a saved view and the last view come back after signing out and in', async () => {
    const page = await env.signIn('admin', lang);
    const ui = new HistoryPage(page, env.baseUrl);
    const session = new SessionPage(page, env.baseUrl);
    try {
      const filter = encodeURIComponent(JSON.stringify({ q: 'Turner' }));
      await ui.goto(`/artworks?filter=${filter}`);
      await page.locator('table tbody tr').first().waitFor();
      await ui.saveView(t.views, t.save, `Turner ${lang}`, t.saveButton);
      // The last view reaches the server a second after the change.
      await expect
        .poll(() => ui.api('GET', '/dev-api/views/last?resource=artworks'), { timeout: 15_000 })
        .toMatchObject({
          filter: { q: 'Turner' },
        });
      await session.logout();
      await page.waitForURL((u) => u.hash.includes('login'));
      // Nothing in the browser remembers the list (its stored params, the last route, the login's
      // redirect back to it): only the server can bring the view back. The language choice stays.
      await page.evaluate(() => {
        for (const k of Object.keys(localStorage)) if (!k.includes('locale')) localStorage.removeItem(k);
        sessionStorage.clear();
      });
      await ui.goto('/login');
      await page.waitForURL((u) => u.hash === '#/login');
      await new LoginPage(page, env.baseUrl).login('admin', env.passwords.admin);
      await page.waitForURL((u) => !u.hash.includes('login'));
      expect(ui.route()).not.toContain('Turner');
      await ui.goto('/artworks');
      // The list asks the server for its last view on its first showing after signing in.
      await expect.poll(() => ui.route(), { timeout: 15_000 }).toContain('Turner');
      expect(await ui.viewNames(t.views)).toContain(`Turner ${lang}`);
    } finally {
      await page.context().close();
    }
  });

  it('the column chooser hides a column', async () => {
    const page = await env.signIn('admin', lang);
    const ui = new HistoryPage(page, env.baseUrl);
    try {
      await ui.goto('/authors');
      const label = lang === 'en' ? 'Introduction' : '简介';
      const before = await ui.headers();
      const target = before.find((h) => h !== label && h.length > 1 && h !== 'ID' && h !== '编号')!;
      await ui.hideColumn(t.columns, target);
      await expect.poll(() => ui.headers()).not.toContain(target);
    } finally {
      await page.context().close();
    }
  });
});

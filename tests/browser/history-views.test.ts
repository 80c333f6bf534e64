/**
 * Record history and saved views in the console (issue 21 items 3 and 4), on the real server with the
 * Tate seed, in English and Chinese:
 * - a seeded artwork edited twice, then reverted to its first edit: the History tab shows four revisions
 *   (its base revision, the two edits, the revert), the newest a diff of the name from the second edit
 *   back to the first, labelled in the console's language;
 * - a list view saved with a filter comes back after signing out and in (the Views menu, and the list
 *   restored to the last view from the server);
 * - the column chooser hides a column of the list;
 * - the History tab is in sight on a show page at 1440 px (the tab strip wraps, no scroll arrow hides it);
 * - Revert is offered only to accounts whose roles admit the update call: the user account sees the
 *   history of a contract template (readable by user, updated by admin only) without it, and the server
 *   refuses its revert (403), while the admin sees it.
 */
import { describe, expect, it } from 'vitest';
import { sharedEnv } from './helpers/sharedEnv';
import { HistoryPage } from './pages/HistoryPage';
import { SessionPage } from './pages/SessionPage';
import { LoginPage } from './pages/LoginPage';

const env = sharedEnv(300_000);

/** Runs `run` on a new page of `who` signed in in `lang`, and closes its context whatever happens. */
async function withPage(
  who: 'admin' | 'user',
  lang: 'en' | 'zh',
  run: (ui: HistoryPage) => Promise<void>,
): Promise<void> {
  const page = await env.signIn(who, lang);
  try {
    await run(new HistoryPage(page, env.baseUrl));
  } finally {
    await page.context().close();
  }
}

const TEXT = {
  en: {
    name: 'Artwork name',
    revert: /^Confirm$/,
    views: /^Views$/,
    save: /Save current view/,
    saveButton: /^Save$/,
    columns: /^Columns$/,
    history: /^History$/,
    revertButton: /^Revert to this revision$/,
  },
  zh: {
    name: '作品名称',
    revert: /确认|确定/,
    views: /^视图$/,
    save: /保存当前视图/,
    saveButton: /^保存$/,
    columns: /列/,
    history: /^历史$/,
    revertButton: /^恢复到此版本$/,
  },
};

describe.each(['en', 'zh'] as const)('history and views (%s)', (lang) => {
  const t = TEXT[lang];

  it('edit a seeded artwork twice and revert the first edit: the base revision, four revisions and the diff', async () => {
    const page = await env.signIn('admin', lang);
    const ui = new HistoryPage(page, env.baseUrl);
    try {
      const id = lang === 'en' ? 3 : 4;
      const edit = (artWorkName: string) =>
        ui.api('POST', '/artmanager/artwork/baseInfo', { id, artWorkName });
      await edit(`First edit ${lang}`);
      await edit(`Second edit ${lang}`);
      await ui.openHistory('artworks', id);
      // The seeded artwork's base revision (by system, issue 32), then the two edits.
      expect(await ui.revisions().count()).toBe(3);
      await ui.revert(1, t.revert);
      expect(await ui.revisions().count()).toBe(4);
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
      // The signed-out page is left for good (a hash change alone kept it running, and a navigation of
      // its still under way once took the login back to the list), and the login page is loaded anew.
      await page.goto('about:blank');
      await ui.goto('/login');
      await page.waitForURL((u) => u.hash === '#/login');
      // Nothing in the browser remembers the list (its stored params, the last route, the login's
      // redirect back to it): only the server can bring the view back. The language choice stays.
      await page.evaluate(() => {
        for (const k of Object.keys(localStorage)) if (!k.includes('locale')) localStorage.removeItem(k);
        sessionStorage.clear();
      });
      // Loaded again, so that nothing read from the storage before it was cleared stays in memory.
      await page.reload();
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

  it('the History tab is in sight on the show page at 1440 px, no scroll arrow', () =>
    withPage('admin', lang, async (ui) => {
      await ui.goto('/artworks/5/show');
      expect(await ui.tabInSight(t.history)).toBe(true);
      expect(await ui.page.locator('.MuiTabs-scrollButtons:visible').count()).toBe(0);
    }));

  // The user account may read contract templates' history (getOne: user, admin) but not revert it (update:
  // admin only). A seeded record has no revision until its first write (then a base revision and that
  // write's: the history is the audit trail of its writes), so the template is edited first by the admin; then the user sees that revision, with no Revert button.
  it('the History tab of an account without the update role shows the revisions without Revert', async () => {
    const T = '/medicine-api/smContract';
    const list = (await env.adminApi(`${T}/templateList?page=1&pageSize=100&sort=id&order=ASC`)).body.data
      .list as { id: number }[];
    // Not the templates the next test edits (0 and 1): the third of the three shipped ones.
    const id = list[2].id;
    const description = `Read-only history ${lang}`;
    expect((await env.adminApi(`${T}/updateTemplate`, { id, description })).status).toBe(200);
    await withPage('user', lang, async (ui) => {
      await ui.openHistory('contractTemplates', id);
      expect(await ui.revisions().count()).toBeGreaterThan(0);
      expect(await ui.revisions().first().innerText()).toContain(description);
      expect(await ui.revertButtons(t.revertButton).count()).toBe(0);
      expect(await ui.revisions().getByRole('button').count()).toBe(0);
    });
  });

  it('Revert is shown to the admin; the server refuses a revert by an account without the update role (403)', async () => {
    const T = '/medicine-api/smContract';
    const list = (await env.adminApi(`${T}/templateList?page=1&pageSize=100&sort=id&order=ASC`)).body.data
      .list as { id: number }[];
    const id = list[lang === 'en' ? 0 : 1].id;
    for (const n of [1, 2])
      expect(
        (await env.adminApi(`${T}/updateTemplate`, { id, description: `Edit ${n} ${lang}` })).status,
      ).toBe(200);
    await withPage('admin', lang, async (ui) => {
      await ui.openHistory('contractTemplates', id);
      await expect.poll(() => ui.revertButtons(t.revertButton).count()).toBeGreaterThan(0);
    });
    const revisions = (await env.adminApi(`/dev-api/history/revisions?resource=contractTemplates&id=${id}`))
      .body.data as { list: { id: number }[] };
    await withPage('user', lang, async (ui) => {
      const status = await ui.page.evaluate(
        async (body) => {
          const token = decodeURIComponent(document.cookie.match(/Admin-Token=([^;]+)/)?.[1] ?? '');
          const res = await fetch('/dev-api/history/revert', {
            method: 'POST',
            headers: { 'X-Token': token, 'Content-Type': 'application/json' },
            body: JSON.stringify(body),
          });
          return res.status;
        },
        { resource: 'contractTemplates', id, revision: revisions.list[1].id },
      );
      expect(status).toBe(403);
    });
  });
});

/**
 * Live updates (issue 32, "Live"), in en and zh, on the real server: the console keeps one stream of
 * record events (GET /dev-api/events, src/live) and another session's writes (through the API, as another
 * operator's console makes them) show without reloading:
 * - a list filtered to a name nobody has yet shows the record another session creates with that name,
 *   and, filtered to it, its new name when the other session renames it;
 * - that author's edit page, kept hidden while the operator is on the list, says on coming back that the
 *   record was changed by the other session's account (before anything is typed), still shows the values
 *   it was opened with, and its Reload button brings the stored values into the form.
 */
import { describe, expect, it } from 'vitest';
import { httpApi } from '../support/httpApi';
import { sharedEnv } from './helpers/sharedEnv';
import { LivePage } from './pages/LivePage';

const env = sharedEnv(180_000);

const TEXT = {
  en: { changed: 'This record was changed by admin since you opened it', reload: 'Reload' },
  zh: { changed: '此记录在您打开后已被 admin 修改', reload: '重新加载' },
};

/** A signed-in admin console in `lang`, on the dashboard. */
async function signedIn(lang: 'en' | 'zh') {
  const page = await env.signIn('admin', lang, { width: 1440, height: 900 });
  const ui = new LivePage(page, env.baseUrl);
  await ui.waitActiveTab('/dashboard');
  return ui;
}

/** Another operator's session: its calls go through the API with its own token. */
async function otherSession() {
  const token = await env.adminToken();
  return (method: string, path: string, body?: unknown) => httpApi(env.baseUrl, token, method, path, body);
}

describe.each(['en', 'zh'] as const)('live updates (%s)', (lang) => {
  it('a list shows the record another session creates; its kept edit page says it was changed elsewhere', async () => {
    const ui = await signedIn(lang);
    try {
      const other = await otherSession();
      const name = `Live ${lang} ${Date.now().toString(36)}`;
      await ui.navigate('/industry/authors');
      await ui.waitActiveTab('/industry/authors');
      await ui.rows().first().waitFor();
      await ui.search(name);
      await expect.poll(() => ui.rows().filter({ hasText: name }).count()).toBe(0);

      // Another session creates the author: the list shows it, without a reload.
      const add = await other('POST', '/artmanager/authors/addAuthors', { authorName: name });
      expect(add.status, JSON.stringify(add.body)).toBe(200);
      const id = add.body.data.id as number;
      await ui.rows().filter({ hasText: name }).first().waitFor();

      // The operator opens its edit page, then goes back to the list (the edit page is kept, hidden).
      await ui.navigate(`/authors/${id}`);
      await ui.waitActiveTab(`/authors/${id}`);
      await expect.poll(() => ui.input('authorName').inputValue()).toBe(name);
      expect(await ui.changedNotice().count()).toBe(0);
      await ui.tab('/industry/authors').click();
      await ui.waitActiveTab('/industry/authors');

      // Meanwhile the other session renames the author: the list shown follows.
      const renamed = `${name} renamed`;
      const upd = await other('POST', '/artmanager/authors/updateInfo', { id, authorName: renamed });
      expect(upd.status, JSON.stringify(upd.body)).toBe(200);
      await ui.rows().filter({ hasText: renamed }).first().waitFor();

      // Back on the kept edit page: the notice, before anything is typed; the form as it was opened.
      await ui.tab(`/authors/${id}`).click();
      await ui.waitActiveTab(`/authors/${id}`);
      await ui.changedNotice().waitFor();
      expect(await ui.changedNotice().innerText()).toContain(TEXT[lang].changed);
      expect(await ui.input('authorName').inputValue()).toBe(name);

      // Reload: the stored values, and the notice is gone.
      expect(await ui.reloadButton().innerText()).toMatch(new RegExp(TEXT[lang].reload, 'i'));
      await ui.reloadButton().click();
      await expect.poll(() => ui.input('authorName').inputValue()).toBe(renamed);
      await ui.changedNotice().waitFor({ state: 'detached' });
    } finally {
      await ui.page.context().close();
    }
  });
});

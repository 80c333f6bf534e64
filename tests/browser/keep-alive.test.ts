/**
 * Keep-alive of the tab strip's pages (issue 21, partial row: "the product's keep-alive keeps a view as it
 * was left: a half-filled form, the open tab"), in en and zh, on the real server with the Tate seed:
 * - an author's edit form typed in and not saved, left for another tab without a prompt, comes back with
 *   the typed text; the unsaved-edits prompt still guards it when its tab is closed (Cancel keeps tab and
 *   text), and once closed (confirmed) the page opens afresh with the stored text;
 * - the "Add author" form typed in comes back typed; the tab's Refresh (after the prompt) empties it;
 * - an artwork's show page left on its History tab comes back on that tab.
 */
import { describe, expect, it } from 'vitest';
import type { Dialog } from 'playwright-core';
import { sharedEnv } from './helpers/sharedEnv';
import { notKept } from './helpers/shownView';
import { ConsolePage } from './pages/ConsolePage';
import { DefectsPage } from './pages/DefectsPage';

const env = sharedEnv(180_000);

/**
 * A signed-in admin page in `lang`, on the dashboard. `answer(accept)` answers the next unsaved-edits
 * prompt (`window.confirm`); any other prompt is dismissed (the edits stay) and recorded in `unexpected`.
 */
async function admin(lang: 'en' | 'zh') {
  const page = await env.signIn('admin', lang, { width: 1440, height: 900 });
  const ui = new DefectsPage(page, env.baseUrl);
  const form = new ConsolePage(page, env.baseUrl);
  const unexpected: string[] = [];
  let next: { accept: boolean; done: (text: string) => void } | null = null;
  page.on('dialog', (d: Dialog) => {
    const text = d.message();
    const expected = next;
    next = null;
    if (!expected) unexpected.push(text);
    void (expected?.accept ? d.accept() : d.dismiss()).then(() => expected?.done(text));
  });
  const answer = (accept: boolean) => new Promise<string>((done) => (next = { accept, done }));
  await ui.waitActiveTab('/dashboard');
  return { ui, form, unexpected, answer };
}

const TEXT = {
  en: { intro: /Introduction/, refresh: /^Refresh$/, history: /^History$/ },
  zh: { intro: /作者简介/, refresh: /^刷新$/, history: /^历史$/ },
};

describe.each(['en', 'zh'] as const)('keep-alive of the tab strip (%s)', (lang) => {
  const t = TEXT[lang];

  it('an edit form keeps its unsaved text across tabs; closing its tab asks, then forgets it', async () => {
    const { ui, form, unexpected, answer } = await admin(lang);
    try {
      const id = lang === 'en' ? 2 : 3;
      await ui.navigate('/industry/authors');
      await ui.waitActiveTab('/industry/authors');
      await ui.rows().first().waitFor();
      await ui.navigate(`/authors/${id}`);
      await ui.waitActiveTab(`/authors/${id}`);
      const intro = ui.textbox(t.intro);
      await intro.waitFor();
      // The record is loaded (its name is in the form).
      await expect.poll(() => form.input('authorName').inputValue()).not.toBe('');
      const before = await intro.inputValue();
      const typed = `Kept while away ${lang}`;
      await intro.fill(typed);

      // Another tab: no prompt (nothing is lost), and back: the typed text is there.
      await ui.tab('/industry/authors').click();
      await ui.waitActiveTab('/industry/authors');
      await ui.rows().first().waitFor();
      await ui.tab(`/authors/${id}`).click();
      await ui.waitActiveTab(`/authors/${id}`);
      await expect.poll(() => ui.textbox(t.intro).inputValue()).toBe(typed);
      expect(unexpected).toEqual([]);

      // The guard still knows the form is dirty: closing its tab asks; Cancel keeps tab and text.
      let prompt = answer(false);
      await ui.closeTab(`/authors/${id}`);
      await prompt;
      await ui.page.waitForTimeout(300);
      expect(await ui.tabPaths()).toContain(`/authors/${id}`);
      expect(await ui.textbox(t.intro).inputValue()).toBe(typed);

      // Confirmed: the tab goes, and the page opens afresh with the stored text.
      prompt = answer(true);
      await ui.closeTab(`/authors/${id}`);
      await prompt;
      await ui.waitActiveTab('/industry/authors');
      await expect.poll(() => ui.tabPaths()).not.toContain(`/authors/${id}`);
      await ui.navigate(`/authors/${id}`);
      await ui.waitActiveTab(`/authors/${id}`);
      await expect.poll(() => form.input('authorName').inputValue()).not.toBe('');
      await expect.poll(() => ui.textbox(t.intro).inputValue()).toBe(before);
      expect(unexpected).toEqual([]);
    } finally {
      await ui.page.context().close();
    }
  });

  it('the "Add author" form keeps what was typed across tabs; Refresh empties it', async () => {
    const { ui, form, unexpected, answer } = await admin(lang);
    try {
      await ui.navigate('/authors/create');
      await ui.waitActiveTab('/authors/create');
      const name = `Half-filled ${lang}`;
      await form.input('authorName').fill(name);
      await ui.tab('/dashboard').click();
      await ui.waitActiveTab('/dashboard');
      await ui.tab('/authors/create').click();
      await ui.waitActiveTab('/authors/create');
      await expect.poll(() => form.input('authorName').inputValue()).toBe(name);
      expect(unexpected).toEqual([]);

      // Refresh drops the kept form (after the unsaved-edits prompt).
      const prompt = answer(true);
      await ui.tabMenu('/authors/create', t.refresh);
      await prompt;
      await ui.waitActiveTab('/authors/create');
      await expect.poll(() => form.input('authorName').inputValue()).toBe('');
      expect(await ui.tabPaths()).toContain('/authors/create');
      expect(unexpected).toEqual([]);
    } finally {
      await ui.page.context().close();
    }
  });

  it('a show page left on its History tab comes back on it', async () => {
    const { ui } = await admin(lang);
    try {
      const id = lang === 'en' ? 6 : 7;
      await ui.navigate(`/artworks/${id}/show`);
      await ui.waitActiveTab(`/artworks/${id}/show`);
      await ui.page.getByRole('tab', { name: t.history }).click();
      await ui.page.waitForURL((u) => u.hash === `#/artworks/${id}/show/history`);
      // The History tab is open on screen, and the page's tab in the strip leads back to it (the address
      // changes before the page renders: leaving at once would abandon that render).
      await expect
        .poll(() => notKept(ui.page.getByRole('tab', { name: t.history })).getAttribute('aria-selected'))
        .toBe('true');
      await expect
        .poll(() => ui.tab(`/artworks/${id}/show`).getAttribute('href'))
        .toBe(`#/artworks/${id}/show/history`);
      await ui.tab('/dashboard').click();
      await ui.waitActiveTab('/dashboard');
      await ui.tab(`/artworks/${id}/show`).click();
      await ui.waitActiveTab(`/artworks/${id}/show`);
      expect(ui.route()).toBe(`/artworks/${id}/show/history`);
      await expect
        .poll(() => ui.page.getByRole('tab', { name: t.history }).getAttribute('aria-selected'))
        .toBe('true');
    } finally {
      await ui.page.context().close();
    }
  });
});

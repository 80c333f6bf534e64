/**
 * The console end to end on the real server and a real (temporary) database seeded with Tate records:
 * log in as admin, find a real Tate author by name, create an author with a Chinese name, create an
 * artwork for them, see the width error for a 31-Chinese-character artwork name in Chinese and in
 * English, look at the author's works, delete the artwork after confirming (the dialog says it cannot be
 * undone) and check the server no longer has it. Also writes the artworks-list screenshots (en, zh) to
 * .tmp/screenshots/ (docs/screenshots/ with `npm run screenshots`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { listScreenshots } from './helpers/screenshots';
import { sharedEnv } from './helpers/sharedEnv';
import { LoginPage } from './pages/LoginPage';
import { ConsolePage } from './pages/ConsolePage';

const env = sharedEnv();
let page: Page;
let ui: ConsolePage;

beforeAll(async () => {
  page = await env.newPage('en');
  ui = new ConsolePage(page, env.baseUrl);
});

afterAll(async () => {
  await page?.context().close();
});

/** Calls the server directly (its own admin login): the HTTP status and the envelope's `data`. */
async function serverCall(path: string, body?: unknown): Promise<{ status: number; data?: any }> {
  const r = await env.adminApi(path, body);
  return { status: r.status, data: r.body.data };
}

/** Asks the server directly for an artwork: the HTTP status and record of getOne. */
async function serverArtwork(id: number): Promise<{ status: number; record?: Record<string, unknown> }> {
  const { status, data } = await serverCall(`/artmanager/artwork/ArtInfoByArtId?artId=${id}`);
  return { status, record: data };
}

/** The HTTP status of getOne for an artwork. */
async function artworkStatus(id: number): Promise<number> {
  return (await serverArtwork(id)).status;
}

describe('art registry console (browser)', () => {
  const stamp = String(Date.now()).slice(-6);
  const authorName = `测试画家${stamp}`;
  const artworkName = `墨虾图 ${stamp}`;
  let artworkId: number;

  it('logs in as admin', async () => {
    const login = new LoginPage(page, env.baseUrl);
    await login.open();
    await login.login('admin', env.passwords.admin);
    await page.getByText('Administrator').first().waitFor();
  });

  it('finds a real Tate author by name', async () => {
    await ui.goto('/authors');
    await ui.waitForRows();
    await ui.search('Turner', 'Joseph Mallord William Turner');
    const texts = await ui.rows().allInnerTexts();
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((t) => /turner/i.test(t))).toBe(true);
  });

  it('creates an author with a Chinese name', async () => {
    await ui.goto('/authors/create');
    await ui.input('authorName').fill(authorName);
    await ui.input('introduction').fill('用于浏览器测试的作者。');
    await ui.save();
    await page.waitForURL(/#\/authors\/\d+\/show/);
    await page.getByText(authorName).first().waitFor();
  });

  it('shows the width error for a 31-Chinese-character artwork name, in English and in Chinese', async () => {
    await ui.goto('/artworks/create');
    const name = ui.input('artWorkName');
    await name.fill('山'.repeat(31));
    await name.blur();
    await expect
      .poll(() => ui.helperText('artWorkName'))
      .toBe('At most 60 wide (30 Chinese characters); this is 62 wide');
    // Switching the language re-renders the form (react-admin remounts the page), so type it again.
    await ui.switchLanguage('zh');
    try {
      await ui.input('artWorkName').fill('山'.repeat(31));
      await ui.input('artWorkName').blur();
      await expect
        .poll(() => ui.helperText('artWorkName'))
        .toBe('最多 30 个汉字（60 个字符），当前为 62 个字符');
      // 30 Chinese characters are within the limit: the error goes away.
      await ui.input('artWorkName').fill('山'.repeat(30));
      await ui.input('artWorkName').blur();
      await expect.poll(() => ui.helperText('artWorkName')).toBe('');
    } finally {
      // The later steps read English labels, whatever happened here.
      await ui.switchLanguage('en');
    }
  });

  it('creates an artwork for the new author', async () => {
    await ui.input('artWorkName').fill(artworkName);
    await ui.autocomplete('author', authorName, authorName);
    await ui.autocomplete('classify', 'painting', 'painting');
    await ui.input('texture').fill('纸本水墨');
    await ui.save();
    // Two-step add: saving step one leads to step two, the sections of the new artwork.
    await page.waitForURL(/#\/artworks\/\d+\/baseInfo/);
    artworkId = ui.currentId();
    await ui.goto(`/artworks/${artworkId}/show`);
    await page.getByText(artworkName).first().waitFor();
    expect(await artworkStatus(artworkId)).toBe(200);
  });

  it('edits the artwork and saves it: the server has the new value', async () => {
    await ui.goto(`/artworks/${artworkId}`);
    await ui.input('texture').waitFor();
    await ui.input('texture').fill('纸本设色');
    await ui.save();
    await page.waitForURL(/#\/artworks\/\d+\/show/);
    await expect.poll(async () => (await serverArtwork(artworkId)).record?.texture).toBe('纸本设色');
  });

  it("lists it on the author's look-at-works page", async () => {
    await page.getByRole('link', { name: authorName }).first().click();
    await page.waitForURL(/#\/authors\/\d+\/show/);
    await page
      .getByRole('link', { name: /look at works/i })
      .first()
      .click();
    await page.waitForURL(/#\/authors\/\d+\/works/);
    await ui.rows().filter({ hasText: artworkName }).first().waitFor();
    expect(await ui.rows().count()).toBe(1);
  });

  it("edits a seeded Tate artwork's owner: every other field is unchanged after save, its image too", async () => {
    const page1 = await serverCall('/artmanager/artwork/searchArtworkList', { page: 1, pageSize: 50 });
    const seeded = (page1.data.list as Record<string, any>[]).find((r) => r.images.length > 0)!;
    expect(seeded, 'a seeded artwork with an image').toBeTruthy();
    const before = (await serverArtwork(seeded.id)).record!;
    await ui.goto(`/artworks/${seeded.id}`);
    await ui.input('possessor').waitFor();
    await ui.input('possessor').fill(`Owner ${stamp}`);
    await ui.save();
    await page.waitForURL(/#\/artworks\/\d+\/show/);
    await expect.poll(async () => (await serverArtwork(seeded.id)).record?.possessor).toBe(`Owner ${stamp}`);
    const after = (await serverArtwork(seeded.id)).record!;
    expect(after.images).toEqual(before.images);
    // One save: the record's revision moved by one, and nothing else but the owner changed.
    expect(after.revision).toBe(Number(before.revision) + 1);
    expect({ ...after, possessor: before.possessor, revision: before.revision }).toEqual(before);
  });

  it('deletes the artwork after a confirmation that says it cannot be undone', async () => {
    await ui.goto(`/artworks/${artworkId}/show`);
    await page.getByText(artworkName).first().waitFor();
    // the record as stored now, not a cached copy being refetched: the delete names its revision
    await ui.waitLoaded();
    const dialog = await ui.askDelete();
    await expect(dialog.innerText()).resolves.toContain(`Delete "${artworkName}"? This cannot be undone.`);
    // react-admin goes to the resource's list, `/artworks`, which the shell sends on to its menu entry.
    await ui.confirmDelete(dialog, /#\/industry\/artWork(\?.*)?$/);
    await expect.poll(() => artworkStatus(artworkId)).toBe(404);
  });

  it('writes the artworks list screenshots (en, zh) full of Tate records', async () => {
    await listScreenshots(env, 'artworks-list', async (p, locale) => {
      const c = new ConsolePage(p, env.baseUrl);
      await c.goto('/artworks');
      await c.waitForRows();
      await p
        .getByText(locale === 'en' ? 'Artwork name' : '作品名称')
        .first()
        .waitFor();
      expect(await c.rows().count()).toBe(20);
    });
  });
});

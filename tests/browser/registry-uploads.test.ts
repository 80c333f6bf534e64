/**
 * The registry's product behaviours in Chromium, in English and in Chinese (issue 8, "Art registry"):
 * - create a bid user (phone, nickname, avatar upload) and pick it on an artwork with the bid-user
 *   autocomplete; the bid user's "works" tab lists the artwork;
 * - upload a portrait and see it;
 * - upload 10 images: 9 are added, the 10th is refused with a message naming the limit; drag the 9th to
 *   the front with the mouse, move another one place with the keyboard (Space, arrows, Space); after a
 *   reload the first is the main picture (and the server has the order);
 * - attach a certificate PDF to a traceability step; the stepper shows it;
 * - generate a mini-program code, download its QR PNG and decode it back to the author's wxUrl;
 * - the two-step add (main information and images, then the sections);
 * - leave a dirty form through the sidebar: no prompt, and its tab brings the edits back (issue 21
 *   keep-alive); closing its tab asks, Cancel keeps tab and edits, OK drops them.
 * Screenshots of the new screens at 1440 and 375 px wide, both languages, into .tmp/screenshots/.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dialog, Page } from 'playwright-core';
import { screenshotDir } from './helpers/screenshots';
import { mustSee } from './helpers/mustSee';
import { notKept, shownLocator, shownTestId } from './helpers/shownView';
import { startEnv, type TestEnv } from './helpers/env';
import { pdfFile, pngFile, RegistryPage } from './pages/RegistryPage';

let env: TestEnv;
let token = '';

beforeAll(async () => {
  env = await startEnv();
  token = await env.adminToken();
});

afterAll(async () => {
  await env?.stop();
});

/** Calls the server directly as admin: the envelope's `data` (throws on an error status). */
async function api(path: string, body?: unknown): Promise<any> {
  const r = await fetch(`${env.baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'X-Token': token, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await r.json()) as { data?: unknown; msg?: string };
  if (!r.ok) throw new Error(`${path}: ${r.status} ${json.msg}`);
  return json.data;
}

/** Polls up to 20 s: the shared machine can be slow to render. */
const POLL = { timeout: 20_000 };

const T = {
  en: {
    tooMany: /At most 9 images: .+ was not added/,
    main: 'Main picture',
    unsaved: "weren't saved",
    works: 'Artworks',
    stepOne: 'Main information and images',
    stepTwo: 'Sections',
    expert: 'Expert assessment',
  },
  zh: {
    tooMany: /最多 9 张图片：.+ 未添加/,
    main: '主图',
    unsaved: '修改未保存',
    works: '艺术品列表',
    stepOne: '主要信息与图片',
    stepTwo: '详细信息',
    expert: '专家鉴定',
  },
} as const;

describe.each(['en', 'zh'] as const)('registry uploads and codes (%s)', (lang) => {
  const stamp = `${lang}${String(Date.now()).slice(-5)}`;
  const t = T[lang];
  let page: Page;
  let ui: RegistryPage;
  let authorId = 0;
  let artId = 0;
  let bidUserId = 0;

  beforeAll(async () => {
    const author = await api('/artmanager/authors/addAuthors', { authorName: `Registry author ${stamp}` });
    authorId = author.id;
    const art = await api('/artmanager/artwork/addArtwork', {
      artWorkName: `Registry work ${stamp}`,
      author: authorId,
      classify: 'painting',
      texture: 'Oil on canvas',
    });
    artId = art.id;
    page = await env.signIn('admin', lang);
    ui = new RegistryPage(page, env.baseUrl);
  });

  afterAll(async () => {
    await page?.context().close();
  });

  it('creates a bid user with an avatar and picks it on an artwork', async () => {
    const phone = `139${String(Date.now()).slice(-8)}`;
    const nickname = `Bidder ${stamp}`;
    await ui.goto('/bidUsers/create');
    await ui.input('phone').fill(phone);
    await ui.input('nickname').fill(nickname);
    await ui.uploadFile('avatar', pngFile('avatar.png', [200, 40, 40]));
    await ui.save();
    await page.waitForURL(/#\/bidUsers\/\d+\/show/);
    const bidId = ui.currentId();
    await notKept(page.getByText(nickname)).first().waitFor();
    const created = await api(`/artmanager/bidUser/getInfo?id=${bidId}`);
    expect(created).toMatchObject({ phone, account: phone, nickname, mustChangePassword: 1 });
    expect(created.avatar).toMatch(/^\/uploads\/bidusers\/avatar\/.+\.png$/);

    await ui.goto(`/artworks/${artId}`);
    await ui.autocomplete('bid', nickname.slice(0, 8), nickname);
    await ui.save();
    await page.waitForURL(/#\/artworks\/\d+\/show/);
    await expect
      .poll(async () => (await api(`/artmanager/artwork/ArtInfoByArtId?artId=${artId}`)).bid)
      .toBe(bidId);

    bidUserId = bidId;
    await ui.goto(`/bidUsers/${bidId}/show`);
    await shownTestId(page, 'bid-works').getByText(`Registry work ${stamp}`).first().waitFor();
  });

  it('uploads a portrait and shows it', async () => {
    await ui.goto(`/authors/${authorId}`);
    await ui.uploadFile('portrait', pngFile('portrait.png', [30, 120, 200]));
    await ui.save();
    await page.waitForURL(/#\/authors\/\d+\/show/);
    const portrait = (await api(`/artmanager/authors/getInfo?id=${authorId}`)).portrait as string;
    expect(portrait).toMatch(/^\/uploads\/authors\/portrait\/[0-9a-f]{64}\.png$/);
    const img = shownLocator(page, `img[src$="${portrait}"]`).first();
    await img.waitFor();
    expect(await img.evaluate((e: HTMLImageElement) => e.complete && e.naturalWidth)).toBe(48);
  });

  it('adds 9 images, refuses the 10th naming the limit, drags the 9th to the front; after a reload it is the main picture', async () => {
    await ui.goto(`/artworks/${artId}`);
    const files = Array.from({ length: 10 }, (_, i) =>
      pngFile(`img${i + 1}.png`, [i * 25, 255 - i * 20, (i * 70) % 256]),
    );
    await ui.addImages(files);
    await page.getByText(t.tooMany).first().waitFor();
    await expect.poll(() => ui.tiles().count(), POLL).toBe(9);
    const before = await ui.tileUrls();
    await ui.dragTile(8, 0);
    const dragged = [before[8], ...before.slice(0, 8)];
    await expect.poll(() => ui.tileUrls(), POLL).toEqual(dragged);
    // By keyboard too (dnd-kit's keyboard sensor): the third tile, picked up with Space, one place left
    // (arrows move within a row of the grid; the first row holds at least three tiles at 1440 px).
    await ui.keyboardMove(2, -1);
    const moved = [dragged[0], dragged[2], dragged[1], ...dragged.slice(3)];
    await expect.poll(() => ui.tileUrls(), POLL).toEqual(moved);
    await ui.save();
    await page.waitForURL(/#\/artworks\/\d+\/show/);
    const stored = (await api(`/artmanager/artwork/ArtInfoByArtId?artId=${artId}`)).images as string[];
    expect(stored).toEqual(moved);
    expect(stored[0]).toBe(before[8]);
    await ui.goto(`/artworks/${artId}`);
    await page.reload();
    await expect.poll(() => ui.tileUrls(), POLL).toEqual(stored);
    await expect(ui.tiles().first().innerText()).resolves.toContain(t.main);
  });

  it('attaches a certificate PDF to a traceability step, and the stepper shows it', async () => {
    await ui.goto(`/artworks/${artId}/traceability`);
    await shownLocator(page, '.RaSimpleFormIterator-add button, button.button-add').first().click();
    await shownLocator(page, '[name="traceability.0.step"]')
      .locator('xpath=..')
      .getByRole('combobox')
      .click();
    await page.getByRole('option', { name: t.expert }).click();
    await ui.uploadFile('traceability.0.attachment', pdfFile('expert-report.pdf'));
    await ui.save();
    await page.waitForURL(/#\/artworks\/\d+\/show/);
    const trace = (await api(`/artmanager/artwork/ArtInfoByArtId?artId=${artId}`)).traceability;
    expect(trace).toEqual([
      expect.objectContaining({ step: 'expertAssessment', attachment: expect.stringMatching(/\.pdf$/) }),
    ]);
    await ui.goto(`/artworks/${artId}/show/traceability`);
    const link = shownLocator(page, '.MuiStepper-root').getByTestId('file-link');
    await mustSee(page, link, `${lang} traceability step's certificate link`);
    expect(await link.getAttribute('href')).toBe(trace[0].attachment);
    const pdf = await fetch(`${env.baseUrl}${trace[0].attachment}`);
    expect(pdf.status).toBe(200);
    expect((await pdf.text()).startsWith('%PDF-')).toBe(true);
  });

  it('generates a mini-program code; its downloaded QR PNG decodes to wxUrl', async () => {
    await ui.goto(`/authors/${authorId}/show/wechat`);
    await ui.generateWxCode();
    const author = await api(`/artmanager/authors/getInfo?id=${authorId}`);
    expect(author.wxUrl).toBe(`${env.baseUrl}/#/verify/author/${authorId}`);
    const { text, filename } = await ui.downloadAndDecodeQr();
    expect(text).toBe(author.wxUrl);
    expect(filename).toBe(`author-${authorId}-mini-program.png`);
  });

  it('adds an artwork in two steps: main information and images, then the sections', async () => {
    await ui.goto('/artworks/create');
    expect(await ui.activeStep()).toContain(t.stepOne);
    await expect(shownLocator(page, '[name="baseInfo.size"]').count()).resolves.toBe(0);
    await ui.input('artWorkName').fill(`Two-step ${stamp}`);
    await ui.autocomplete('author', `Registry author ${stamp}`.slice(0, 12), `Registry author ${stamp}`);
    await ui.autocomplete('classify', 'painting', 'painting');
    await ui.input('texture').fill('Ink');
    await ui.save();
    await page.waitForURL(/#\/artworks\/\d+\/baseInfo/);
    await expect.poll(() => ui.activeStep(), POLL).toContain(t.stepTwo);
    await ui.input('baseInfo.size').waitFor();
  });

  it('keeps unsaved edits when the sidebar leaves the form; closing its tab asks, and stays when told to', async () => {
    await ui.goto(`/authors/${authorId}`);
    await ui.input('introduction').fill(`Unsaved ${stamp}`);
    const sidebarLink = page
      .locator('aside a, nav a, .MuiDrawer-root a')
      .filter({ hasText: t.works })
      .first();
    // Leaving by the sidebar loses nothing (the page is kept as left): no prompt.
    const prompts: string[] = [];
    const onDialog = (d: Dialog) => {
      prompts.push(d.message());
      void d.dismiss();
    };
    page.on('dialog', onDialog);
    await sidebarLink.click();
    await page.waitForURL(/#\/(artworks|industry\/artWork)$/);
    await ui.rows().first().waitFor();
    page.off('dialog', onDialog);
    expect(prompts).toEqual([]);

    // Back by its tab: the edits are there.
    const tag = page.locator(`[data-tag-path="/authors/${authorId}"]`);
    await tag.click();
    await page.waitForURL(new RegExp(`#/authors/${authorId}$`));
    await expect.poll(() => ui.input('introduction').inputValue(), POLL).toBe(`Unsaved ${stamp}`);

    // Closing its tab would lose them: it asks; Cancel keeps the tab, the page and the edits.
    const message = await ui.leaveDirtyForm(() => tag.getByTestId('tag-close').click());
    expect(message).toContain(t.unsaved);
    expect(page.url()).toMatch(new RegExp(`#/authors/${authorId}$`));
    await expect(tag.count()).resolves.toBe(1);
    await expect(ui.input('introduction').inputValue()).resolves.toBe(`Unsaved ${stamp}`);

    // Told to go: the tab closes and the edits are dropped (the stored text is back when it opens again).
    const again = await ui.leaveDirtyForm(() => tag.getByTestId('tag-close').click(), true);
    expect(again).toContain(t.unsaved);
    await expect.poll(() => tag.count(), POLL).toBe(0);
    await ui.goto(`/authors/${authorId}`);
    await expect.poll(() => ui.input('introduction').inputValue(), POLL).not.toBe(`Unsaved ${stamp}`);
  });

  it('writes screenshots of the new screens at 1440 and 375 px', async () => {
    const dir = screenshotDir();
    for (const width of [1440, 375]) {
      const p = await env.signIn('admin', lang, { width, height: width === 375 ? 812 : 900 });
      const c = new RegistryPage(p, env.baseUrl);
      const shots: [string, string, () => Promise<unknown>][] = [
        ['artwork-images', `/artworks/${artId}`, () => c.tiles().nth(8).waitFor()],
        [
          'artwork-traceability',
          `/artworks/${artId}/show/traceability`,
          () => shownTestId(p, 'file-link').first().waitFor(),
        ],
        ['author-mini-program', `/authors/${authorId}/show/wechat`, () => shownTestId(p, 'wx-qr').waitFor()],
        ['bid-user-create', '/bidUsers/create', () => c.fileInput('avatar').waitFor()],
        [
          'bid-user-show',
          `/bidUsers/${bidUserId}/show`,
          () =>
            notKept(p.locator('#main-content').getByText(`Bidder ${stamp}`))
              .first()
              .waitFor(),
        ],
        ['artwork-create-step-one', '/artworks/create', () => shownTestId(p, 'two-step').waitFor()],
      ];
      for (const [name, route, ready] of shots) {
        await c.goto(route);
        await ready();
        // Not 'networkidle': the console's live-update stream (GET /dev-api/events) stays open.
        await c.waitLoaded();
        await p.screenshot({ path: join(dir, `${name}.${lang}.${width}.png`), fullPage: true });
      }
      await p.context().close();
    }
  });
});

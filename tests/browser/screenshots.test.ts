/**
 * The issue 12 walk in pictures: login, dashboard, authors list, artworks list, an artwork's detail (every
 * tab, the artwork and its author put on chain first), the artwork's edit page, the blocks of the channel,
 * a block and the chaincode list, each at 1440, 768 and 375 px wide, in Chinese and in English. Each page
 * must fit its width (no sideways scrolling of the document). The pictures go to `.tmp/screenshots/walk/`
 * (git-ignored); one contact sheet of thumbnails (rows: pages, columns: width × language), rendered by
 * Chromium from an HTML grid of those pictures, goes to the screenshot folder: `.tmp/screenshots/` on an
 * ordinary run, `docs/screenshots/walk-contact-sheet.png` with `npm run screenshots` (UPDATE_SCREENSHOTS=1).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { sectionsOf } from '../../kernel/dialect/kinds';
import { schemaForResource } from '../../kernel/dialect/schemaRegistry';
import { screenshotDir } from './helpers/screenshots';
import { ROOT, STILL } from './helpers/env';
import { sharedEnv } from './helpers/sharedEnv';
import { LoginPage } from './pages/LoginPage';
import { OperatorPage } from './pages/OperatorPage';

const env = sharedEnv(180_000);
const WALK = join(ROOT, '.tmp/screenshots/walk');
const WIDTHS = [1440, 768, 375] as const;
const LANGS = ['en', 'zh'] as const;

beforeAll(async () => {
  rmSync(WALK, { recursive: true, force: true });
  mkdirSync(WALK, { recursive: true });
});

interface Shot {
  page: string;
  width: number;
  lang: string;
  file: string;
}

describe('screenshots of the operator walk (browser)', () => {
  it('every page fits 1440, 768 and 375 px in en and zh; writes the contact sheet', async () => {
    const artworkId = 1;
    // Put the artwork (and first its author) on chain, so the detail, the blocks and a block have content.
    const setup = await env.signIn('admin', 'en');
    const api = new OperatorPage(setup, env.baseUrl);
    const art = await api.api<{ author: number }>(
      'GET',
      `/artmanager/artwork/ArtInfoByArtId?artId=${artworkId}`,
    );
    await api.api('POST', '/artmanager/authors/blockChain', { id: art.author });
    const put = await api.api<{ blockNumber: number }>('POST', '/artmanager/artwork/blockChain', {
      id: artworkId,
    });
    const channels = await api.api<{ list: { id: number; name: string }[] }>('GET', '/baas-api/channels');
    const channelId = channels.list.find((c) => c.name === 'artchannel')!.id;
    await setup.context().close();

    const tabs = sectionsOf(schemaForResource('artworks')).map((s) => s.name);
    const pages: { name: string; route: string | null }[] = [
      { name: 'login', route: null },
      { name: 'dashboard', route: '/dashboard' },
      { name: 'authors', route: '/industry/authors' },
      { name: 'artworks', route: '/industry/artWork' },
      ...tabs.map((t) => ({
        name: `artwork-${t}`,
        route: t === 'main' ? `/artworks/${artworkId}/show` : `/artworks/${artworkId}/show/${t}`,
      })),
      { name: 'artwork-edit', route: `/artworks/${artworkId}` },
      { name: 'blocks', route: `/baas/channel/${channelId}` },
      { name: 'block', route: `/baas/block/${channelId}/${put.blockNumber}` },
      { name: 'chaincode', route: '/baas/chainCode' },
    ];

    const shots: Shot[] = [];
    const overflowing: string[] = [];
    /** The walk at one width in one language, in a browser context of its own. */
    const walk = async (lang: (typeof LANGS)[number], width: (typeof WIDTHS)[number]) => {
      const viewport = { width, height: width === 375 ? 812 : 900 };
      const context = await env.browser.newContext({
        ...STILL,
        viewport,
        locale: lang === 'zh' ? 'zh-CN' : 'en-US',
      });
      await context.addCookies([{ name: 'language', value: lang, url: env.baseUrl }]);
      const page = await context.newPage();
      const ui = new OperatorPage(page, env.baseUrl);
      for (const p of pages) {
        if (p.route === null) await new LoginPage(page, env.baseUrl).open();
        else {
          await ui.goto(p.route);
          await page.waitForTimeout(500);
        }
        const file = join(WALK, `${p.name}.${width}.${lang}.png`);
        await page.screenshot({ path: file });
        shots.push({ page: p.name, width, lang, file });
        const { scroll, inner } = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          inner: window.innerWidth,
        }));
        if (scroll > inner) overflowing.push(`${p.name} ${width} ${lang}: ${scroll} px wide`);
        if (p.route === null) await new LoginPage(page, env.baseUrl).login('admin', env.passwords.admin);
      }
      await context.close();
    };
    // Two walks at a time: a walk mostly waits for pages to settle, so one alone left the machine idle.
    const walks = LANGS.flatMap((lang) => WIDTHS.map((width) => () => walk(lang, width)));
    const lanes = Array.from({ length: 2 }, async () => {
      for (let next = walks.shift(); next; next = walks.shift()) await next();
    });
    await Promise.all(lanes);
    expect(shots).toHaveLength(pages.length * WIDTHS.length * LANGS.length);

    // The contact sheet: one row a page, one column per width and language.
    const columns = LANGS.flatMap((lang) => WIDTHS.map((width) => ({ lang, width })));
    const cell = (s: Shot | undefined) =>
      s ? `<td><img src="${pathToFileURL(s.file).href}"></td>` : '<td></td>';
    const html = `<!doctype html><meta charset="utf-8"><style>
      body{font:13px sans-serif;margin:12px;background:#fff}
      table{border-collapse:collapse} td,th{border:1px solid #ddd;padding:4px;vertical-align:top}
      th{background:#f4f4f5} td:first-child{font-weight:600;white-space:nowrap}
      img{width:200px;height:150px;object-fit:contain;object-position:top;display:block;background:#f0f2f5}
      </style><table><tr><th></th>${columns.map((c) => `<th>${c.width} px · ${c.lang}</th>`).join('')}</tr>
      ${pages
        .map(
          (p) =>
            `<tr><td>${p.name}</td>${columns
              .map((c) =>
                cell(shots.find((s) => s.page === p.name && s.lang === c.lang && s.width === c.width)),
              )
              .join('')}</tr>`,
        )
        .join('\n')}</table>`;
    const htmlFile = join(WALK, 'contact-sheet.html');
    writeFileSync(htmlFile, html);
    const sheetContext = await env.browser.newContext({ ...STILL, viewport: { width: 1400, height: 900 } });
    const sheet = await sheetContext.newPage();
    await sheet.goto(pathToFileURL(htmlFile).href);
    await sheet.waitForFunction(() => [...document.images].every((i) => i.complete && i.naturalWidth > 0));
    await sheet.locator('table').screenshot({ path: join(screenshotDir(), 'walk-contact-sheet.png') });
    await sheetContext.close();

    expect(overflowing).toEqual([]);
  }, 900_000);
});

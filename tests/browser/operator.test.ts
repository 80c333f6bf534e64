/**
 * The console as an operator meets it (issue 12), on the real server with the Tate seed:
 * - at 375 px the artwork detail page shows the artwork's name, author and images inside the screen,
 *   and so does the on-chain panel; the artworks list shows each row's name and author inside the screen;
 * - the settings button overlaps no button or link on any page of the sidebar (bounding boxes), for the
 *   admin and for the user;
 * - a bulk put on chain of the 20 artworks of a list page whose authors are partly on chain reports each
 *   record's own result: on chain in a block when its author is on chain, refused naming the author when
 *   not; and the server agrees.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sharedEnv } from './helpers/sharedEnv';
import { OperatorPage, overlaps } from './pages/OperatorPage';

const env = sharedEnv(180_000);

interface Artwork {
  id: number;
  artWorkName: string;
  author: number;
  authorName: string;
  images: string[];
}

const PHONE = { width: 375, height: 800 };
const DESKTOP = { width: 1440, height: 900 };

/** Signs `who` in (en) at `viewport`, walks the console with `walk`, and closes its browser context after. */
async function operate(
  who: 'admin' | 'user',
  viewport: { width: number; height: number },
  walk: (ui: OperatorPage, page: Page) => Promise<void>,
): Promise<void> {
  const page = await env.signIn(who, 'en', viewport);
  try {
    await walk(new OperatorPage(page, env.baseUrl), page);
  } finally {
    await page.context().close();
  }
}

describe('operator walk (browser)', () => {
  it('at 375 px the artwork detail page shows the name, author and images', async () => {
    await operate('admin', PHONE, async (ui, page) => {
      const art = await ui.api<Artwork>('GET', '/artmanager/artwork/ArtInfoByArtId?artId=1');
      expect(art.images.length).toBeGreaterThan(0);
      await ui.goto('/artworks/1/show');
      const main = page.locator('#main-content');
      const name = main.getByText(art.artWorkName, { exact: true }).first();
      await name.waitFor();
      expect(await ui.withinWidth(name)).toBe(true);
      const author = main.getByRole('link', { name: art.authorName, exact: true }).first();
      expect(await ui.withinWidth(author)).toBe(true);
      for (const url of art.images) {
        // Remote catalogue pictures are shown through the image cache (/image-cache/?url=...).
        const image = main
          .locator(`a[href="${url}"], a[href="/image-cache/?url=${encodeURIComponent(url)}"]`)
          .first();
        expect(await ui.withinWidth(image)).toBe(true);
      }
      const panel = main.getByTestId('onchain-status');
      await panel.waitFor();
      expect(await ui.withinWidth(panel)).toBe(true);
    });
  });

  it('at 375 px the artworks list shows each row’s name and author inside the screen', async () => {
    await operate('admin', PHONE, async (ui, page) => {
      await ui.goto('/industry/artWork');
      const main = page.locator('#main-content');
      // The list's first rows, as the console asks for them (newest first).
      const { list } = await ui.api<{ list: Artwork[] }>('POST', '/artmanager/artwork/searchArtworkList', {
        page: 1,
        pageSize: 3,
        sort: 'id',
        order: 'DESC',
      });
      expect(list).toHaveLength(3);
      for (const { id } of list) {
        const art = await ui.api<Artwork>('GET', `/artmanager/artwork/ArtInfoByArtId?artId=${id}`);
        const name = main.getByText(art.artWorkName, { exact: true }).first();
        await name.waitFor();
        expect(await ui.withinWidth(name), `name of ${id}`).toBe(true);
        const author = main.getByText(art.authorName, { exact: true }).first();
        expect(await ui.withinWidth(author), `author of ${id}`).toBe(true);
      }
    });
  });

  for (const who of ['admin', 'user'] as const)
    it(`the settings button overlaps no button or link on any sidebar page (${who})`, async () => {
      await operate(who, DESKTOP, async (ui) => {
        const links = await ui.sidebarLinks();
        expect(links.length).toBeGreaterThan(3);
        const found: string[] = [];
        for (const { path, groups } of links) {
          await ui.openFromSidebar(path, groups);
          const settings = await ui.settingsBox();
          for (const c of await ui.clickables())
            if (overlaps(settings, c.box)) found.push(`${path}: "${c.label}"`);
        }
        console.log(`settings button checked on ${links.length} pages (${who})`);
        expect(found).toEqual([]);
      });
    });

  it('a bulk put on chain of 20 artworks with mixed authors reports each result', async () => {
    await operate('admin', DESKTOP, async (ui, page) => {
      await ui.goto('/industry/artWork');
      const ids = await ui.rowIds();
      expect(ids).toHaveLength(20);
      const arts = new Map<number, Artwork>();
      for (const id of ids)
        arts.set(id, await ui.api<Artwork>('GET', `/artmanager/artwork/ArtInfoByArtId?artId=${id}`));
      // Every other author of the page goes on chain first (through the API): mixed authors.
      const authors = [...new Set([...arts.values()].map((a) => a.author))];
      expect(authors.length).toBeGreaterThan(1);
      const onChain = new Set(authors.filter((_, i) => i % 2 === 0));
      for (const id of onChain) await ui.api('POST', '/artmanager/authors/blockChain', { id });

      await ui.goto('/industry/artWork');
      await ui.rows().first().waitFor();
      await ui.selectAll();
      await page.evaluate(() => window.scrollTo(0, 0));
      const { results, progress, summary } = await ui.bulkPutOnChain();
      console.log(summary);
      expect(results.map((r) => r.id).sort()).toEqual([...ids].sort());
      expect(progress).toBe('20 of 20 done');
      for (const r of results) {
        const art = arts.get(r.id)!;
        expect(r.resource).toBe('artworks');
        if (onChain.has(art.author)) {
          expect(r.state, `${r.id}: ${r.text}`).toBe('done');
          expect(r.text).toMatch(/On chain in block \d+/);
        } else {
          expect(r.state, `${r.id}: ${r.text}`).toBe('refused');
          expect(r.text).toContain(`the author ${art.authorName} is not on chain yet`);
        }
        // The server agrees: put on chain (being put on chain or on chain) or still not.
        const stored = await ui.api<{ status: number }>(
          'GET',
          `/artmanager/artwork/ArtInfoByArtId?artId=${r.id}`,
        );
        expect(stored.status > 0).toBe(onChain.has(art.author));
      }
      const done = results.filter((r) => r.state === 'done').length;
      expect(summary).toBe(`${done} on chain, ${20 - done} refused or failed`);
    });
  });
});

/**
 * Page object for the operator's walk (tests/browser/operator.test.ts): a signed-in page; the sidebar's
 * every entry (groups opened), the settings button and every button or link of the page as bounding
 * boxes, a list's rows and its bulk "put on chain" dialog with each record's result, and the API with
 * the session's token.
 */
import type { Locator } from 'playwright-core';
import { BasePage, pageApi } from './BasePage';

/** A bounding box in CSS pixels (Playwright's `boundingBox()`). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Whether two boxes share an area (touching edges do not count). */
export function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** One row of the bulk put-on-chain dialog. */
export interface ChainResult {
  resource: string;
  id: number;
  state: string;
  text: string;
}

export class OperatorPage extends BasePage {
  /** Full page load of a route, then `settle`. */
  async goto(route: string): Promise<void> {
    await super.goto(route);
    await this.settle();
  }

  /** Waits until the shell shows a page and nothing in it is loading (progress bars, skeletons). */
  async settle(): Promise<void> {
    await this.waitLoaded();
    await this.page.waitForTimeout(300);
  }

  /**
   * Every sidebar link: its path and the menu groups that hold it, outermost first (found by opening
   * each group in turn; opening one may close another).
   */
  async sidebarLinks(): Promise<{ path: string; groups: string[] }[]> {
    const sidebar = this.page.getByTestId('sidebar');
    await sidebar.locator('[data-menu-path]').first().waitFor();
    const found = new Map<string, string[]>();
    const opened = new Set<string>();
    for (let round = 0; round < 60; round++) {
      const links = await sidebar.locator('[data-menu-path]').evaluateAll((els) =>
        els.map((e) => {
          const groups: string[] = [];
          for (
            let li = e.closest('li')?.parentElement?.closest('li');
            li;
            li = li.parentElement?.closest('li')
          )
            groups.unshift(
              li.querySelector(':scope > [data-menu-group]')?.getAttribute('data-menu-group') ?? '',
            );
          return { path: e.getAttribute('data-menu-path') ?? '', groups };
        }),
      );
      for (const l of links) if (!found.has(l.path)) found.set(l.path, l.groups);
      const closed = await sidebar
        .locator('[data-menu-group][aria-expanded="false"]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-menu-group') ?? ''));
      const next = closed.find((g) => !opened.has(g));
      if (next === undefined) break;
      opened.add(next);
      await sidebar.locator(`[data-menu-group="${next}"][aria-expanded="false"]`).first().click();
      await this.page.waitForTimeout(250);
    }
    return [...found].map(([path, groups]) => ({ path, groups }));
  }

  /** Clicks the sidebar entry of `path` (opening `groups` first) and waits for the page. */
  async openFromSidebar(path: string, groups: string[]): Promise<void> {
    const sidebar = this.page.getByTestId('sidebar');
    for (const g of groups) {
      const group = sidebar.locator(`[data-menu-group="${g}"]`).first();
      if ((await group.getAttribute('aria-expanded')) !== 'true') {
        await group.click();
        await this.page.waitForTimeout(250);
      }
    }
    await sidebar.locator(`[data-menu-path="${path}"]`).first().click();
    await this.page.waitForURL((u) => u.hash.split('?')[0] === `#${path}`);
    await this.settle();
  }

  /** The settings button's box. */
  async settingsBox(): Promise<Box> {
    const box = await this.page.getByTestId('settings-toggle').boundingBox();
    if (!box) throw new Error('the settings button is not shown');
    return box;
  }

  /**
   * Every visible button and link of the page except the settings button itself: `{label, box}`, label
   * being its text or aria-label (for a failure message).
   */
  async clickables(): Promise<{ label: string; box: Box }[]> {
    return this.page.evaluate(() => {
      const out: { label: string; box: { x: number; y: number; width: number; height: number } }[] = [];
      const toggle = document.querySelector('[data-testid="settings-toggle"]');
      for (const el of document.querySelectorAll<HTMLElement>(
        'a[href], button, [role="button"], input[type="checkbox"], [role="tab"], [role="menuitem"]',
      )) {
        if (toggle && (el === toggle || toggle.contains(el) || el.contains(toggle))) continue;
        const r = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        if (r.width === 0 || r.height === 0 || style.visibility === 'hidden') continue;
        if (r.bottom <= 0 || r.top >= window.innerHeight) continue;
        const label = (el.innerText || el.getAttribute('aria-label') || el.tagName).trim().slice(0, 40);
        out.push({ label, box: { x: r.x, y: r.y, width: r.width, height: r.height } });
      }
      return out;
    });
  }

  /** The list's data rows. */
  rows(): Locator {
    return this.page.locator('#main-content table tbody tr');
  }

  /** The ids in the list's ID column (the column after the selection checkbox). */
  async rowIds(): Promise<number[]> {
    await this.rows().first().waitFor();
    const texts = await this.rows().locator('td:nth-child(2)').allInnerTexts();
    return texts.map((t) => Number(t.trim()));
  }

  /** Selects every row of the page with the header checkbox. */
  async selectAll(): Promise<void> {
    await this.page.locator('#main-content table thead input[type="checkbox"]').first().check();
  }

  /**
   * Opens the bulk "put on chain" dialog, starts it and waits until every record has its result;
   * resolves the results in dialog order and the progress text shown at the end.
   */
  async bulkPutOnChain(
    timeout = 120_000,
  ): Promise<{ results: ChainResult[]; progress: string; summary: string }> {
    await this.page.getByTestId('bulk-put-on-chain').click();
    const start = this.page.getByTestId('put-on-chain-start');
    await start.waitFor();
    await start.click();
    await this.page.getByTestId('put-on-chain-summary').waitFor({ timeout });
    const list = this.page.getByTestId('put-on-chain-results');
    const results = await list.locator('li').evaluateAll((els) =>
      els.map((e) => ({
        resource: e.getAttribute('data-resource') ?? '',
        id: Number(e.getAttribute('data-record-id')),
        state: e.getAttribute('data-state') ?? '',
        text: (e as HTMLElement).innerText,
      })),
    );
    return {
      results,
      progress: await this.page.getByTestId('put-on-chain-progress').innerText(),
      summary: await this.page.getByTestId('put-on-chain-summary').innerText(),
    };
  }

  /** Whether `locator`'s box lies within the viewport's width (and is shown). */
  async withinWidth(locator: Locator): Promise<boolean> {
    const box = await locator.boundingBox();
    const width = this.page.viewportSize()!.width;
    return !!box && box.width > 0 && box.x >= 0 && box.x + box.width <= width + 0.5;
  }

  /** Calls the API with the session's token (`X-Token`, docs/api.md); resolves the envelope's `data`. */
  api<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    return pageApi<T>(this.page, method, path, body);
  }
}

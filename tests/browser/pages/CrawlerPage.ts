/**
 * Page object for the route crawler (tests/browser/crawler.test.ts): a signed-in page that records
 * what goes wrong while it is driven — uncaught exceptions (`pageerror`), console errors (every one),
 * requests that fail or go to another site, API answers with a 5xx status (and, separately, any other
 * error status: the crawler causes no refusal, so a 4xx is a page asking for what it cannot have) — and knows how to reach a route (a click
 * on the sidebar entry, opening its groups first, or an in-app hash navigation), how to wait until a page
 * has settled (no request in flight) and what it shows (the 404 page, the "not available yet" page, the
 * tabs of a react-admin show or edit page).
 */
import type { Locator, Page, Request } from 'playwright-core';
import { mustSee } from '../helpers/mustSee';
import { notKept, shownLocator } from '../helpers/shownView';
import { pageApi } from './BasePage';

/** One thing that went wrong, with the route being visited when it happened. */
export interface Problem {
  route: string;
  kind: 'pageerror' | 'console' | '5xx' | 'http-error' | '404' | 'not-available' | 'tab' | 'link';
  detail: string;
}

/** What the page shows after it settled. */
export interface PageState {
  /** Hash route without `#` and query. */
  path: string;
  is404: boolean;
  notAvailable: boolean;
  is401: boolean;
}

export class CrawlerPage {
  /** Problems recorded so far. */
  readonly problems: Problem[] = [];
  /** The route being visited, to attribute problems. */
  current = '';
  private inflight = new Set<Request>();

  constructor(
    readonly page: Page,
    private baseUrl: string,
  ) {
    page.on('pageerror', (e) =>
      this.problems.push({ route: this.current, kind: 'pageerror', detail: e.message }),
    );
    page.on('console', (m) => {
      // No console error is acceptable: pictures of other sites come through the image cache
      // (`/image-cache/`, a placeholder when their host is not allowed), so none fails to load.
      if (m.type() !== 'error') return;
      this.problems.push({ route: this.current, kind: 'console', detail: m.text() });
    });
    page.on('request', (r) => {
      this.inflight.add(r);
      // Nothing the console loads may come from another site (pictures go through the image cache).
      if (!r.url().startsWith(baseUrl) && !/^(data|blob):/.test(r.url()))
        this.problems.push({
          route: this.current,
          kind: 'http-error',
          detail: `request to another site: ${r.url()}`,
        });
    });
    page.on('requestfinished', (r) => this.inflight.delete(r));
    page.on('requestfailed', (r) => {
      this.inflight.delete(r);
      // A request the page itself abandoned (a navigation, react-query cancelling) did not fail.
      if (r.failure()?.errorText === 'net::ERR_ABORTED') return;
      this.problems.push({
        route: this.current,
        kind: 'http-error',
        detail: `failed: ${r.url()} (${r.failure()?.errorText ?? ''})`,
      });
    });
    page.on('response', (r) => {
      if (!r.url().startsWith(this.baseUrl)) return;
      const status = r.status();
      if (status >= 500)
        this.problems.push({ route: this.current, kind: '5xx', detail: `${status} ${r.url()}` });
      else if (status >= 400)
        this.problems.push({ route: this.current, kind: 'http-error', detail: `${status} ${r.url()}` });
    });
  }

  /** Waits until no request has been in flight for 150 ms (at most `maxMs`), then one more frame. */
  async settle(maxMs = 8000): Promise<void> {
    const start = Date.now();
    let quietSince = Date.now();
    while (Date.now() - start < maxMs) {
      if (this.inflight.size > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= 150) break;
      await this.page.waitForTimeout(25);
    }
    await this.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
  }

  /** {@link mustSee} on this page (the content tabs are named in the error). */
  async mustSee(locator: Locator, what: string, timeout = 30_000): Promise<void> {
    await mustSee(this.page, locator, what, timeout);
  }

  /** The current hash route without `#` and without the query string. */
  path(): string {
    return new URL(this.page.url()).hash.slice(1).split('?')[0];
  }

  /** Waits until the address shows `path`, or has left for another page (a redirect). */
  async waitForPath(path: string, timeout = 5000): Promise<void> {
    const start = Date.now();
    const before = this.path();
    while (Date.now() - start < timeout) {
      const now = this.path();
      if (now === path || (now !== before && before !== path)) return;
      await this.page.waitForTimeout(20);
    }
  }

  /**
   * Waits (at most `timeout` ms, without failing) until the shell shows the route `pattern`
   * (`#main-content[data-route]`, set in the same render as the page), so what is checked next is the
   * new page and not the one before.
   */
  async waitForRoute(pattern: string, timeout = 5000): Promise<void> {
    await this.page
      .locator(`#main-content[data-route="${pattern}"]`)
      .waitFor({ state: 'attached', timeout })
      .catch(() => undefined);
    await this.settle();
  }

  /** In-app navigation to `route` (no reload). */
  async navigate(route: string): Promise<void> {
    this.current = route;
    await this.page.evaluate((r) => {
      window.location.hash = r;
    }, route);
    await this.settle();
  }

  /**
   * Reaches the sidebar entry `menuPath` by clicking: first the groups `groups` (outermost first) that
   * are not open yet, then the entry. Returns false when the entry is not in the sidebar.
   */
  async clickMenu(menuPath: string, groups: string[]): Promise<boolean> {
    this.current = menuPath;
    const sidebar = this.page.getByTestId('sidebar');
    for (const g of groups) {
      const group = sidebar.locator(`[data-menu-group="${g}"]`).first();
      if ((await group.count()) === 0) return false;
      if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
    }
    const entry = sidebar.locator(`[data-menu-path="${menuPath}"]`).first();
    try {
      await entry.waitFor({ state: 'visible', timeout: 3000 });
    } catch {
      return false;
    }
    await entry.click();
    await this.waitForPath(menuPath);
    await this.settle();
    return true;
  }

  /** What the page shown shows now (not a page the shell keeps hidden). */
  async state(): Promise<PageState> {
    const main = this.page.locator('#main-content');
    return {
      path: this.path(),
      is404: (await notKept(main.getByTestId('page-404')).count()) > 0,
      notAvailable: (await notKept(main.getByTestId('not-available')).count()) > 0,
      is401: (await notKept(main.getByTestId('page-401')).count()) > 0,
    };
  }

  /** The in-app addresses (`#/...` without the `#`) the links of the shown content area lead to. */
  async links(): Promise<string[]> {
    const hrefs = await shownLocator(this.page, '#main-content a[href^="#/"]').evaluateAll((as) =>
      as.map((a) => a.getAttribute('href') ?? ''),
    );
    return [...new Set(hrefs.map((h) => h.slice(1)))];
  }

  /** The tabs of the react-admin page in the content area (not the shell's tab strip). */
  contentTabs(): Locator {
    return shownLocator(this.page, '#main-content [role="tablist"] [role="tab"]');
  }

  /** Waits until the content area shows tabs (a show or edit page that loaded its record). */
  async waitForContentTabs(timeout = 8000): Promise<boolean> {
    try {
      await this.contentTabs().first().waitFor({ state: 'visible', timeout });
      return true;
    } catch {
      return false;
    }
  }

  /** Clicks the content tab at `index`; resolves its label and the route it led to. */
  async clickContentTab(index: number): Promise<{ label: string; path: string; selected: boolean }> {
    const tab = this.contentTabs().nth(index);
    const label = ((await tab.textContent()) ?? '').trim();
    await tab.click();
    await this.settle();
    // The tab turns selected once the router has re-rendered the page: give it up to 15 s (a loaded CI
    // machine once took more than 3 s; a tab that never turns selected is still reported).
    let selected = false;
    for (const start = Date.now(); !selected && Date.now() - start < 15_000;) {
      const after = this.contentTabs().nth(index);
      selected = (await after.count()) > 0 && (await after.getAttribute('aria-selected')) === 'true';
      if (!selected) await this.page.waitForTimeout(50);
    }
    return { label, path: this.path(), selected };
  }

  /** Calls the API with the session's token (`X-Token`, docs/api.md); resolves the envelope's `data`. */
  api<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    return pageApi<T>(this.page, method, path, body);
  }
}

/**
 * What every page object of the console shares: the page and the server's base URL, a full load of a
 * hash route (`#/industry/authors`), opening a sidebar entry (its group first when hidden), the
 * "Confirm logout" dialog (envelope code 2), the session token cookie, and calls of the API from inside
 * the page with that token (as the console makes them).
 */
import type { Locator, Page, Response } from 'playwright-core';
import { NOT_KEPT } from '../helpers/shownView';

export class BasePage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  /** Full page load of a hash route (`/industry/authors`). */
  async goto(route: string): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#${route}`);
  }

  /** Full page load of a hash route, then `settle`. */
  async open(route: string): Promise<void> {
    await this.goto(route);
    await this.settle();
  }

  /** Waits until the page has settled after a load: `waitLoaded`; a page object may wait for more. */
  async settle(): Promise<void> {
    await this.waitLoaded();
  }

  /**
   * Waits until the shell shows a page (`#main-content`) and nothing in it is loading (indeterminate
   * progress bars and spinners, skeletons; a page kept hidden by the keep-alive does not count), at most
   * 8 s for the loading to end. A determinate bar shows a value (the dashboard's share of artworks on
   * chain), not a load: waiting for it to go away spent the whole 8 s on every dashboard.
   */
  async waitLoaded(): Promise<void> {
    await this.page.locator('#main-content').waitFor();
    await this.page
      .waitForFunction(
        (notKept) =>
          !document.querySelector(
            [
              '.MuiLinearProgress-indeterminate',
              '.MuiLinearProgress-query',
              '.MuiCircularProgress-indeterminate',
              '.MuiSkeleton-root',
            ]
              .map((c) => `#main-content ${c}${notKept}`)
              .join(', '),
          ),
        NOT_KEPT,
        { timeout: 8000 },
      )
      .catch(() => undefined);
  }

  /** The answer of the page's next delete call (a POST whose path names delete), or null after `timeout` ms. */
  protected deleteAnswer(timeout = 30_000): Promise<Response | null> {
    return this.page
      .waitForResponse((r) => r.request().method() === 'POST' && /delete/i.test(new URL(r.url()).pathname), {
        timeout,
      })
      .catch(() => null);
  }

  /** The hash route with its query, without `#`, as in the address bar. */
  route(): string {
    return new URL(this.page.url()).hash.slice(1);
  }

  /** The "Confirm logout" dialog of envelope code 2. */
  loggedOutDialog(): Locator {
    return this.page.getByRole('dialog', { name: /Confirm logout|确认登出/ });
  }

  /** The session token cookie (`Admin-Token`). */
  async token(): Promise<string | undefined> {
    const cookies = await this.page.context().cookies(this.baseUrl);
    return cookies.find((c) => c.name === 'Admin-Token')?.value;
  }
}

/**
 * Clicks the sidebar entry `path` (`/permission/user`), opening its group (`/permission` by default)
 * first when the entry is hidden, and waits for the URL to show the route.
 */
export async function openSidebarEntry(
  page: Page,
  path: string,
  group = `/${path.split('/')[1]}`,
): Promise<void> {
  const sidebar = page.getByTestId('sidebar');
  const entry = sidebar.locator(`[data-menu-path="${path}"]`);
  if (!(await entry.isVisible())) await sidebar.locator(`[data-menu-group="${group}"]`).first().click();
  await entry.click();
  await page.waitForURL((u) => u.hash.startsWith(`#${path}`));
}

/**
 * Calls the API from inside the page with its `Admin-Token` cookie (as the console does): answers the
 * envelope's `data`, throws `METHOD path: code msg` unless the code is 0 or 200.
 */
export function pageApi<T>(page: Page, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const token = decodeURIComponent(document.cookie.match(/Admin-Token=([^;]+)/)?.[1] ?? '');
      const res = await fetch(path, {
        method,
        headers: { 'X-Token': token, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const env = (await res.json()) as { code: number; msg: string; data: unknown };
      if (env.code !== 0 && env.code !== 200) throw new Error(`${method} ${path}: ${env.code} ${env.msg}`);
      return env.data;
    },
    { method, path, body },
  ) as Promise<T>;
}

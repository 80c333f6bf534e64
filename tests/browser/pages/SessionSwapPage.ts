/**
 * Page object for the session swapped from another tab (tests/browser/session-swap.test.ts): the shell
 * (DefectsPage: tab strip, shown route, list rows, the "Confirm logout" dialog) plus opening a sidebar
 * entry under nested groups, the 404 page, and the login page's redirect.
 */
import type { Locator } from 'playwright-core';
import { DefectsPage } from './DefectsPage';

export class SessionSwapPage extends DefectsPage {
  /**
   * Clicks the sidebar entry `path` (`/industry/artWork`), first opening each of `groups` (outermost
   * first: `/industry`, `/industry/artwork`) whose entry is not shown yet; waits for the address.
   */
  async openFromSidebar(path: string, groups: string[]): Promise<void> {
    const entry = this.sidebar().locator(`[data-menu-path="${path}"]`);
    for (const group of groups)
      if (!(await entry.isVisible()))
        await this.sidebar().locator(`[data-menu-group="${group}"]`).first().click();
    await entry.click();
    await this.page.waitForURL((u) => u.hash.startsWith(`#${path}`));
  }

  /** The shell's 404 page. */
  page404(): Locator {
    return this.page.getByTestId('page-404');
  }

  /** The login page's form (its username box). */
  loginForm(): Locator {
    return this.page.locator('input[name="username"]');
  }

  /** The `redirect` of the login page's address (`/login?redirect=...`), or null. */
  loginRedirect(): string | null {
    return new URLSearchParams(this.route().split('?')[1] ?? '').get('redirect');
  }
}

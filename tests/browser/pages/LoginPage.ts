/** Page object: the login page (`#/login`). */
import type { Page } from 'playwright-core';

export class LoginPage {
  constructor(
    private page: Page,
    private baseUrl: string,
  ) {}

  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/login`);
    await this.page.locator('input[name="username"]').waitFor();
  }

  /**
   * Logs in and waits until the console has landed: a route other than the login page and the root (which
   * redirects to the landing page a moment later, and would override a navigation made before it) and the
   * shell's content area on screen. A caller that navigates next is not sent back to the dashboard.
   */
  async login(username: string, password: string): Promise<void> {
    await this.page.fill('input[name="username"]', username);
    await this.page.fill('input[name="password"]', password);
    await this.page.click('button[type="submit"]');
    await this.page.waitForURL((u) => {
      const path = u.hash.replace(/^#/, '').split('?')[0];
      return path !== '' && path !== '/' && !path.startsWith('/login');
    });
    await this.page.locator('#main-content').waitFor();
  }
}

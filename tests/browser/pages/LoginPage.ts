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

  /** Logs in and waits until the console shell (the app bar's user menu) is shown. */
  async login(username: string, password: string): Promise<void> {
    await this.page.fill('input[name="username"]', username);
    await this.page.fill('input[name="password"]', password);
    await this.page.click('button[type="submit"]');
    await this.page.waitForURL((u) => !u.hash.startsWith('#/login'));
  }
}

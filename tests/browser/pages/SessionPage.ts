/**
 * Page object for the session and messages tests (tests/browser/polish.test.ts): records the console
 * errors, failed requests and error answers of a page, reads the notifications, logs out through the
 * avatar menu, and reads the login page.
 */
import type { Locator, Page } from 'playwright-core';
import { BasePage } from './BasePage';

export class SessionPage extends BasePage {
  /** Console errors and uncaught exceptions. */
  readonly consoleErrors: string[] = [];
  /** Requests that failed (network) or were answered with a status >= 400: "<status> <METHOD> <url>". */
  readonly failedRequests: string[] = [];

  constructor(page: Page, baseUrl: string) {
    super(page, baseUrl);
    page.on('console', (m) => m.type() === 'error' && this.consoleErrors.push(m.text()));
    page.on('pageerror', (e) => this.consoleErrors.push(e.message));
    page.on('requestfailed', (r) => {
      // A request the page itself abandoned (a navigation, react-query cancelling) did not fail.
      if (r.failure()?.errorText !== 'net::ERR_ABORTED')
        this.failedRequests.push(`failed ${r.method()} ${r.url()}`);
    });
    page.on('response', (r) => {
      if (r.status() >= 400) this.failedRequests.push(`${r.status()} ${r.request().method()} ${r.url()}`);
    });
  }

  /** react-admin's notifications (snackbars) currently shown. */
  notifications(): Locator {
    return this.page.locator('.MuiSnackbar-root');
  }

  /** Waits for a notification containing `text` and answers its whole text. */
  async notification(text: RegExp | string): Promise<string> {
    const n = this.notifications().filter({ hasText: text }).first();
    await n.waitFor();
    return (await n.textContent()) ?? '';
  }

  /** Waits for the login screen's refusal (shown under its form) containing `text`; answers its text. */
  async loginError(text: RegExp | string): Promise<string> {
    const n = this.page.getByTestId('login-error').filter({ hasText: text }).first();
    await n.waitFor();
    return (await n.textContent()) ?? '';
  }

  /** Logs out through the avatar menu. */
  async logout(): Promise<void> {
    await this.page.getByTestId('avatar-menu').click();
    await this.page.getByTestId('logout').click();
  }

  usernameInput(): Locator {
    return this.page.locator('input[name="username"]');
  }

  async login(username: string, password: string): Promise<void> {
    await this.usernameInput().fill(username);
    await this.page.fill('input[name="password"]', password);
    await this.page.click('button[type="submit"]');
  }

  /** Calls the API with the page's token (as the console would), answering the envelope. */
  async api(method: 'GET' | 'POST', path: string, body?: unknown): Promise<any> {
    const token = await this.token();
    const r = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { 'X-Token': token ?? '', 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return r.json();
  }
}

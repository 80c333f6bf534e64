/**
 * Page object: the Medicine section beyond the companies list (CompaniesPage): sidebar entries, the
 * notification form (company autocomplete, status select), Messages (cards, mark read), the navbar's
 * unread count, Tracking (company picker, history rows) and Permission > Notifications.
 */
import type { Locator } from 'playwright-core';
import { ScreenPage } from './ScreenPage';

export class MedicinePage extends ScreenPage {
  /** Clicks the sidebar entry `path` (opening its group `group` first when hidden); waits for the URL. */
  async openFromMenu(path: string, group?: string): Promise<void> {
    await this.openFromSidebar(path, group);
  }

  /** The paths of the sidebar's entries (what the account may open). */
  async menuPaths(): Promise<string[]> {
    const sidebar = this.page.getByTestId('sidebar');
    return sidebar
      .locator('[data-menu-path]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-menu-path')!));
  }

  /** Picks `label` in the select input of `source`. */
  async select(source: string, label: string): Promise<void> {
    await this.page
      .locator(`input[name="${source}"]`)
      .locator('xpath=..')
      .locator('[role="combobox"]')
      .click();
    await this.page.getByRole('option', { name: label, exact: true }).click();
  }

  /** On Medicine > Notification: Create, fill, save; resolves the new notification's id. */
  async createNotification(n: { company: string; title: string; content: string; status: string }) {
    await this.page
      .getByRole('link', { name: /^(create|新建|创建)$/i })
      .first()
      .click();
    await this.page.waitForURL((u) => u.hash.startsWith('#/notifications/create'));
    await this.ui.autocomplete('companyId', n.company.slice(0, 4), n.company);
    await this.ui.input('title').fill(n.title);
    await this.ui.input('content').fill(n.content);
    await this.select('status', n.status);
    await this.ui.save();
    await this.page.waitForURL(/#\/notifications\/\d+\/show/);
    return this.ui.currentId();
  }

  /** The navbar's unread count (its badge's data-count). */
  async unreadCount(): Promise<number> {
    return Number(await this.page.getByTestId('unread-count').getAttribute('data-count'));
  }

  messages(): Locator {
    return this.page.getByTestId('message');
  }

  /** On Tracking: picks the company whose option text starts with `name`. */
  async pickTrackedCompany(name: string): Promise<void> {
    const input = this.page.getByTestId('tracking-company').locator('input');
    await input.click();
    await input.fill(name.slice(0, 4));
    await this.page.getByRole('option').filter({ hasText: name }).first().click();
    await this.page.getByTestId('tracking-row').first().waitFor();
  }

  trackingRows(): Locator {
    return this.page.getByTestId('tracking-row');
  }
}

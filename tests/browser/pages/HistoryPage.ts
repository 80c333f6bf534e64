/**
 * Page object of a record's History tab and a list's saved views and column chooser (src/schema-ui/
 * history.tsx, savedViews.tsx): what the operator sees (revision cards, their diff rows, the views menu,
 * the table's column headers) and the buttons they click.
 */
import type { Locator } from 'playwright-core';
import { BasePage, pageApi } from './BasePage';

export class HistoryPage extends BasePage {
  /** Opens the History tab of record `id` of `resource` and waits for its first revision. */
  async openHistory(resource: string, id: number): Promise<void> {
    await this.goto(`/${resource}/${id}/show/history`);
    await this.revisions().first().waitFor();
  }

  revisions(): Locator {
    return this.page.getByTestId('revision');
  }

  /** The diff of revision card `i` (0 = newest) as rows of cell texts. */
  async diffRows(i: number): Promise<string[][]> {
    const rows = this.revisions().nth(i).locator('[data-testid="history-diff"] tbody tr');
    return rows.evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())),
    );
  }

  /** Clicks "Revert to this revision" on card `i`, confirms, and waits for a new newest revision. */
  async revert(i: number, confirmLabel: RegExp): Promise<void> {
    const before = await this.revisions().count();
    await this.revisions().nth(i).getByRole('button').click();
    await this.page.getByRole('dialog').getByRole('button', { name: confirmLabel }).click();
    await this.page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="revision"]').length > n,
      before,
    );
  }

  /** The "Revert to this revision" buttons of every revision card. */
  revertButtons(label: RegExp): Locator {
    return this.revisions().getByRole('button', { name: label });
  }

  /**
   * Whether the show page's tab `name` is in sight as it is: inside the viewport, and the element at its
   * centre is the tab itself (not clipped away by a scrolling tab strip, not under its scroll arrow).
   */
  async tabInSight(name: RegExp): Promise<boolean> {
    const tab = this.page.getByRole('tab', { name });
    await tab.waitFor();
    return tab.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
      if (r.width === 0 || x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) return false;
      const hit = document.elementFromPoint(x, y);
      return !!hit && el.contains(hit);
    });
  }

  /** The list's column header texts. */
  async headers(): Promise<string[]> {
    await this.page.locator('table thead th').first().waitFor();
    return (await this.page.locator('table thead th').allTextContents()).map((t) => t.trim()).filter(Boolean);
  }

  /** Hides the column `label` with the column chooser. */
  async hideColumn(button: RegExp, label: string): Promise<void> {
    await this.page.getByRole('button', { name: button }).click();
    await this.page.locator('.MuiPopover-paper').getByText(label, { exact: true }).click();
    await this.page.keyboard.press('Escape');
  }

  /** Saves the list's current view as `name` through the Views menu. */
  async saveView(button: RegExp, save: RegExp, name: string, saveLabel: RegExp): Promise<void> {
    await this.page.getByRole('button', { name: button }).click();
    await this.page.getByRole('menuitem', { name: save }).click();
    await this.page.getByTestId('view-name').fill(name);
    await this.page.getByRole('dialog').getByRole('button', { name: saveLabel }).click();
    await this.page.getByRole('dialog').waitFor({ state: 'hidden' });
  }

  /** The names in the Views menu (opened, then closed). */
  async viewNames(button: RegExp): Promise<string[]> {
    await this.page.getByRole('button', { name: button }).click();
    const items = this.page.getByTestId('saved-view');
    await items.first().waitFor();
    const names = await items.locator('.MuiListItemText-primary').allTextContents();
    await this.page.keyboard.press('Escape');
    return names;
  }

  api<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    return pageApi<T>(this.page, method, path, body);
  }
}

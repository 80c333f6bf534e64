/**
 * Page object of the console after a schema evolution (issue 33 item 4; tests/browser/evolution.test.ts):
 * the History tab and saved views (HistoryPage), plus the artwork list's Export download (TransferPage's
 * buttons), the list's filter menu ("Add filter"), the saved-view menu entries, and the edit form's inputs.
 */
import type { Locator } from 'playwright-core';
import { HistoryPage } from './HistoryPage';

export class EvolutionPage extends HistoryPage {
  /** Opens the list of `resource` (`/artworks`) and waits until it has rows and nothing is loading. */
  async openList(resource: string): Promise<void> {
    await this.goto(`/${resource}`);
    await this.page.locator('table tbody tr').first().waitFor();
    await this.waitLoaded();
  }

  /** Clicks the saved view `name` in the Views menu (`button`) and waits for the list to show it. */
  async applyView(button: RegExp, name: string): Promise<void> {
    await this.page.getByRole('button', { name: button }).click();
    await this.page.getByTestId('saved-view').filter({ hasText: name }).first().click();
    await this.waitLoaded();
  }

  /** The labels the list's "Add filter" menu offers (opened, then closed). */
  async filterChoices(button: RegExp): Promise<string[]> {
    await this.page.getByRole('button', { name: button }).first().click();
    // react-admin's filter entries are checkboxes of a menu (role menuitemcheckbox)
    const items = this.page.locator('.MuiMenu-paper [role^="menuitem"]');
    await items.first().waitFor();
    const labels = (await items.allTextContents()).map((t) => t.trim());
    await this.page.keyboard.press('Escape');
    return labels;
  }

  /** The edit page of record `id` of `resource`, loaded. */
  async openEdit(resource: string, id: number): Promise<void> {
    await this.goto(`/${resource}/${id}`);
    await this.page.locator('form').first().waitFor();
    await this.waitLoaded();
  }

  /** A form input by its source. */
  input(source: string): Locator {
    return this.page.locator(`form [name="${source}"]`).first();
  }

  /** Clicks Export, then CSV, and answers the downloaded file's text. */
  async exportCsv(): Promise<string> {
    await this.page.getByTestId('export-button').click();
    const download = this.page.waitForEvent('download');
    await this.page.getByTestId('export-csv').click();
    const stream = await (await download).createReadStream();
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
}

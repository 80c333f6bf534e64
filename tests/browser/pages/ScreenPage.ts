/**
 * A page object of one console screen (accounts, companies, contracts, medicine), over the generic
 * `ConsolePage` (`ui`) of the same page; `openFromSidebar` opens an entry of the sidebar menu.
 */
import type { Locator, Page } from 'playwright-core';
import { openSidebarEntry } from './BasePage';
import { ConsolePage } from './ConsolePage';

export class ScreenPage {
  readonly ui: ConsolePage;

  constructor(
    readonly page: Page,
    baseUrl: string,
  ) {
    this.ui = new ConsolePage(page, baseUrl);
  }

  /** Clicks the sidebar entry `path`, opening its group first when hidden; waits for the URL. */
  protected openFromSidebar(path: string, group?: string): Promise<void> {
    return openSidebarEntry(this.page, path, group);
  }

  /** Opens the list `path` from the sidebar and waits for it (its Create button). */
  protected async openListFromSidebar(path: string): Promise<void> {
    await this.openFromSidebar(path);
    await this.createButton().waitFor();
  }

  /** The list's Create button (react-admin CreateButton, a link). */
  createButton(): Locator {
    return this.page.getByRole('link', { name: /^(create|新建|创建)$/i }).first();
  }
}

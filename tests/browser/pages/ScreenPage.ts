/**
 * A page object of one console screen (accounts, companies, contracts, medicine), over the generic
 * `ConsolePage` (`ui`) of the same page; `openFromSidebar` opens an entry of the sidebar menu.
 */
import type { Page } from 'playwright-core';
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
}

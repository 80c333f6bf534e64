/**
 * Page object of the console's live updates (issue 32, "Live"; tests/browser/live.test.ts): the shell's
 * tab strip (ShellPage) plus the list's rows, the list's search box, a form's inputs by source, and the
 * edit page's notice that its record changed elsewhere (src/live/ChangedElsewhere.tsx) with its Reload
 * button; all of the page shown, not of the pages kept hidden.
 */
import type { Locator } from 'playwright-core';
import { ShellPage } from './ShellPage';
import { notKept, shownLocator, shownTestId } from '../helpers/shownView';

export class LivePage extends ShellPage {
  /** The list's data rows. */
  rows(): Locator {
    return shownLocator(this.page, '#main-content table tbody tr');
  }

  /**
   * Types `text` into the list's free-text search box (`q`) and waits until the list has taken it into
   * its URL (the search is debounced: a navigation before then would be undone by the list's own).
   */
  async search(text: string): Promise<void> {
    await shownLocator(this.page, 'input[name="q"]').fill(text);
    await this.page.waitForURL((u) => decodeURIComponent(u.hash).includes(JSON.stringify(text).slice(1, -1)));
  }

  /** A form input by its source. */
  input(source: string): Locator {
    return shownLocator(this.page, `[name="${source}"]`).first();
  }

  /** The notice "This record was changed … since you opened it" of the edit page shown. */
  changedNotice(): Locator {
    return shownTestId(this.page, 'changed-elsewhere');
  }

  /** The notice's Reload button. */
  reloadButton(): Locator {
    return notKept(this.changedNotice().getByRole('button'));
  }
}

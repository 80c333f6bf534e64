/**
 * Page object for the console defects of issue 21 (tests/browser/defects.test.ts): the shell's tab
 * strip (ShellPage; `open` and `settle` come from BasePage) plus a list's rows, typing in a form's text
 * box by its label, answering the browser's unsaved-edits prompt (`window.confirm`), the notifications
 * shown, and the settings drawer's switches.
 */
import type { Dialog, Locator } from 'playwright-core';
import { ShellPage } from './ShellPage';
import { notKept, shownLocator } from '../helpers/shownView';

export class DefectsPage extends ShellPage {
  /** The route pattern the shell shows (`/platformUsers/:id/show`), from `#main-content[data-route]`. */
  async shownRoute(): Promise<string> {
    return (await this.page.locator('#main-content').getAttribute('data-route')) ?? '';
  }

  /** The list's data rows. */
  rows(): Locator {
    return shownLocator(this.page, '#main-content table tbody tr');
  }

  /** The main area. */
  main(): Locator {
    return this.page.locator('#main-content');
  }

  /** A text box of the page shown by its label. */
  textbox(label: RegExp | string): Locator {
    return notKept(this.main().getByRole('textbox', { name: label })).first();
  }

  /**
   * Answers the next browser prompt (`window.confirm` of unsaved edits) with `accept`; resolves the
   * prompt's text once it was shown.
   */
  answerNextPrompt(accept: boolean): Promise<string> {
    return new Promise((resolve) => {
      this.page.once('dialog', (d: Dialog) => {
        const text = d.message();
        void (accept ? d.accept() : d.dismiss()).then(() => resolve(text));
      });
    });
  }

  /** react-admin's notifications (snackbars) shown now. */
  notifications(): Locator {
    return this.page.locator('.MuiSnackbar-root');
  }
}

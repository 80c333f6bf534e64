/**
 * Page object: Set → Password (`#/set/password`): opening it from the sidebar, filling the current and the
 * new password (twice), submitting, and the field error texts.
 */
import type { Locator, Page } from 'playwright-core';
import { openSidebarEntry } from './BasePage';

export class PasswordPage {
  constructor(readonly page: Page) {}

  /** Opens Set → Password from the sidebar and waits for the form. */
  async openFromMenu(): Promise<void> {
    await openSidebarEntry(this.page, '/set/password');
    await this.form().waitFor();
  }

  form(): Locator {
    return this.page.getByTestId('change-password');
  }

  input(name: 'oldPassword' | 'newPassword' | 'confirm'): Locator {
    return this.page.getByTestId(`password-${name}`);
  }

  /** Fills the three inputs and submits. */
  async change(oldPassword: string, newPassword: string, confirm = newPassword): Promise<void> {
    await this.input('oldPassword').fill(oldPassword);
    await this.input('newPassword').fill(newPassword);
    await this.input('confirm').fill(confirm);
    await this.form().getByRole('button').last().click();
  }

  /** The helper text under an input ('' when none). */
  async error(name: 'oldPassword' | 'newPassword' | 'confirm'): Promise<string> {
    const id = await this.input(name).getAttribute('id');
    return (await this.page.locator(`[id="${id}-helper-text"]`).innerText()).replace(/\u200b/g, '').trim();
  }
}

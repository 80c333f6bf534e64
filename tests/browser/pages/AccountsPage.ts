/**
 * Page object: Permission → User (`#/permission/user`, create at `#/accounts/create`): opening it from the
 * sidebar, the add form (username, name, password, role checkboxes), saving, the list rows and the
 * grant/revoke role buttons of a row.
 */
import type { Locator } from 'playwright-core';
import { ScreenPage } from './ScreenPage';

export class AccountsPage extends ScreenPage {
  /** Opens Permission → User from the sidebar and waits for the list (its Create button). */
  async openFromMenu(): Promise<void> {
    await this.openListFromSidebar('/permission/user');
  }

  /**
   * Adds an account through the create form: fills username, name and password, ticks the role whose
   * label is `roleLabel`, saves and waits for its show page; resolves its id.
   */
  async add(values: {
    username: string;
    name: string;
    password: string;
    roleLabel: string;
  }): Promise<number> {
    await this.createButton().click();
    await this.page.waitForURL((u) => u.hash.startsWith('#/accounts/create'));
    await this.ui.input('username').fill(values.username);
    await this.ui.input('name').fill(values.name);
    await this.ui.input('password').fill(values.password);
    await this.page.getByRole('checkbox', { name: values.roleLabel, exact: true }).check();
    await this.ui.save();
    await this.page.waitForURL(/#\/accounts\/\d+\/show/);
    return this.ui.currentId();
  }

  /** The list row of `username` (after a search for it). */
  async row(username: string): Promise<Locator> {
    await this.ui.search(username, username);
    return this.ui.rows().filter({ hasText: username }).first();
  }
}

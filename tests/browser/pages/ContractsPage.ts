/**
 * Page object: smart contracts and the Data section: the templates list (`#/medicine/smContract`, its
 * "Add smart contract" row button), the contract form (`#/contracts/create`, reached through
 * `/smContract/add?source=...`) with its template-driven parameter inputs, the contract's show page
 * (its Archive button) and the pigeonhole (`#/data/pigeonhole`, Restore); the Fabric page's chains table.
 */
import type { Locator } from 'playwright-core';
import { ScreenPage } from './ScreenPage';

export class ContractsPage extends ScreenPage {
  /**
   * Clicks the sidebar entry `path` of group `group`, opening the group first unless it is open already
   * (`aria-expanded`): the sidebar opens the group of the current page by itself, and a click on an open
   * group closes it. When the current page is in `group`, the sidebar may open it a moment after the URL
   * changed (a loaded machine): the entry is given that moment before the header is clicked.
   */
  private async clickMenu(group: string, path: string): Promise<void> {
    const sidebar = this.page.getByTestId('sidebar');
    const entry = sidebar.locator(`[data-menu-path="${path}"]`);
    const header = sidebar.locator(`[data-menu-group="${group}"]`).first();
    const here = new URL(this.page.url()).hash.startsWith(`#${group}/`);
    if (here) await entry.waitFor({ state: 'visible', timeout: 5000 }).catch(() => undefined);
    for (let i = 0; i < 5 && !(await entry.isVisible()); i++) {
      if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
      await entry.waitFor({ state: 'visible', timeout: 5000 }).catch(() => undefined);
    }
    await entry.click();
  }

  /** Opens Medicine → Smart-contract templates from the sidebar and waits for its rows. */
  async openTemplatesFromMenu(): Promise<void> {
    await this.clickMenu('/medicine', '/medicine/smContract');
    await this.page.waitForURL((u) => u.hash.startsWith('#/medicine/smContract'));
    await this.ui.waitForRows();
  }

  /** Clicks "Add smart contract" on the template row named `name`; waits for the form with its parameters. */
  async addFromTemplate(name: string): Promise<void> {
    await this.ui.rows().filter({ hasText: name }).first().getByTestId('use-template').click();
    await this.page.waitForURL((u) => u.hash.startsWith('#/contracts/create'));
    await this.page.getByTestId('schema-from').waitFor();
  }

  /** The input of parameter `name`. */
  param(name: string): Locator {
    return this.ui.input(`params.${name}`);
  }

  /** The label shown for parameter `name`'s input. */
  async paramLabel(name: string): Promise<string> {
    const id = await this.param(name).getAttribute('id');
    return (await this.page.locator(`label[for="${id}"]`).innerText()).replace(/[\s*\u200b]+$/g, '').trim();
  }

  /** Fills an input and leaves it, so validation runs. */
  async fill(source: string, value: string): Promise<void> {
    const input = this.ui.input(source);
    await input.fill(value);
    await input.blur();
  }

  /** Saves and waits for the contract's show page; resolves its id. */
  async saveAndWaitForShow(): Promise<number> {
    await this.ui.save();
    await this.page.waitForURL(/#\/contracts\/\d+\/show/);
    return this.ui.currentId();
  }

  /** Archives the record of the show page (with its confirmation); waits for the list. */
  async archiveFromShow(listHash: string): Promise<void> {
    await this.page.getByTestId('archive').first().click();
    await this.page
      .getByRole('dialog')
      .getByRole('button', { name: /confirm|确认/i })
      .click();
    await this.page.waitForURL((u) => u.hash.startsWith(listHash));
  }

  /** Opens Data → Pigeonhole from the sidebar. */
  async openPigeonholeFromMenu(): Promise<void> {
    await this.clickMenu('/data', '/data/pigeonhole');
    await this.page.waitForURL((u) => u.hash.startsWith('#/data/pigeonhole'));
  }

  /** Restores the pigeonhole row titled `title`; waits for the restored record's show page. */
  async restore(title: string, resource: string): Promise<void> {
    await this.ui.rows().filter({ hasText: title }).first().getByTestId('restore').click();
    await this.page.waitForURL(new RegExp(`#/${resource}/\\d+/show`));
  }
}

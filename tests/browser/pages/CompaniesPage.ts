/**
 * Page object: the Medicine section's companies (`#/medicine/companies`, create at `#/companies/create`):
 * opening it from the sidebar, the create form's inputs and their error texts, saving, the list rows.
 */
import type { Locator } from 'playwright-core';
import { ScreenPage } from './ScreenPage';

/** The create form's text inputs, by schema property. */
export type CompanyForm = Partial<
  Record<
    | 'companyName'
    | 'creditCode'
    | 'licenseNo'
    | 'address'
    | 'contactName'
    | 'contactPhone'
    | 'totalEmployees'
    | 'product'
    | 'adminAccount'
    | 'adminName'
    | 'adminEmail'
    | 'adminPhone'
    | 'adminPassword'
    | 'backupAdminAccount'
    | 'backupAdminName'
    | 'backupAdminEmail'
    | 'backupAdminPhone'
    | 'backupAdminPassword',
    string
  >
>;

export class CompaniesPage extends ScreenPage {
  /** Opens Medicine → Companies from the sidebar and waits for the list page (its Create button). */
  async openFromMenu(): Promise<void> {
    await this.openListFromSidebar('/medicine/companies');
  }

  /** Clicks Create on the list and waits for the form. */
  async startCreate(): Promise<void> {
    await this.createButton().click();
    await this.page.waitForURL((u) => u.hash.startsWith('#/companies/create'));
    await this.ui.input('companyName').waitFor();
  }

  /** Fills the given inputs (others untouched) and leaves the last one, so validation runs. */
  async fill(values: CompanyForm): Promise<void> {
    for (const [source, value] of Object.entries(values)) {
      const input = this.ui.input(source);
      await input.fill(value ?? '');
      await input.blur();
    }
  }

  /** The error (helper) text under an input, '' when none. */
  error(source: keyof CompanyForm): Promise<string> {
    return this.ui.helperText(source);
  }

  /** Saves and waits for the new company's show page; resolves its id. */
  async saveAndWaitForShow(): Promise<number> {
    await this.ui.save();
    await this.page.waitForURL(/#\/companies\/\d+\/show/);
    return this.ui.currentId();
  }

  rows(): Locator {
    return this.ui.rows();
  }
}

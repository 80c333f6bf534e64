/**
 * Page object of a record's edit page and its conflict view (src/schema-ui/conflict.tsx): opening the
 * edit form, typing into a field by its label, saving, and, when the record changed since, the view's rows
 * (field, when opened, theirs, yours) and the choice per field.
 */
import type { Locator } from 'playwright-core';
import { BasePage, pageApi } from './BasePage';
import { notKept } from '../helpers/shownView';

export class ConflictPage extends BasePage {
  /** Opens the edit page of record `id` of `resource` and waits for its form. */
  async openEdit(resource: string, id: number): Promise<void> {
    await this.open(`/${resource}/${id}`);
    await this.page.locator('form').first().waitFor();
  }

  /** Replaces the value of the form's text field labelled `label` (a required field's label ends in " *"). */
  async fill(label: string, value: string): Promise<void> {
    const escaped = label.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    await this.page
      .getByLabel(new RegExp(`^${escaped}(\\s*\\*)?$`))
      .first()
      .fill(value);
  }

  /** Clicks the form's Save button (`name`: its label in the console's language). */
  async save(name: RegExp): Promise<void> {
    await this.page.locator('form').getByRole('button', { name }).first().click();
  }

  /** The conflict view (a dialog). */
  view(): Locator {
    return this.page.getByTestId('conflict-view');
  }

  /** The conflict view's rows: `{field: [label, when opened, theirs, yours]}` by field name. */
  async rows(): Promise<Record<string, string[]>> {
    await this.view().waitFor();
    return this.view()
      .locator('tbody tr')
      .evaluateAll((trs) =>
        Object.fromEntries(
          trs.map((tr) => [
            tr.getAttribute('data-field') ?? '',
            [...tr.querySelectorAll('th, td')].slice(0, 4).map((c) => (c.textContent ?? '').trim()),
          ]),
        ),
      );
  }

  /** Chooses `which` (its radio label: Mine/Theirs in the console's language) for `field`. */
  async pick(field: string, which: string): Promise<void> {
    await this.view().locator(`tr[data-field="${field}"]`).getByLabel(which, { exact: true }).check();
  }

  /** Saves the chosen values and waits for the view to close and the show page to open. */
  async saveChosen(): Promise<void> {
    await this.page.getByTestId('conflict-save').click();
    await this.view().waitFor({ state: 'hidden' });
    await this.page.waitForURL(/\/show/);
  }

  /** Opens the show page of record `id` of `resource` and waits until it shows `text`. */
  async openShow(resource: string, id: number, text: string): Promise<void> {
    await this.open(`/${resource}/${id}/show`);
    await notKept(this.page.getByText(text)).first().waitFor();
  }

  /**
   * Clicks the page's Delete, then the confirmation's Confirm (`confirm`: its label), and resolves the
   * delete call's HTTP status (the call is a POST whose path names delete).
   */
  async deleteConfirmed(confirm: RegExp): Promise<number> {
    await notKept(this.page.getByRole('button', { name: /^(delete|删除)$/i }))
      .first()
      .click();
    const answer = this.deleteAnswer();
    await this.page.getByRole('dialog').getByRole('button', { name: confirm }).click();
    const r = await answer;
    if (!r) throw new Error('no delete call answered within 30 s');
    return r.status();
  }

  /** The text of react-admin's notification (a snackbar) once one is shown. */
  async notification(): Promise<string> {
    const n = this.page.locator('.MuiSnackbar-root').first();
    await n.waitFor();
    return (await n.innerText()).trim();
  }

  /** Calls the API from inside the page with its session (BasePage `pageApi`). */
  api<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    return pageApi<T>(this.page, method, path, body);
  }
}

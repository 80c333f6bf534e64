/**
 * Page object: the console around any resource page: navigation by hash route, the locale menu, the
 * list (search box, rows), forms (inputs by source, autocompletes, helper texts) and the delete dialog;
 * all of the page shown, not of the pages the shell keeps hidden (helpers/shownView.ts).
 */
import type { Locator } from 'playwright-core';
import { BasePage } from './BasePage';
import { notKept, shownLocator } from '../helpers/shownView';

export class ConsolePage extends BasePage {
  /**
   * Switches the console language with the app bar's language menu (items carry data-locale) and waits
   * until the page shows the new catalogue: `<html lang>` changes in the commit that remounts the tree
   * under it, so a field filled afterwards is not wiped by that remount.
   */
  async switchLanguage(to: 'en' | 'zh'): Promise<void> {
    await this.page.getByTestId('lang-select').click();
    const item = this.page.locator(`[role="menuitem"][data-locale="${to}"]`);
    await item.waitFor();
    // The current language's item is disabled: already there.
    if ((await item.getAttribute('aria-disabled')) === 'true') await this.page.keyboard.press('Escape');
    else await item.click();
    await this.page.locator(`html[lang="${to === 'zh' ? 'zh-CN' : 'en'}"]`).waitFor({ state: 'attached' });
  }

  /** The list's data rows (waits for the list to load). */
  rows(): Locator {
    return shownLocator(this.page, 'table tbody tr');
  }

  async waitForRows(): Promise<void> {
    await this.rows().first().waitFor();
  }

  /** Types into the list's free-text search box (`q`) and waits for a row containing `expect`. */
  async search(text: string, expect: string): Promise<void> {
    await shownLocator(this.page, 'input[name="q"]').fill(text);
    await this.rows().filter({ hasText: expect }).first().waitFor();
  }

  input(source: string): Locator {
    return shownLocator(this.page, `[name="${source}"]`).first();
  }

  /** The helper/error text under an input (MUI renders it as `#<input id>-helper-text`). */
  async helperText(source: string): Promise<string> {
    const id = await this.input(source).getAttribute('id');
    const t = await this.page.locator(`[id="${id}-helper-text"]`).innerText();
    return t.replace(/\u200b/g, '').trim();
  }

  /** Types into an autocomplete and picks the option whose text is exactly `option`. */
  async autocomplete(source: string, typed: string, option: string): Promise<void> {
    const input = this.input(source);
    await input.click();
    await input.fill(typed);
    await this.page.getByRole('option', { name: option, exact: true }).click();
  }

  async save(): Promise<void> {
    await notKept(this.page.getByRole('button', { name: /save|保存/i })).click();
  }

  /**
   * Fills the form's inputs (`values`: source → typed text), saves, and waits for the show page of
   * `resource` (`#/<resource>/<id>/show`) showing `shown`.
   */
  async fillAndSave(resource: string, values: Record<string, string>, shown: string): Promise<void> {
    for (const [source, text] of Object.entries(values)) await this.input(source).fill(text);
    await this.save();
    await this.page.waitForURL(new RegExp(`#/${resource}/\\d+/show`));
    await notKept(this.page.getByText(shown)).first().waitFor();
  }

  /** Clicks Delete and returns the confirmation dialog (not yet confirmed). */
  async askDelete(): Promise<Locator> {
    await this.page
      .getByRole('button', { name: /^(delete|删除)$/i })
      .first()
      .click();
    const dialog = this.page.getByRole('dialog');
    await dialog.waitFor();
    return dialog;
  }

  /**
   * Confirms the delete `dialog` and waits for the page at `then` (a URL pattern). When the delete call
   * (a POST whose path names delete) is refused, fails with its status and envelope instead of a timeout.
   */
  async confirmDelete(dialog: Locator, then: RegExp): Promise<void> {
    const answer = this.deleteAnswer();
    const seen: string[] = [];
    const onNavigated = (f: { url(): string }) => seen.push(f.url());
    this.page.on('framenavigated', onNavigated);
    try {
      await dialog.getByRole('button', { name: /confirm|确认|确定/i }).click();
      const r = await answer;
      if (r && r.status() !== 200) throw new Error(`the delete answered ${r.status()}: ${await r.text()}`);
      await this.page.waitForURL(then).catch((e: Error) => {
        throw new Error(
          `${e.message}\nthe delete answered ${r?.status() ?? 'nothing'}; the page went to ${seen.join(' → ') || 'nowhere'}`,
        );
      });
    } finally {
      this.page.off('framenavigated', onNavigated);
    }
  }

  /** The id in the current `#/<resource>/<id>/show` URL. */
  currentId(): number {
    const m = /#\/\w+\/(\d+)/.exec(this.page.url());
    if (!m) throw new Error(`no record id in ${this.page.url()}`);
    return Number(m[1]);
  }
}

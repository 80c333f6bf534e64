/**
 * Page object of a list's Export menu and Import dialog (src/schema-ui/exportMenu.tsx, importDialog.tsx):
 * the file the Export button downloads (CSV or XLSX), and the dialog's dry-run report (the header row's
 * report above it, its counts line, the rejects table, the downloadable reject report), a refused file's
 * message, Import and Close, as the operator sees them.
 */
import type { Locator } from 'playwright-core';
import { BasePage } from './BasePage';

export class TransferPage extends BasePage {
  /**
   * Opens the list of `resource` (`/artworks`) and waits for it: its Import button, and nothing loading
   * (a table on a wide screen, cards on a phone).
   */
  async openList(resource: string): Promise<void> {
    await this.goto(`/${resource}`);
    await this.page.getByTestId('import-button').waitFor();
    await this.waitLoaded();
  }

  /**
   * Clicks Export, then CSV or XLSX, and waits for the browser's download (the server streams every row,
   * which takes a while for the 51,840 artworks): the saved file's path.
   */
  async exportAs(format: 'csv' | 'xlsx'): Promise<string> {
    await this.page.getByTestId('export-button').click();
    const download = this.page.waitForEvent('download', { timeout: 280_000 });
    await this.page.getByTestId(`export-${format}`).click();
    return (await (await download).path())!;
  }

  dialog(): Locator {
    return this.page.getByTestId('import-dialog');
  }

  /** Opens the Import dialog and gives it `file`; waits for the dry run's counts line: its text. */
  async dryRun(file: string): Promise<string> {
    await this.page.getByTestId('import-button').click();
    await this.dialog().getByTestId('import-file').setInputFiles(file);
    const counts = this.dialog().getByTestId('import-counts');
    await counts.waitFor({ timeout: 60_000 });
    return (await counts.textContent())!.trim();
  }

  /**
   * The report's first lines: the header row's report (unknown and missing columns, '' when there is none)
   * and the counts line, in the order they are shown (the header report must come first).
   */
  async reportTop(): Promise<string[]> {
    const top = this.dialog().locator('[data-testid="import-columns"], [data-testid="import-counts"]');
    return (await top.allTextContents()).map((t) => t.trim());
  }

  /** Opens the Import dialog and gives it `file`, which the server refuses: the message the dialog shows. */
  async refusedDryRun(file: string): Promise<string> {
    await this.page.getByTestId('import-button').click();
    await this.dialog().getByTestId('import-file').setInputFiles(file);
    const error = this.dialog().getByTestId('import-error');
    await error.waitFor({ timeout: 60_000 });
    return (await error.textContent())!.trim();
  }

  /** The rejects table of the dry-run report: its header cells and its rows of cell texts. */
  async rejects(): Promise<{ head: string[]; rows: string[][] }> {
    const table = this.dialog().getByTestId('import-rejects');
    const head = (await table.locator('thead th').allTextContents()).map((t) => t.trim());
    const rows = await table
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())),
      );
    return { head, rows };
  }

  /** Clicks "Download the reject report": the saved file's path. */
  async downloadRejects(): Promise<string> {
    const download = this.page.waitForEvent('download');
    await this.dialog().getByTestId('import-report').click();
    return (await (await download).path())!;
  }

  /** The Import (commit) button of the dialog. */
  commitButton(): Locator {
    return this.dialog().getByTestId('import-commit');
  }

  /** Clicks Import and waits until every row is written (the commit button leaves when the job is done). */
  async commit(): Promise<string> {
    await this.commitButton().click();
    await this.commitButton().waitFor({ state: 'detached', timeout: 60_000 });
    return (await this.dialog().getByTestId('import-progress').textContent())!.trim();
  }

  /** Closes the dialog. */
  async close(closeLabel: RegExp): Promise<void> {
    await this.dialog().getByRole('button', { name: closeLabel }).click();
    await this.dialog().waitFor({ state: 'hidden' });
  }
}

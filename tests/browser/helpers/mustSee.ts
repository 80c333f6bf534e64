/**
 * Waiting for what a user must see, with an error that says what was on screen instead: a browser test
 * that times out in CI otherwise leaves only "Timeout 30000ms exceeded".
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';

/**
 * Waits for `locator` to be visible on `page`; on timeout throws an error naming `what`, the URL, the
 * content area's tabs and the start of its text, and saves a screenshot of the page as
 * `.tmp/failures/<what>.png` (never a tracked folder).
 */
export async function mustSee(page: Page, locator: Locator, what: string, timeout = 30_000): Promise<void> {
  try {
    await locator.waitFor({ state: 'visible', timeout });
  } catch (e) {
    const main = await page
      .locator('#main-content')
      .innerText({ timeout: 2000 })
      .catch(() => '(no #main-content)');
    const tabs = await page
      .locator('#main-content [role="tablist"] [role="tab"]')
      .allInnerTexts()
      .catch(() => []);
    const dir = join(process.cwd(), '.tmp/failures');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${what.replace(/[^\w.-]+/g, '_').slice(0, 80)}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
    throw new Error(
      `${what} not visible at ${page.url()}; tabs [${tabs.join(', ')}]; content: ${main.slice(0, 400)}; ` +
        `screenshot ${file}; ${(e as Error).message}`,
    );
  }
}

/**
 * Where browser tests put their screenshots: `.tmp/screenshots/` (git-ignored) on an ordinary run, so a
 * test run never changes a tracked file; `docs/screenshots/` (the pictures the README and docs show)
 * when `UPDATE_SCREENSHOTS=1`, which `npm run screenshots` sets.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from '../../support/serverProcess';
import type { TestEnv } from './env';

/** The screenshot folder for this run (created), absolute. */
export function screenshotDir(): string {
  const dir =
    process.env.UPDATE_SCREENSHOTS === '1' ? join(ROOT, 'docs/screenshots') : join(ROOT, '.tmp/screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Writes the screenshots `<name>.en.png` and `<name>.zh.png` into `screenshotDir()`, each in a fresh admin
 * session (so no earlier toast, tag or tooltip is in the picture): `show` opens and checks the page, then
 * the pointer is parked in the bottom-left corner and the picture taken; the session is closed after.
 */
export async function listScreenshots(
  env: Pick<TestEnv, 'signIn'>,
  name: string,
  show: (page: Page, locale: 'en' | 'zh') => Promise<void>,
): Promise<void> {
  const dir = screenshotDir();
  for (const locale of ['en', 'zh'] as const) {
    const page = await env.signIn('admin', locale);
    await show(page, locale);
    await page.mouse.move(0, 899);
    await page.screenshot({ path: join(dir, `${name}.${locale}.png`) });
    await page.context().close();
  }
}

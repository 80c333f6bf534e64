/**
 * Where browser tests put their screenshots: `.tmp/screenshots/` (git-ignored) on an ordinary run, so a
 * test run never changes a tracked file; `docs/screenshots/` (the pictures the README and docs show)
 * when `UPDATE_SCREENSHOTS=1`, which `npm run screenshots` sets.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../support/serverProcess';

/** The screenshot folder for this run (created), absolute. */
export function screenshotDir(): string {
  const dir =
    process.env.UPDATE_SCREENSHOTS === '1' ? join(ROOT, 'docs/screenshots') : join(ROOT, '.tmp/screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}

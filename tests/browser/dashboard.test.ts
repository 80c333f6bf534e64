/**
 * Honest dashboards (issue 12), in Chromium against the real server with the Tate sample seed:
 * - the admin dashboard shows titled charts over real dimensions (acquisitions per year with many
 *   years, works per category, on chain over time, accounts per role, transactions per hour) and no
 *   "Artworks added per day";
 * - the accounts-per-role chart is titled, names each role by its display name in the console's language
 *   (Administrator / 管理员, not `admin`) and its labels lie inside its card (not clipped);
 * - the charts take the theme colour and follow a change of it in the settings drawer;
 * - the chosen theme is the account's own: the next account signed in in the same browser gets the
 *   default, the first gets its own back;
 * - screenshots of the dashboard at 1440 and 375 px, en and zh, into .tmp/screenshots/.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEnv, type TestEnv } from './helpers/env';
import { screenshotDir } from './helpers/screenshots';
import { LoginPage } from './pages/LoginPage';
import { ShellPage } from './pages/ShellPage';

let env: TestEnv;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => env?.stop());

const DEFAULT = '#409EFF';
const GREEN = '#11A983';

/** The fill colours of the bars of the chart in card `testId`. */
async function barFills(page: Page, testId: string): Promise<string[]> {
  const bars = page.getByTestId(testId).locator('.recharts-bar-rectangle path');
  await bars.first().waitFor();
  return [
    ...new Set(await bars.evaluateAll((els) => els.map((e) => (e.getAttribute('fill') ?? '').toUpperCase()))),
  ];
}

/**
 * The next account in the same browser: drops the session cookies, closes `page` and signs `role` in (en)
 * on a new page of the same context (same local storage); resolves that page once its dashboard shows.
 */
async function signInNext(page: Page, role: 'admin' | 'user'): Promise<Page> {
  await page.context().clearCookies();
  const next = await page.context().newPage();
  await page.close();
  await next.context().addCookies([{ name: 'language', value: 'en', url: env.baseUrl }]);
  const login = new LoginPage(next, env.baseUrl);
  await login.open();
  await login.login(role, env.passwords[role]);
  await next.getByTestId('dashboard').waitFor();
  return next;
}

/** The tick labels of the accounts-per-role chart, once drawn; each must lie inside the chart's card. */
async function roleTicks(page: Page): Promise<string[]> {
  const roles = page.getByTestId('chart-roles');
  await roles.locator('.recharts-bar-rectangle').first().waitFor();
  const card = (await roles.boundingBox())!;
  const ticks = roles.locator('.recharts-cartesian-axis-tick-value');
  for (const box of await ticks.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON())))
    expect(box.left >= card.x && box.right <= card.x + card.width && box.bottom <= card.y + card.height).toBe(
      true,
    );
  return ticks.allTextContents();
}

/** The background colour of the "Open the ledger" button (a contained primary button), as #RRGGBB. */
async function primaryOf(page: Page): Promise<string> {
  const button = page.getByRole('link', { name: /Open the ledger|打开账本/ });
  await button.waitFor();
  const rgb = await button.evaluate((el) => getComputedStyle(el).backgroundColor);
  const [r, g, b] = rgb.match(/\d+/g)!.map(Number);
  return `#${[r, g, b].map((n) => n.toString(16).padStart(2, '0')).join('')}`.toUpperCase();
}

describe('dashboard', () => {
  it('shows titled charts over real dimensions, and no per-day import bar', async () => {
    const page = await env.signIn('admin', 'en');
    await page.getByTestId('dashboard').waitFor();
    for (const title of [
      'Acquisitions per year',
      'Artworks by category',
      'On chain over time',
      'Accounts per role',
    ])
      await page.getByRole('heading', { name: title }).waitFor();
    expect(await page.getByText('Artworks added per day').count()).toBe(0);
    // Tate's acquisition years: many bars, one per year with acquisitions.
    const years = page.getByTestId('chart-acquisitions').locator('.recharts-bar-rectangle');
    await years.first().waitFor();
    expect(await years.count()).toBeGreaterThan(5);
    const labels = await page
      .getByTestId('chart-acquisitions')
      .locator('.recharts-cartesian-axis-tick-value')
      .allTextContents();
    expect(labels.filter((l) => /^(18|19|20)\d\d$/.test(l)).length).toBeGreaterThan(3);
    // The roles chart: both roles by their display names, every label inside the card.
    expect(await roleTicks(page)).toEqual(expect.arrayContaining(['Administrator', 'Operator']));
    await page.context().close();
  });

  it('names the roles in Chinese on the zh dashboard, not by their raw names', async () => {
    const page = await env.signIn('admin', 'zh');
    await page.getByRole('heading', { name: '各角色账号数' }).waitFor();
    const labels = await roleTicks(page);
    expect(labels).toEqual(expect.arrayContaining(['管理员', '操作员']));
    expect(labels.filter((l) => l === 'admin' || l === 'user')).toEqual([]);
    await page.context().close();
  });

  it('charts take the theme colour, follow a change, and the theme is per account', async () => {
    const page = await env.signIn('admin', 'en');
    const shell = new ShellPage(page, env.baseUrl);
    await page.getByTestId('dashboard').waitFor();
    expect(await barFills(page, 'chart-acquisitions')).toEqual([DEFAULT]);
    const panel = await shell.openSettings();
    await panel.locator(`[data-theme-color="${GREEN}"]`).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => barFills(page, 'chart-acquisitions')).toEqual([GREEN]);
    expect(await barFills(page, 'chart-categories')).toEqual([GREEN]);
    expect(await primaryOf(page)).toBe(GREEN);

    // Next account in the same browser (same local storage): the default theme, not the admin's.
    const next = await signInNext(page, 'user');
    expect(await primaryOf(next)).toBe(DEFAULT);

    // The admin again: its own choice is back.
    const back = await signInNext(next, 'admin');
    await expect.poll(() => barFills(back, 'chart-acquisitions')).toEqual([GREEN]);
    await back.context().close();
  });

  it('renders the dashboard for the screenshots (1440 and 375 px, en and zh)', async () => {
    const dir = screenshotDir();
    for (const lang of ['en', 'zh'] as const)
      for (const width of [1440, 375]) {
        const page = await env.signIn('admin', lang, { width, height: 900 });
        await page.getByTestId('dashboard').waitFor();
        for (const id of ['chart-acquisitions', 'chart-categories', 'chart-roles'])
          await page.getByTestId(id).locator('.recharts-bar-rectangle').first().waitFor();
        // Not 'networkidle': the console's live-update stream (GET /dev-api/events) stays open.
        await new ShellPage(page, env.baseUrl).waitLoaded();
        await page.waitForTimeout(600); // chart animations
        await page.screenshot({ path: join(dir, `dashboard-${lang}-${width}.png`), fullPage: true });
        await page.context().close();
      }
  });
});

/**
 * The console's first load (issue 10): the login page fetches none of the blockchain, medicine/company
 * (schema screens) or chart code, nor the shell's layout or react-admin's components: every JavaScript URL
 * Chromium requests for `/#/login` (fresh cache) is mapped to its chunk of the build, and no module of
 * those chunks may be such code (tests/support/consoleBuild.ts `NOT_FOR_LOGIN`). The same check over
 * the dashboard's load after signing in must find the chart code (so the check can see it) and none of
 * the code it does without (lodash, d3's time scales, the lists' put-on-chain code), and the Chinese
 * catalogue (src/i18n/zh.ts with every part's `i18n.zh.ts` half) loads only for a zh visitor. The login
 * page's JavaScript is at most 150 kB gzip (the sum of its files' `.gz` sizes, the goal's unit; issue 32;
 * `npx tsx bench/firstLoad.ts` prints it with the largest modules). Checks URLs, modules and sizes of the
 * build, never times.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsoleWithChunks, NOT_FOR_LOGIN, type ConsoleBuild } from '../support/consoleBuild';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { CHROMIUM, CHROMIUM_ARGS, STILL } from './helpers/env';

const PASSWORD = 'First-load-test-pass-1';
/** The login page's budget: kB (1,024 bytes) of gzip over the JavaScript files it fetches. */
const LOGIN_BUDGET_KB = 150;
/** A module of the Chinese catalogue: its assembly, react-admin's Chinese, generated labels, the halves. */
const chinese = (m: string) =>
  m === 'src/i18n/zh.ts' ||
  m.endsWith('/i18n.zh.ts') ||
  m === 'src/generated/messages.zh.ts' ||
  m.startsWith('node_modules/@haxqer/ra-language-chinese/');
let tmp: string;
let built: ConsoleBuild;
let server: ServerProcess;
let browser: Browser;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'baas-first-load-test-'));
  built = await buildConsoleWithChunks(join(tmp, 'console'));
  server = await startServerProcess({
    dataDir: join(tmp, 'data'),
    env: { SEED: '1', CONSOLE_DIR: built.dir, ADMIN_PASSWORD: PASSWORD, USER_PASSWORD: PASSWORD },
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await server?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** A fresh page in `lang` that records the paths of the JavaScript files it requests. */
async function freshPage(lang: 'en' | 'zh'): Promise<{ page: Page; scripts: string[] }> {
  const context = await browser.newContext({ ...STILL, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
  await context.addCookies([{ name: 'language', value: lang, url: server.url }]);
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (r.resourceType() === 'script' || path.endsWith('.js')) scripts.push(path);
  });
  return { page, scripts };
}

/** For each kind of forbidden code, the requested files that carry it (with one module as example). */
function forbiddenIn(scripts: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const path of new Set(scripts)) {
    const chunk = built.chunkOf(path);
    for (const rule of NOT_FOR_LOGIN) {
      const hit = chunk?.modules.find(rule.test);
      if (hit) (out[rule.what] ??= []).push(`${path} (${hit})`);
    }
  }
  return out;
}

describe('first load of the console', () => {
  it('the login page requests no chunk of blockchain, medicine/company, chart or layout code', async () => {
    const { page, scripts } = await freshPage('en');
    await page.goto(`${server.url}/#/login`);
    await page.locator('input[name="username"]').waitFor();
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(scripts.length).toBeGreaterThan(0);
    // Every requested script is a chunk of this build (so the module check below sees all of them).
    expect(scripts.filter((s) => !built.chunkOf(s))).toEqual([]);
    expect(forbiddenIn(scripts)).toEqual({});
    // The English visitor fetches no part of the Chinese catalogue.
    expect([...new Set(scripts)].flatMap((s) => built.chunkOf(s)!.modules.filter(chinese))).toEqual([]);
    const gzip = [...new Set(scripts)].reduce((n, s) => n + built.chunkOf(s)!.gzip, 0);
    expect(gzip / 1024).toBeLessThanOrEqual(LOGIN_BUDGET_KB);
    await page.context().close();
  });

  it('signing in then loads the layout and the dashboard with its charts (the check sees chart code)', async () => {
    const { page, scripts } = await freshPage('en');
    await page.goto(`${server.url}/#/login`);
    await page.fill('input[name="username"]', 'admin');
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('button[type="submit"]');
    await page.locator('[data-testid="dashboard"] .recharts-surface').first().waitFor();
    const found = forbiddenIn(scripts);
    expect(Object.keys(found)).toEqual(
      expect.arrayContaining([
        'chart code (recharts, dashboards)',
        'the shell layout',
        'react-admin UI components',
      ]),
    );
    expect(page.url()).toMatch(/#\/dashboard$/);
    // None of the code the dashboard does without: lodash (es-toolkit/compat stands in for it, one copy
    // with recharts' own: vite.config.ts), d3's time scales (recharts' charts here use band, point and
    // linear scales: src/charts/d3Scale.ts), the lists' put-on-chain code (src/schema-ui/chain.tsx).
    const modules = [...new Set(scripts)].flatMap((s) => built.chunkOf(s)?.modules ?? []);
    expect(
      modules.filter(
        (m) => /^node_modules\/(lodash|d3-time|d3-time-format)\//.test(m) || m === 'src/schema-ui/chain.tsx',
      ),
    ).toEqual([]);
    await page.context().close();
  });

  it('a zh visitor gets the Chinese catalogue chunk and a Chinese login page, still without screen code', async () => {
    const { page, scripts } = await freshPage('zh');
    await page.goto(`${server.url}/#/login`);
    await page.getByRole('button', { name: '登录' }).waitFor();
    await page.waitForLoadState('networkidle');
    const modules = [...new Set(scripts)].flatMap((s) => built.chunkOf(s)?.modules ?? []);
    expect(modules).toEqual(
      expect.arrayContaining(['src/i18n/zh.ts', 'src/layout/i18n.zh.ts', 'src/schema-ui/i18n.zh.ts']),
    );
    expect(forbiddenIn(scripts)).toEqual({});
    await page.context().close();
  });
});

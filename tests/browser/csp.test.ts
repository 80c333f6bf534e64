/**
 * The console under its Content-Security-Policy without 'unsafe-eval', in a real browser on the real
 * server: eval is refused on the console's page (the policy is in force, and a refusal is reported as a
 * `securitypolicyviolation` event), and filling the create forms of authors, artworks and companies
 * until their schema rules answer (markup, width, check character), in English and in Chinese, raises
 * no violation: the form validation needs no eval.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startEnv, STILL, type TestEnv } from './helpers/env';
import { ConsolePage } from './pages/ConsolePage';
import { LoginPage } from './pages/LoginPage';

let env: TestEnv;
let page: Page;
let ui: ConsolePage;

/** The CSP violations the page reported since it loaded: "<directive> <blocked URI>". */
const violations = () =>
  page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

beforeAll(async () => {
  env = await startEnv();
  // The violation recorder is installed before the login page loads, so the console's one document
  // (a single-page app: login and the pages after it) records from the start; no reload is needed.
  const context = await env.browser.newContext({
    ...STILL,
    viewport: { width: 1440, height: 900 },
    locale: 'en-US',
  });
  await context.addCookies([{ name: 'language', value: 'en', url: env.baseUrl }]);
  await context.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.cspViolations.push(`${e.effectiveDirective} ${e.blockedURI}`),
    );
  });
  page = await context.newPage();
  const login = new LoginPage(page, env.baseUrl);
  await login.open();
  await login.login('admin', env.passwords.admin);
  await page.getByTestId('sidebar').waitFor();
  ui = new ConsolePage(page, env.baseUrl);
});

afterAll(async () => {
  await page?.context().close();
  await env?.stop();
});

/** Types `value` into `source` and waits until its helper text is `expected`. */
async function expectError(source: string, value: string, expected: string): Promise<void> {
  await ui.input(source).fill(value);
  await ui.input(source).blur();
  await expect.poll(() => ui.helperText(source)).toBe(expected);
}

describe('console under a CSP without unsafe-eval (browser)', () => {
  it('refuses eval and inline scripts on the console page and reports them', async () => {
    await ui.goto('/authors');
    await ui.waitForRows();
    // Code from strings, run by the page itself (a timer) and an inline script element: both refused.
    await page.evaluate(() => {
      const w = window as unknown as Record<string, unknown>;
      (setTimeout as unknown as (code: string, ms: number) => number)('window.fromString = true', 0);
      const s = document.createElement('script');
      s.textContent = 'window.fromInline = true';
      document.head.append(s);
      w.probed = true;
    });
    await expect
      .poll(violations)
      .toEqual(expect.arrayContaining(['script-src eval', 'script-src-elem inline']));
    expect(
      await page.evaluate(() => [typeof (window as any).fromString, typeof (window as any).fromInline]),
    ).toEqual(['undefined', 'undefined']);
  });

  it('validates the create forms in English and Chinese without any violation', async () => {
    // Forget the violations the previous case provoked on purpose.
    await page.evaluate(() => {
      (window as unknown as { cspViolations: string[] }).cspViolations = [];
    });
    await ui.goto('/authors/create');
    await expectError('authorName', 'A <b>bold</b> name', 'Must not contain < or >');
    await ui.goto('/artworks/create');
    await expectError(
      'artWorkName',
      '山'.repeat(31),
      'At most 60 wide (30 Chinese characters); this is 62 wide',
    );
    await ui.switchLanguage('zh');
    await ui.input('artWorkName').waitFor();
    await expectError('artWorkName', '山'.repeat(31), '最多 30 个汉字（60 个字符），当前为 62 个字符');
    await ui.goto('/companies/create');
    await expectError(
      'creditCode',
      '91110105MA01ABCD1A',
      '校验码错误：按前 17 位，第 18 位应为 3（GB 32100-2015）',
    );
    await ui.switchLanguage('en');
    expect(await violations()).toEqual([]);
  });
});

/**
 * Accounts end to end on the real server, in English and in Chinese: the admin adds an account from
 * Permission → User (sidebar), the new account logs in, opens Set → Password from the sidebar, is refused
 * with a wrong current password, changes its password, and can then log in with the new one only.
 * Also writes screenshots of the new screens (Permission → User list and add form, Permission → Role,
 * Set → Password, Audit → System) at 1440 and 375 px in both languages to .tmp/screenshots/
 * (docs/screenshots/ with `npm run screenshots`).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshotDir } from './helpers/screenshots';
import { notKept, shownLocator } from './helpers/shownView';
import { startEnv, STILL, type TestEnv } from './helpers/env';
import { AccountsPage } from './pages/AccountsPage';
import { LoginPage } from './pages/LoginPage';
import { PasswordPage } from './pages/PasswordPage';

let env: TestEnv;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => {
  await env?.stop();
});

/** Logs in through the API: the answer's code (0 on success). */
async function apiLogin(username: string, password: string): Promise<number> {
  const r = await fetch(`${env.baseUrl}/dev-api/user/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return ((await r.json()) as { code: number }).code;
}

const TEXT = {
  en: {
    operator: 'Operator',
    wrongCurrent: 'The current password is not right',
    changed: /Password changed/,
  },
  zh: { operator: '操作员', wrongCurrent: '当前密码不正确', changed: /密码已修改/ },
} as const;

describe.each(['en', 'zh'] as const)('accounts console (browser, %s)', (lang) => {
  const username = `op${lang}${Date.now().toString(36)}`;
  const first = 'first-password-1';
  const second = 'second-password-2';

  it('the admin adds an account from Permission → User', async () => {
    const page = await env.signIn('admin', lang);
    try {
      const accounts = new AccountsPage(page, env.baseUrl);
      await accounts.openFromMenu();
      const id = await accounts.add({
        username,
        name: `Name ${lang}`,
        password: first,
        roleLabel: TEXT[lang].operator,
      });
      expect(id).toBeGreaterThan(0);
      await notKept(page.getByText(username)).first().waitFor();
      await accounts.openFromMenu();
      const row = await accounts.row(username);
      await expect.poll(() => row.innerText()).toContain(TEXT[lang].operator);
    } finally {
      await page.context().close();
    }
  });

  it('the new account logs in and changes its password from Set → Password', async () => {
    const context = await env.browser.newContext({
      ...STILL,
      viewport: { width: 1440, height: 900 },
      locale: lang === 'zh' ? 'zh-CN' : 'en-US',
    });
    await context.addCookies([{ name: 'language', value: lang, url: env.baseUrl }]);
    const page = await context.newPage();
    try {
      const login = new LoginPage(page, env.baseUrl);
      await login.open();
      await login.login(username, first);
      const password = new PasswordPage(page);
      await password.openFromMenu();
      await password.change('not-the-password', second);
      await expect.poll(() => password.error('oldPassword')).toBe(TEXT[lang].wrongCurrent);
      await password.change(first, second);
      await notKept(page.getByText(TEXT[lang].changed)).first().waitFor();
      // This session stays; the old password no longer works, the new one does.
      expect(await apiLogin(username, first)).not.toBe(0);
      expect(await apiLogin(username, second)).toBe(0);
    } finally {
      await context.close();
    }
    // A fresh browser logs in with the new password.
    const again = await env.browser.newContext({ ...STILL, viewport: { width: 1440, height: 900 } });
    try {
      const page2 = await again.newPage();
      const login = new LoginPage(page2, env.baseUrl);
      await login.open();
      await login.login(username, second);
      await page2.getByTestId('sidebar').waitFor();
    } finally {
      await again.close();
    }
  });

  it('screenshots of the new screens at 1440 and 375 px', async () => {
    const dir = screenshotDir();
    for (const width of [1440, 375]) {
      const page = await env.signIn('admin', lang, { width, height: width === 375 ? 812 : 900 });
      try {
        // A list is a table from 600 px up and a list of cards (react-admin's SimpleList) below: both
        // show the admin account (the user list) or its writes (the audit list); not in the add form the
        // shell keeps hidden (its role "Administrator").
        const rows = '#main-content :text("admin")';
        const shots: [string, string, string][] = [
          ['permission-user', '/permission/user', rows],
          ['permission-user-create', '/accounts/create', '[name="username"]'],
          ['permission-role', '/permission/role', '[data-testid="role-calls"]'],
          ['set-password', '/set/password', '[data-testid="change-password"]'],
          // The audit list, or its empty state when this file's other cases did not run first.
          ['audit-system', '/audit/system', `${rows}, #main-content .RaEmpty-message`],
        ];
        for (const [name, route, ready] of shots) {
          await page.goto(`${env.baseUrl}/#${route}`);
          await shownLocator(page, ready).first().waitFor();
          await page.waitForTimeout(300);
          await page.screenshot({ path: join(dir, `${name}.${lang}.${width}.png`), fullPage: false });
        }
      } finally {
        await page.context().close();
      }
    }
  });
});

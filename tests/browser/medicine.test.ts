/**
 * Medicine end to end on the real server, in English and in Chinese: an operator creates a company with
 * its administrator and backup administrator (new console accounts of role company) in the form, writes
 * it a notification and sends it; the administrator signs in, sees only Medicine > Messages (and the
 * dashboard), the navbar's unread count 1, the message in the inbox, marks it read (count 0); the
 * operator sees it read in Permission > Notifications, final (no Edit, no selection for deletion), and the
 * company's history in Medicine > Tracking.
 * Screenshots of the new screens at 1440 and 375 px in both languages go to .tmp/screenshots/
 * (docs/screenshots/ with `npm run screenshots`).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { usccCheckCharacter } from '../../kernel/dialect/keywords';
import { screenshotDir } from './helpers/screenshots';
import { startEnv, type TestEnv } from './helpers/env';
import { LoginPage } from './pages/LoginPage';
import { CompaniesPage } from './pages/CompaniesPage';
import { MedicinePage } from './pages/MedicinePage';

let env: TestEnv;
const code = (first17: string) => first17 + usccCheckCharacter(first17);

beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => {
  await env?.stop();
});

/** A new context in `lang` and `width`, signed in as `username`. */
async function signInAs(username: string, password: string, lang: 'en' | 'zh', width = 1440): Promise<Page> {
  const page = await env.newPage(lang, { width, height: width === 375 ? 812 : 900 });
  const login = new LoginPage(page, env.baseUrl);
  await login.open();
  await login.login(username, password);
  await page.getByTestId('sidebar').waitFor({ state: 'attached' });
  return page;
}

const TEXT = {
  en: {
    company: 'Eastern Example Pharmaceutical Co.',
    title: 'Annual GMP inspection',
    content: 'Please send your self-inspection report before 1 December.',
    sent: 'Sent',
    read: 'Read',
    markRead: 'Mark as read',
    unread: '1 unread message',
  },
  zh: {
    company: '华东示例制药有限公司',
    title: '年度 GMP 检查通知',
    content: '请于 12 月 1 日前提交自查报告。',
    sent: '已发送',
    read: '已读',
    markRead: '标为已读',
    unread: '1 条未读消息',
  },
} as const;

describe.each(['en', 'zh'] as const)('medicine: company, notification, message (%s)', (lang) => {
  const t = TEXT[lang];
  const tag = lang === 'en' ? 'e1' : 'z2';
  const admin = { username: `adm.${tag}`, password: `Initial-${tag}-pass` };
  const creditCode = code(lang === 'en' ? '91330106MA2H4747X' : '91440101MA59R3T4U');
  let operator: Page;

  afterAll(async () => {
    await operator?.context().close();
  });

  it('the operator creates a company with its two administrators', async () => {
    operator = await env.signIn('admin', lang);
    const companies = new CompaniesPage(operator, env.baseUrl);
    await companies.openFromMenu();
    await companies.startCreate();
    await companies.fill({
      companyName: t.company,
      creditCode,
      licenseNo: `浙20${tag}01`,
      totalEmployees: '320',
      product: lang === 'en' ? 'Amoxicillin capsules 0.25 g' : '阿莫西林胶囊 0.25 g',
      adminAccount: admin.username,
      adminName: lang === 'en' ? 'Min Zhao' : '赵敏',
      adminEmail: `${admin.username}@example.com`,
      adminPhone: '13812345678',
      adminPassword: admin.password,
      backupAdminAccount: `ops.${tag}`,
      backupAdminName: lang === 'en' ? 'Jin Qian' : '钱进',
      backupAdminPassword: `Backup-${tag}-pass`,
    });
    await companies.saveAndWaitForShow();
    await operator.getByText(t.company).first().waitFor();
  });

  it('writes it a notification and sends it', async () => {
    const medicine = new MedicinePage(operator, env.baseUrl);
    await medicine.openFromMenu('/medicine/notification');
    await medicine.createNotification({
      company: t.company,
      title: t.title,
      content: t.content,
      status: t.sent,
    });
    await operator.getByText(admin.username).first().waitFor(); // the recipients
  });

  it('the administrator signs in, sees Messages only, the unread count, and reads the message', async () => {
    const page = await signInAs(admin.username, admin.password, lang);
    try {
      const medicine = new MedicinePage(page, env.baseUrl);
      await expect.poll(() => medicine.unreadCount()).toBe(1);
      expect(await page.getByTestId('unread-messages').getAttribute('aria-label')).toBe(t.unread);
      await medicine.openFromMenu('/medicine/messages');
      expect((await medicine.menuPaths()).filter((p) => p.startsWith('/medicine'))).toEqual([
        '/medicine/messages',
      ]);
      const message = medicine.messages().filter({ hasText: t.title });
      await message.waitFor();
      await expect.poll(() => message.getAttribute('data-status')).toBe('sent');
      expect(await message.innerText()).toContain(t.content);
      expect(await page.getByTestId('my-company').innerText()).toContain(t.company);
      await message.getByRole('button', { name: t.markRead }).click();
      await expect.poll(() => message.getAttribute('data-status')).toBe('read');
      await expect.poll(() => medicine.unreadCount()).toBe(0);
      await message.getByText(t.read, { exact: true }).waitFor();
    } finally {
      await page.context().close();
    }
  });

  it('the backup administrator still has it unread (each reads for itself), and reads it', async () => {
    const page = await signInAs(`ops.${tag}`, `Backup-${tag}-pass`, lang);
    try {
      const medicine = new MedicinePage(page, env.baseUrl);
      await expect.poll(() => medicine.unreadCount()).toBe(1);
      await medicine.openFromMenu('/medicine/messages');
      const message = medicine.messages().filter({ hasText: t.title });
      await message.waitFor();
      await expect.poll(() => message.getAttribute('data-status')).toBe('sent');
      await message.getByRole('button', { name: t.markRead }).click();
      await expect.poll(() => message.getAttribute('data-status')).toBe('read');
      await expect.poll(() => medicine.unreadCount()).toBe(0);
    } finally {
      await page.context().close();
    }
  });

  it('the operator sees it read in Permission > Notifications and the history in Tracking', async () => {
    const medicine = new MedicinePage(operator, env.baseUrl);
    await medicine.openFromMenu('/permission/notifications');
    const row = operator.locator('table tbody tr').filter({ hasText: t.title });
    await row.getByText(t.read, { exact: true }).waitFor();
    // A sent notification is final (x-frozen): no Edit link, and no box to select it for deletion. The
    // access checks answer from the identity the list already loaded; give their buttons a moment.
    await operator.waitForTimeout(1000);
    expect(await row.locator('a[href*="/notifications/"]').count()).toBe(0);
    expect(await row.locator('input[type="checkbox"]:not([disabled])').count()).toBe(0);
    // Its readers: both administrators, in the order they read it.
    await expect
      .poll(() => row.locator('.column-readers').innerText())
      .toMatch(new RegExp(`${admin.username}[\\s\\S]*ops\\.${tag}`));
    await medicine.openFromMenu('/medicine/tacking');
    await medicine.pickTrackedCompany(t.company);
    const calls = await medicine.trackingRows().allInnerTexts();
    expect(
      calls.some((r) => r.includes('POST /medicine-api/message/read') && r.includes(admin.username)),
    ).toBe(true);
    expect(calls.some((r) => r.includes('POST /medicine-api/company/addCompany'))).toBe(true);
    // What the read changed, in the console's language.
    // The newest read (the backup administrator's, the last recipient) made it read.
    const read = medicine
      .trackingRows()
      .filter({ hasText: 'message/read' })
      .first()
      .getByTestId('tracking-changed');
    expect(await read.innerText()).toContain(lang === 'en' ? 'Status' : '状态');
  });

  it('screenshots of the new screens at 1440 and 375 px', async () => {
    const dir = screenshotDir();
    for (const width of [1440, 375]) {
      const op = await env.signIn('admin', lang, { width, height: width === 375 ? 812 : 900 });
      try {
        const shots: [string, string, string][] = [
          ['medicine-notifications', '/medicine/notification', `#main-content :text("${t.title}")`],
          ['medicine-notification-create', '/notifications/create', '[name="title"]'],
          ['permission-notifications', '/permission/notifications', `#main-content :text("${t.title}")`],
          ['medicine-tracking', '/medicine/tacking', '[data-testid="tracking"]'],
          ['medicine-company-create', '/companies/create', '[name="adminPassword"]'],
        ];
        for (const [name, route, ready] of shots) {
          await op.goto(`${env.baseUrl}/#${route}`);
          await op.locator(ready).first().waitFor();
          if (name === 'medicine-tracking')
            await new MedicinePage(op, env.baseUrl).pickTrackedCompany(t.company);
          await op.waitForTimeout(300);
          await op.screenshot({ path: join(dir, `${name}.${lang}.${width}.png`) });
        }
      } finally {
        await op.context().close();
      }
      const page = await signInAs(admin.username, admin.password, lang, width);
      try {
        await page.goto(`${env.baseUrl}/#/medicine/messages`);
        await page.getByTestId('message').first().waitFor();
        await page.waitForTimeout(300);
        await page.screenshot({ path: join(dir, `medicine-messages.${lang}.${width}.png`) });
      } finally {
        await page.context().close();
      }
    }
  });
});

/**
 * The Medicine section's companies end to end on the real server: log in as admin, open Medicine →
 * Companies from the sidebar, create a company with a Chinese name, see the credit code's check-character
 * error (GB 32100-2015) in English and in Chinese and the identical-accounts error, then save a valid one
 * and find it on the server. Also writes the companies-list screenshots (en, zh) to .tmp/screenshots/
 * (docs/screenshots/ with `npm run screenshots`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { usccCheckCharacter } from '../../kernel/dialect/keywords';
import { listScreenshots } from './helpers/screenshots';
import { sharedEnv } from './helpers/sharedEnv';
import { LoginPage } from './pages/LoginPage';
import { CompaniesPage } from './pages/CompaniesPage';

const env = sharedEnv();
let page: Page;
let companies: CompaniesPage;

/** A synthetic credit code: 17 given characters and their check character. */
const code = (first17: string) => first17 + usccCheckCharacter(first17);

beforeAll(async () => {
  page = await env.newPage('en');
  companies = new CompaniesPage(page, env.baseUrl);
});

afterAll(async () => {
  await page?.context().close();
});

/** Calls the API directly with the admin's own token. */
async function api(path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const r = await env.adminApi(path, body);
  return { status: r.status, json: r.body };
}

describe('medicine companies console (browser)', () => {
  // Every run starts on a new temporary database, so fixed values do not collide.
  const stamp = '4747';
  const companyName = '华东示例制药有限公司';
  const good = code(`91330106MA2H${stamp}X`);
  const wrongLast = good[17] === '0' ? '1' : '0';
  const wrong = good.slice(0, 17) + wrongLast;

  it('logs in as admin and opens Medicine → Companies', async () => {
    const login = new LoginPage(page, env.baseUrl);
    await login.open();
    await login.login('admin', env.passwords.admin);
    await companies.openFromMenu();
    await page.getByText('Companies').first().waitFor();
  });

  it('shows the check-character error in English and in Chinese', async () => {
    await companies.startCreate();
    await companies.fill({ companyName, creditCode: wrong });
    await expect
      .poll(() => companies.error('creditCode'))
      .toBe(
        `Wrong check character: with these first 17 characters the 18th must be ${good[17]} (GB 32100-2015)`,
      );
    // Switching the language remounts the form, so type again.
    await companies.ui.switchLanguage('zh');
    await companies.ui.input('companyName').waitFor();
    await companies.fill({ companyName, creditCode: wrong });
    await expect
      .poll(() => companies.error('creditCode'))
      .toBe(`校验码错误：按前 17 位，第 18 位应为 ${good[17]}（GB 32100-2015）`);
    await companies.fill({ creditCode: good });
    await expect.poll(() => companies.error('creditCode')).toBe('');
    await companies.ui.switchLanguage('en');
    await companies.ui.input('companyName').waitFor();
  });

  it('refuses identical admin accounts, then saves a valid company', async () => {
    await companies.fill({
      companyName,
      creditCode: good,
      licenseNo: `浙20${stamp}01`,
      address: '浙江省杭州市西湖区示例路 8 号',
      contactName: '陈晓',
      contactPhone: '0571-87654321',
      adminAccount: `admin${stamp}`,
      adminName: '陈晓',
      adminPassword: `Initial-${stamp}-a`,
      backupAdminAccount: `ADMIN${stamp}`,
      backupAdminName: '周宁',
      backupAdminPassword: `Initial-${stamp}-b`,
    });
    await expect
      .poll(() => companies.error('backupAdminAccount'))
      .toBe('Must differ from Administrator account');
    await companies.fill({ backupAdminAccount: `ops${stamp}` });
    await expect.poll(() => companies.error('backupAdminAccount')).toBe('');
    const id = await companies.saveAndWaitForShow();
    await page.getByText(companyName).first().waitFor();
    const stored = await api(`/medicine-api/company/getInfo?id=${id}`);
    expect(stored.status).toBe(200);
    expect(stored.json.data).toMatchObject({ companyName, creditCode: good, status: 1 });
  });

  it('lists it under Medicine → Companies and refuses the same code a second time', async () => {
    await companies.ui.goto('/medicine/companies');
    await companies.rows().filter({ hasText: companyName }).first().waitFor();
    const again = await api('/medicine-api/company/addCompany', {
      companyName: '重复代码',
      creditCode: good,
      licenseNo: 'x1',
      adminAccount: 'abcd1',
      adminName: '重复',
      adminPassword: 'Initial-abcd-1',
      backupAdminAccount: 'abcd2',
      backupAdminName: '重复二',
      backupAdminPassword: 'Initial-abcd-2',
    });
    expect(again.status).toBe(409);
  });

  it('writes the companies list screenshots (en, zh)', async () => {
    // A few more (made-up) companies so the list shows what an operator sees.
    const more = [
      ['北京示例药业股份有限公司', '91110105MA01ABCD1', '京20150001', '李静', '13812345678', 0],
      ['上海示例医药有限公司', '91310115MA1K4P7Q2', '沪AA0210001', '张伟', '021-62345678', 1],
      ['广州示例生物制药有限公司', '91440101MA59R3T4U', '粤20180077', '黄敏', '13698765432', 1],
      ['成都示例中药饮片有限公司', '91510100MA6C5D6E7', '川20190012', '刘洋', '028-86543210', 1],
    ] as const;
    for (const [companyName, first17, licenseNo, contactName, contactPhone, status] of more) {
      const r = await api('/medicine-api/company/addCompany', {
        companyName,
        creditCode: code(first17),
        licenseNo,
        contactName,
        contactPhone,
        adminAccount: `admin.${first17.slice(-4).toLowerCase()}`,
        adminName: contactName,
        adminPassword: `Initial-${first17.slice(-4)}-a`,
        backupAdminAccount: `ops.${first17.slice(-4).toLowerCase()}`,
        backupAdminName: '值班',
        backupAdminPassword: `Initial-${first17.slice(-4)}-b`,
        status,
      });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
    }
    await listScreenshots(env, 'companies-list', async (p, locale) => {
      const c = new CompaniesPage(p, env.baseUrl);
      await c.openFromMenu();
      await p
        .getByText(locale === 'en' ? 'Unified Social Credit Code' : '统一社会信用代码')
        .first()
        .waitFor();
      expect(await c.rows().count()).toBe(5);
    });
  });
});

/**
 * Smart contracts and the pigeonhole end to end on the real server, in English and in Chinese: log in as
 * admin, open Medicine → Smart-contract templates from the sidebar, "Add smart contract" on the drug supply
 * template, see a quantity of 0 refused under the input labelled by the template in the console's language
 * ("Quantity (boxes)" / "数量（盒）"), save a valid contract and see its parameters labelled on its page;
 * archive it, find it in Data → Pigeonhole, restore it, and find it unchanged on the server. Also checks the
 * Fabric page's chains table, and writes screenshots of the new screens at 1440 and 375 px in both
 * languages to .tmp/screenshots/ (docs/screenshots/ with `npm run screenshots`).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshotDir } from './helpers/screenshots';
import { startEnv, type TestEnv } from './helpers/env';
import { ContractsPage } from './pages/ContractsPage';

let env: TestEnv;

beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => {
  await env?.stop();
});

/** Calls the API as admin. */
async function api(path: string): Promise<any> {
  return (await env.adminApi(path)).body.data;
}

const TEXT = {
  en: { label: 'Quantity (boxes)', minimum: 'Must be at least 1', supplier: 'Supplier' },
  zh: { label: '数量（盒）', minimum: '不能小于 1', supplier: '供货方' },
} as const;

describe.each(['en', 'zh'] as const)('smart contracts and pigeonhole (browser, %s)', (lang) => {
  const shots = screenshotDir();
  const name = lang === 'en' ? 'Supply Q3 (browser)' : '三季度供货（浏览器）';

  it('adds a smart contract from a template; a refused parameter is named in the console language; archive and restore', async () => {
    const page = await env.signIn('admin', lang, { width: 1440, height: 900 });
    const c = new ContractsPage(page, env.baseUrl);
    await c.openTemplatesFromMenu();
    await page.screenshot({ path: join(shots, `contract-templates.${lang}.png`) });
    await c.addFromTemplate('Drug supply agreement');
    expect(await c.paramLabel('quantity')).toBe(TEXT[lang].label);
    expect(await c.paramLabel('supplier')).toBe(TEXT[lang].supplier);
    await c.fill('name', name);
    await c.fill('params.supplier', '华北制药');
    await c.fill('params.drugName', '阿莫西林胶囊');
    await c.fill('params.unitPrice', '12.5');
    await c.fill('params.quantity', '0');
    await expect.poll(() => c.ui.helperText('params.quantity')).toBe(TEXT[lang].minimum);
    await page.screenshot({ path: join(shots, `contract-add.${lang}.png`), fullPage: true });
    // Saving is refused while the parameter is wrong: still on the form.
    await c.ui.save();
    await expect.poll(() => c.ui.helperText('params.quantity')).toBe(TEXT[lang].minimum);
    expect(page.url()).toContain('#/contracts/create');
    await c.fill('params.quantity', '1200');
    await expect.poll(() => c.ui.helperText('params.quantity')).toBe('');
    const id = await c.saveAndWaitForShow();
    await page.getByTestId('param-quantity').waitFor();
    expect(await page.getByTestId('param-quantity').innerText()).toBe('1200');
    await page.getByText(TEXT[lang].label).first().waitFor();
    const stored = await api(`/data-api/contract/detail?id=${id}`);
    expect(stored).toMatchObject({ name, params: { quantity: 1200, deliveryDays: 30, coldChain: false } });

    await c.archiveFromShow('#/data/contract');
    expect((await api(`/data-api/contract/list?ids=${id}`)).total).toBe(0);
    await c.openPigeonholeFromMenu();
    await c.ui.rows().filter({ hasText: name }).first().waitFor();
    await page.screenshot({ path: join(shots, `pigeonhole.${lang}.png`) });
    await c.restore(name, 'contracts');
    expect(await api(`/data-api/contract/detail?id=${id}`)).toEqual(stored);
    await page.context().close();
  });

  it('the Fabric page shows the chains table beside its channels', async () => {
    const page = await env.signIn('user', lang, { width: 1440, height: 900 });
    await page.goto(`${env.baseUrl}/#/baas/fabric`);
    await page.getByTestId('chain-consensus').waitFor();
    expect(await page.getByTestId('chain-consensus').innerText()).toBe(
      lang === 'en' ? 'Solo' : 'Solo 单节点',
    );
    expect(await page.getByTestId('chain-name').innerText()).toBe('baas-admin');
    await page.getByTestId('chains').screenshot({ path: join(shots, `chains.${lang}.png`) });
    await page.context().close();
  });

  it('the new screens at 375 px', async () => {
    const page = await env.signIn('admin', lang, { width: 375, height: 812 });
    for (const [hash, file] of [
      ['/medicine/smContract', 'contract-templates'],
      ['/data/contract', 'contracts'],
      ['/data/pigeonhole', 'pigeonhole'],
    ] as const) {
      await page.goto(`${env.baseUrl}/#${hash}`);
      await page
        .getByText(/Drug supply agreement|Supply Q3|三季度供货|No .*yet|暂无|Archived|归档/)
        .first()
        .waitFor();
      await page.screenshot({ path: join(shots, `${file}.375.${lang}.png`), fullPage: true });
    }
    await page.goto(`${env.baseUrl}/#/smContract/add?source=${encodeURIComponent('{"templateId":1}')}`);
    await page.reload();
    await page.getByTestId('schema-from').waitFor();
    await page.screenshot({ path: join(shots, `contract-add.375.${lang}.png`), fullPage: true });
    await page.context().close();
  });
});

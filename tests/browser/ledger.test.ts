/**
 * Browser test of the blockchain section against the real server and a production build: an author and
 * then one of their artworks are put on chain; the console finds the artwork's transaction by search,
 * verifies its Merkle proof in the browser ("Verified in this browser"), opens the block that holds it,
 * recomputes that block (Merkle root and DER block hash) and lists the transaction. Role `user` sees the
 * same blocks list. An artwork's show page verifies its proof in the browser, and says it changed after
 * an edit. Screenshots of the blocks list, the block and the artwork panel (en and zh) go to
 * .tmp/screenshots/ (docs/screenshots/ with `npm run screenshots`).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotDir } from './helpers/screenshots';
import { sharedEnv } from './helpers/sharedEnv';
import { httpApi } from '../support/httpApi';

const env = sharedEnv();
const shots = screenshotDir();

async function api(token: string | null, method: string, path: string, body?: unknown) {
  return (await httpApi(env.baseUrl, token, method, path, body)).body;
}

function session(who: 'admin' | 'user', lang: 'en' | 'zh'): Promise<Page> {
  return env.signIn(who, lang, { width: 1440, height: 1000 });
}

/** Signs in as admin through the API and creates an author and one painting of theirs (not on chain). */
async function authorWithArtwork(authorName: string, artWorkName: string, texture: string) {
  const token = await env.adminToken();
  const author = (await api(token, 'POST', '/artmanager/authors/addAuthors', { authorName })).data;
  const artwork = (
    await api(token, 'POST', '/artmanager/artwork/addArtwork', {
      artWorkName,
      author: author.id,
      classify: 'painting',
      texture,
    })
  ).data;
  return { token, author, artwork };
}

describe('blockchain section', () => {
  it('puts an author and their artwork on chain, finds the transaction, verifies it in the browser, opens its block', async () => {
    const { token, author, artwork } = await authorWithArtwork(
      '链上测试作者',
      '链上测试作品',
      'ink on paper',
    );
    const refused = await api(token, 'POST', '/artmanager/artwork/blockChain', { id: artwork.id });
    expect(refused.code).toBe(409);
    expect((await api(token, 'POST', '/artmanager/authors/blockChain', { id: author.id })).code).toBe(0);
    const put = await api(token, 'POST', '/artmanager/artwork/blockChain', { id: artwork.id });
    expect(put.code).toBe(0);
    const { txId, blockNumber } = put.data as { txId: string; blockNumber: number };

    const page = await session('admin', 'en');
    await page.goto(`${env.baseUrl}/#/baas/search?q=${txId}`);
    await page.getByTestId('search-results').getByRole('link').first().click();
    await expect
      .poll(() => page.getByTestId('tx-check').textContent(), { timeout: 30_000 })
      .toContain(
        `Verified in this browser: the Merkle proof leads to the data hash of block ${blockNumber} of channel artchannel`,
      );
    await page.getByRole('link', { name: String(blockNumber), exact: true }).click();
    await expect
      .poll(() => page.getByTestId('block-check').textContent(), { timeout: 30_000 })
      .toContain('Recomputed in this browser: the Merkle root');
    const rows = page.getByTestId('block-transactions');
    await expect.poll(() => rows.textContent()).toContain('putArtwork');
    await expect
      .poll(() => rows.textContent())
      .toContain(`${artwork.id}, 1, ${put.data.digest.slice(0, 16)}`);
    await page.screenshot({ path: join(shots, 'ledger-block-en.png') });
    await page.context().close();
  });

  it("shows an artwork's on-chain panel: verified in the browser, then changed after an edit", async () => {
    const { token, author, artwork } = await authorWithArtwork(
      '面板测试作者',
      '面板测试作品',
      'oil on canvas',
    );
    expect((await api(token, 'POST', '/artmanager/authors/blockChain', { id: author.id })).code).toBe(0);
    const put = await api(token, 'POST', '/artmanager/artwork/blockChain', { id: artwork.id });
    expect(put.code).toBe(0);
    const expected = {
      en: `Verified on chain at block ${put.data.blockNumber} of channel artchannel`,
      zh: `已验证：位于通道 artchannel 的第 ${put.data.blockNumber} 号区块`,
    };
    for (const lang of ['en', 'zh'] as const) {
      const page = await session('admin', lang);
      await page.goto(`${env.baseUrl}/#/artworks/${artwork.id}/show`);
      await expect
        .poll(() => page.getByTestId('onchain-status').textContent(), { timeout: 30_000 })
        .toContain(expected[lang]);
      await page.screenshot({ path: join(shots, `artwork-on-chain-${lang}.png`) });
      await page.context().close();
    }
    // An edit after the put-on-chain: the digest no longer matches what the ledger holds.
    expect(
      (
        await api(token, 'POST', '/artmanager/artwork/baseInfo', {
          id: artwork.id,
          possessor: 'Another owner',
        })
      ).code,
    ).toBe(0);
    const page = await session('admin', 'en');
    await page.goto(`${env.baseUrl}/#/artworks/${artwork.id}/show`);
    await expect
      .poll(() => page.getByTestId('onchain-status').textContent(), { timeout: 30_000 })
      .toContain('Changed since it was put on chain');
    await page.context().close();
  });

  it('shows the blocks list with pagination and the time filter, for role user, in English and Chinese', async () => {
    for (const lang of ['en', 'zh'] as const) {
      const page = await session('user', lang);
      await page.goto(`${env.baseUrl}/#/baas/channel/1`);
      const table = page.getByTestId('blocks-table');
      await expect
        .poll(async () => (await table.locator('tbody tr').count()) > 1, { timeout: 30_000 })
        .toBe(true);
      const heading = await table.locator('thead').textContent();
      expect(heading).toContain(lang === 'en' ? 'Previous hash' : '前一区块哈希');
      await page.screenshot({ path: join(shots, `ledger-blocks-${lang}.png`) });
      // A time range in the past empties the list.
      await page.getByTestId('blocks-from').fill('2001-01-01T00:00');
      await page.getByTestId('blocks-to').fill('2001-01-02T00:00');
      await expect
        .poll(() => table.locator('tbody').textContent())
        .toContain(lang === 'en' ? 'No rows' : '暂无数据');
      await page.context().close();
    }
  });

  it('opens a block and its first transaction from the blocks list of a channel, as role user', async () => {
    // The list's rows seed react-admin's getOne cache with rows that lack the block's transactions: the
    // block page must wait for the block itself rather than fail on the row.
    const page = await session('user', 'en');
    await page.goto(`${env.baseUrl}/#/baas/channel/1`);
    const table = page.getByTestId('blocks-table');
    await expect.poll(() => table.locator('tbody tr').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await table.getByRole('link', { name: '0', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('block-check').textContent(), { timeout: 30_000 })
      .toContain('Recomputed in this browser: the Merkle root');
    await page.getByTestId('block-transactions').getByRole('link').first().click();
    await expect
      .poll(() => page.getByTestId('tx-check').textContent(), { timeout: 30_000 })
      .toContain('Verified in this browser: the Merkle proof leads to the data hash of block 0');
    await page.context().close();
  });

  it('admin uploads a chaincode: it is listed, opens from the list and moves installed → approved', async () => {
    const page = await session('admin', 'en');
    await page.goto(`${env.baseUrl}/#/baas/chainCode`);
    await page.getByRole('button', { name: 'Upload chaincode' }).click();
    const dialog = page.getByRole('dialog');
    await page.getByTestId('chaincode-file').setInputFiles({
      name: 'listed.go',
      mimeType: 'text/plain',
      buffer: Buffer.from('package main\n\nfunc main() {}\n'),
    });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('listedcc');
    await dialog.getByRole('button', { name: 'Upload chaincode' }).click();
    const link = page.getByRole('link', { name: 'listedcc', exact: true });
    await expect.poll(() => link.count(), { timeout: 30_000 }).toBe(1);
    await link.click();
    await expect.poll(() => page.locator('main').textContent(), { timeout: 30_000 }).toContain('listed.go');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect
      .poll(() => page.getByRole('button', { name: 'Commit' }).count(), { timeout: 30_000 })
      .toBe(1);
    await page.context().close();
  });
});

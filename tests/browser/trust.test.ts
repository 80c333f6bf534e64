/**
 * Browser test of the public verification (issue 9): an artwork and its author are put on chain; from
 * the artwork's show page the admin clicks "Certificate"; the certificate's QR code is decoded (jsQR
 * over the PNG the page shows) to the verification URL, which opens without login in English and in
 * Chinese and says "Verified" (checked in the browser with Web Crypto); after the database is tampered
 * with, it says "Not verified" and names the failed step. A record whose public page is off says "Not
 * published". Screenshots of the public page and the certificate at 1440 and 375 px, en and zh, go to
 * .tmp/screenshots/ (docs/screenshots/ with `npm run screenshots`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
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

/** A page in a new context without any session, in `lang`. */
function anonymous(lang: 'en' | 'zh', width: number): Promise<Page> {
  return env.newPage(lang, { width, height: width < 500 ? 800 : 1000 });
}

/** Decodes the QR code of a `data:image/png;base64,...` URL. */
function decodeQr(dataUrl: string): string | undefined {
  const png = PNG.sync.read(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

const STATUS = {
  en: { ok: 'Verified', bad: 'Not verified', off: 'Not published' },
  zh: { ok: '已验证', bad: '未通过验证', off: '未公开' },
};

describe('public verification page and certificate', () => {
  it('decodes the certificate QR, opens the page without login in en and zh: verified, then not verified after tampering', async () => {
    const token = await env.adminToken();
    const author = (
      await api(token, 'POST', '/artmanager/authors/addAuthors', {
        authorName: 'Public Page Author',
        introduction: 'A painter whose works are registered on chain.',
        wxIsEnable: 1,
      })
    ).data;
    const artwork = (
      await api(token, 'POST', '/artmanager/artwork/addArtwork', {
        artWorkName: 'Harbour at Dawn',
        author: author.id,
        classify: 'painting',
        texture: 'oil on canvas',
        certificateInfo: { certificateNo: 'CERT-2026-0042' },
      })
    ).data;
    expect(artwork.id).toBeGreaterThan(0);
    expect((await api(token, 'POST', '/artmanager/authors/blockChain', { id: author.id })).code).toBe(0);
    const put = await api(token, 'POST', '/artmanager/artwork/blockChain', { id: artwork.id });
    expect(put.code).toBe(0);

    // From the artwork's screen, by clicking: the certificate opens in a new tab.
    const admin = await env.signIn('admin', 'en', { width: 1440, height: 1000 });
    await admin.goto(`${env.baseUrl}/#/artworks/${artwork.id}/show`);
    const [certificate] = await Promise.all([
      admin.context().waitForEvent('page'),
      admin.getByTestId('onchain-certificate-link').click({ timeout: 30_000 }),
    ]);
    const qr = certificate.getByTestId('certificate-qr');
    await qr.waitFor({ timeout: 30_000 });
    const url = decodeQr((await qr.getAttribute('src'))!);
    expect(url).toBe(`${env.baseUrl}/#/verify/artwork/${artwork.id}`);
    await expect.poll(() => certificate.getByTestId('certificate').textContent()).toContain('CERT-2026-0042');
    // Printable: under print media the buttons are hidden, and Chromium prints it to a one-page PDF.
    await certificate.emulateMedia({ media: 'print' });
    expect(await certificate.getByTestId('certificate-print').isVisible()).toBe(false);
    const pdf = await certificate.pdf({ format: 'A4', printBackground: true });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    writeFileSync(join(shots, 'certificate-en.pdf'), pdf);
    await admin.context().close();

    for (const lang of ['en', 'zh'] as const) {
      for (const width of [1440, 375]) {
        const page = await anonymous(lang, width);
        await page.goto(url!);
        await expect
          .poll(() => page.getByTestId('public-status').textContent(), { timeout: 30_000 })
          .toBe(STATUS[lang].ok);
        expect(page.url()).toContain(`#/verify/artwork/${artwork.id}`); // no login redirect
        expect(await page.getByTestId('public-steps').locator('[data-ok="true"]').count()).toBe(5);
        await expect.poll(() => page.locator('body').textContent()).toContain('Harbour at Dawn');
        await page.screenshot({ path: join(shots, `public-verify-${lang}-${width}.png`), fullPage: true });
        await page.goto(`${env.baseUrl}/#/certificate/${artwork.id}`);
        await expect
          .poll(() => page.getByTestId('certificate').getByTestId('public-status').textContent(), {
            timeout: 30_000,
          })
          .toBe(STATUS[lang].ok);
        await page.screenshot({ path: join(shots, `certificate-${lang}-${width}.png`), fullPage: true });
        await page.context().close();
      }
    }

    // Tamper with the database: the artwork's title changed behind the API's back.
    const db = new Database(join(env.dataDir, 'baas.sqlite'));
    db.prepare('UPDATE artworks SET artWorkName = ? WHERE id = ?').run('Forged Title', artwork.id);
    db.close();
    for (const lang of ['en', 'zh'] as const) {
      const page = await anonymous(lang, 1440);
      await page.goto(url!);
      await expect
        .poll(() => page.getByTestId('public-status').textContent(), { timeout: 30_000 })
        .toBe(STATUS[lang].bad);
      expect(
        await page.getByTestId('public-steps').locator('[data-step="digest"]').getAttribute('data-ok'),
      ).toBe('false');
      await page.screenshot({ path: join(shots, `public-verify-tampered-${lang}.png`), fullPage: true });
      await page.context().close();
    }
  });

  it('says "Not published" for an author whose public page is off, in en and zh', async () => {
    const token = await env.adminToken();
    const author = (
      await api(token, 'POST', '/artmanager/authors/addAuthors', { authorName: 'Private Painter' })
    ).data;
    expect((await api(token, 'POST', '/artmanager/authors/blockChain', { id: author.id })).code).toBe(0);
    for (const lang of ['en', 'zh'] as const) {
      const page = await anonymous(lang, 1440);
      await page.goto(`${env.baseUrl}/#/verify/author/${author.id}`);
      await expect
        .poll(() => page.getByTestId('public-status').locator('.MuiAlertTitle-root').textContent(), {
          timeout: 30_000,
        })
        .toBe(STATUS[lang].off);
      await page.context().close();
    }
  });
});

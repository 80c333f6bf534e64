/**
 * The console shows a halted ledger (issue 31): a server whose key directory remembers a longer log of
 * its origin than its database holds (an older copy restored, or an emptied database) signs nothing and
 * every blockchain page carries a red banner naming the kind, both sizes and the ways out, in English
 * and Chinese; the chains table says "Halted". Screenshots at 1440 and 375 px go to .tmp/screenshots/.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCheckpoint } from '../../common/ledger/note';
import { describeKey, SIGNED_STATE_FILE, signNote } from '../../server/ledger/checkpoints';
import { ed25519PrivateKey } from '../../server/ledger/ed25519Key';
import { startEnv, type TestEnv } from './helpers/env';
import { screenshotDir } from './helpers/screenshots';
import { LedgerAlarmPage } from './pages/LedgerAlarmPage';

const SEED = Buffer.alloc(32, 31).toString('base64');
const ORIGIN = 'halt.test/artchannel';
const keyDir = mkdtempSync(join(tmpdir(), 'baas-halt-keys-'));
let env: TestEnv;

beforeAll(async () => {
  // The key directory remembers a checkpoint of 40 entries, signed by the server's own key.
  const key = await describeKey(ORIGIN, ed25519PrivateKey(SEED, 'seed'), 'test');
  const rootHash = '5a'.repeat(32);
  const note = await signNote(
    key,
    formatCheckpoint({ origin: ORIGIN, size: 40, rootHash, extensions: ['time 2026-11-29T00:00:00.000Z'] }),
  );
  mkdirSync(keyDir, { recursive: true });
  writeFileSync(join(keyDir, SIGNED_STATE_FILE), JSON.stringify({ [ORIGIN]: { size: 40, rootHash, note } }));
  env = await startEnv({
    seed: false,
    env: { LEDGER_SIGNING_KEY: SEED, LEDGER_ORIGIN: 'halt.test', LEDGER_KEY_DIR: keyDir },
  });
}, 180_000);

afterAll(async () => {
  await env?.stop();
  rmSync(keyDir, { recursive: true, force: true });
});

describe('a halted ledger in the console', () => {
  it('every blockchain page carries the alarm, in English and Chinese, at 1440 and 375 px', async () => {
    const dir = screenshotDir();
    for (const lang of ['en', 'zh'] as const) {
      const page = await env.signIn('admin', lang);
      const p = new LedgerAlarmPage(page, env.baseUrl);
      const banner = await p.openWithBanner('/baas/fabric');
      if (lang === 'en') {
        await expect.poll(() => banner.innerText()).toMatch(/Ledger halted on channel artchannel/);
        const text = await banner.innerText();
        expect(text).toMatch(/Rollback: the stored log has 1 entries, fewer than the 40/);
        expect(text).toMatch(/restore a newer copy of the database, or start a new log/);
        await expect.poll(() => p.chainStatus().innerText()).toBe('Halted');
      } else {
        await expect.poll(() => banner.innerText()).toMatch(/通道 artchannel 的账本已停止/);
        expect(await banner.innerText()).toMatch(
          /回滚：存储的日志只有 1 条记录，少于最近签名或见证的检查点的 40 条/,
        );
        await expect.poll(() => p.chainStatus().innerText()).toBe('已停止');
      }
      await page.screenshot({ path: join(dir, `ledger-halted.${lang}.1440.png`), fullPage: false });
      for (const route of ['/baas/channel', '/baas/chainCode'])
        await expect.poll(async () => (await p.openWithBanner(route)).isVisible()).toBe(true);
      await page.setViewportSize({ width: 375, height: 800 });
      await p.openWithBanner('/baas/fabric');
      await page.screenshot({ path: join(dir, `ledger-halted.${lang}.375.png`), fullPage: false });
      await page.context().close();
    }
    // Nothing was signed, and a put on chain is refused.
    const cp = await env.adminApi('/baas-api/public/checkpoint?channel=artchannel');
    expect(cp.body.code).not.toBe(0);
  });
});

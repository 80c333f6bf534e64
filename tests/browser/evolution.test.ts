/**
 * The console after a schema evolution (issue 33 item 4, "the console and the API follow the change"), in
 * Chromium, on a database that lived before the edit. A copy of the repository (tests/support/repoCopy.ts)
 * runs its server once as it is, seeded (the shipped Tate sample): an operator edits an artwork's
 * texture (History) and saves a view of the artworks naming the owner (`possessor`) and the texture, with
 * a filter and a sort on the owner. Then, as a developer would, two edits of schemas/artwork.schema.json
 * (tests/support/tateEvolution.ts edits 3 and 8): `texture` renamed `medium` (`x-renamedFrom`) and
 * `possessor` removed (`x-removed`); `npm run codegen`, the console built, the server started again on
 * the same database (its start runs the new migration). The operator then finds:
 * - the list without the Owner column, with Medium, and no Owner in the "Add filter" menu;
 * - the saved view still opens, its columns without the owner (its filter and sort on it left out);
 * - the edit form without an owner input, the texture's value under Medium;
 * - the CSV export with a `medium` column and no `possessor`;
 * - History: the edit made before the rename listed under Medium, "(then named texture)", in en and zh.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../../common/envelope';
import { copyRepository, runIn } from '../support/repoCopy';
import { call, type ApiTarget } from '../support/schemaFuzzApi';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { EDITS } from '../support/tateEvolution';
import { CHROMIUM, CHROMIUM_ARGS, STILL } from './helpers/env';
import { screenshotDir } from './helpers/screenshots';
import { EvolutionPage } from './pages/EvolutionPage';
import { LoginPage } from './pages/LoginPage';

type Json = Record<string, any>;

const passwords = {
  ADMIN_PASSWORD: 'Admin-pass-for-evolution-1',
  USER_PASSWORD: 'User-pass-for-evolution-1',
};
const VIEW = 'Owners and media';
const EDITED = 'Oil paint on canvas, relined before the rename';

let work = '';
let server: ServerProcess | undefined;
let browser: Browser | undefined;
/** The artwork edited before the rename, and one with an owner. */
let edited = 0;

/** Signs in as admin on `url`: the API target of the calls. */
async function signIn(url: string): Promise<ApiTarget> {
  const login = await fetch(`${url}/dev-api/user/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: passwords.ADMIN_PASSWORD }),
  });
  return { url, token: ((await login.json()) as Envelope<{ token: string }>).data.token };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'baas-evolution-ui-'));
  const tree = join(work, 'tree');
  mkdirSync(tree);
  copyRepository(tree);
  const dataDir = join(work, 'data');

  // Before the edit: the seeded database, an edit in History and a saved view naming the owner.
  const before = await startServerProcess({ root: tree, dataDir, env: { ...passwords, SEED: '1' } });
  try {
    const api = await signIn(before.url);
    const page = await call(api, 'POST', '/artmanager/artwork/searchArtworkList', {
      page: 1,
      pageSize: 1,
      sort: 'id',
      order: 'ASC',
    });
    edited = (page.body.data as Json).list[0].id;
    const upd = await call(api, 'POST', '/artmanager/artwork/baseInfo', {
      id: edited,
      texture: EDITED,
    });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    const view = await call(api, 'POST', '/dev-api/views/add', {
      resource: 'artworks',
      name: VIEW,
      filter: { possessor: 'Tate' },
      sort: { field: 'possessor', order: 'ASC' },
      columns: ['artWorkName', 'possessor', 'texture'],
      shared: true,
    });
    expect(view.status, JSON.stringify(view.body)).toBe(200);
  } finally {
    await before.stop();
  }

  // The developer's two edits, codegen, the console built; the server started again on the same data.
  const file = join(tree, 'schemas/artwork.schema.json');
  const schema = JSON.parse(readFileSync(file, 'utf8')) as Json;
  for (const edit of EDITS.filter((e) => e.renamed || e.changed.includes('possessor')))
    edit.apply(schema, { classify: [] });
  writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
  runIn(tree, 'scripts/codegen.ts');
  const consoleDir = join(work, 'console');
  await build({ root: tree, logLevel: 'warn', build: { outDir: consoleDir, emptyOutDir: true } });
  server = await startServerProcess({ root: tree, dataDir, env: { ...passwords, CONSOLE_DIR: consoleDir } });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}, 600_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A signed-in console in `lang` at 1440 px. */
async function console_(lang: 'en' | 'zh'): Promise<EvolutionPage> {
  const context = await browser!.newContext({
    ...STILL,
    viewport: { width: 1440, height: 900 },
    locale: lang === 'zh' ? 'zh-CN' : 'en-US',
    acceptDownloads: true,
  });
  const page = await context.newPage();
  const login = new LoginPage(page, server!.url);
  await login.open();
  await login.login('admin', passwords.ADMIN_PASSWORD);
  await page.waitForURL((u) => !u.hash.includes('login'));
  return new EvolutionPage(page, server!.url);
}

describe('after renaming texture to medium and removing possessor', () => {
  it('the list, its filters, the saved view, the edit form and the export follow the schema', async () => {
    const ui = await console_('en');
    try {
      await ui.openList('artworks');
      const headers = await ui.headers();
      expect(headers).not.toContain('Owner');
      expect(headers.join('|')).not.toMatch(/Texture/);
      const filters = await ui.filterChoices(/^Add filter$/);
      expect(filters.length).toBeGreaterThan(0);
      expect(filters).not.toContain('Owner');

      // the view saved before the edit opens, without the removed column, filter and sort
      await ui.applyView(/^Views$/, VIEW);
      await expect.poll(() => ui.headers()).toEqual(expect.arrayContaining(['Artwork name', 'Medium']));
      expect(await ui.headers()).not.toContain('Owner');
      expect(decodeURIComponent(ui.route())).not.toContain('possessor');
      expect(await ui.page.locator('table tbody tr').count()).toBeGreaterThan(0);

      await ui.openEdit('artworks', edited);
      expect(await ui.input('possessor').count()).toBe(0);
      await expect.poll(() => ui.input('medium').inputValue()).toBe(EDITED);

      await ui.openList('artworks');
      const csv = await ui.exportCsv();
      const head = csv
        .replace(/^\uFEFF/, '')
        .split(/\r?\n/)[0]
        .split(',');
      expect(head).toContain('Medium');
      expect(head.filter((h) => /^(possessor|Owner|texture|Texture \/ medium)$/.test(h))).toEqual([]);
      expect(csv).toContain(EDITED);
    } finally {
      await ui.page.context().close();
    }
  });

  it.each([
    ['en', 'Medium', '(then named texture)'],
    ['zh', '媒介', '（当时名为 texture）'],
  ] as const)(
    'History (%s) lists the edit made before the rename under its new name, with the old one',
    async (lang, label, formerly) => {
      const ui = await console_(lang);
      try {
        await ui.openHistory('artworks', edited);
        const rows = (await ui.diffRows(0)).filter((r) => r[0].startsWith(label));
        expect(rows).toHaveLength(1);
        expect(rows[0][0]).toBe(`${label} ${formerly}`);
        expect(rows[0][2]).toBe(EDITED);
        await ui.page.getByTestId('history-formerly').first().scrollIntoViewIfNeeded();
        await ui.page.screenshot({ path: join(screenshotDir(), `evolution-history.${lang}.png`) });
      } finally {
        await ui.page.context().close();
      }
    },
  );
});

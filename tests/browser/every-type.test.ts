/**
 * The console's pages for a resource with one field of every type (tests/fixtures/everything.schema.json,
 * `specimen`), added to a copy of the repository by its schema alone: the list (columns, filters), show
 * (sections), edit and create pages render in Chromium with no page error, and saving works (issue 18
 * item 2: list column, filter, form input and show field of every type). The API side of each type is
 * tests/api/every-type.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../../common/envelope';
import { httpApi } from '../support/httpApi';
import { copyWithSchemas } from '../support/repoCopy';
import { ROOT, startServerProcess, type ServerProcess } from '../support/serverProcess';
import { CHROMIUM, CHROMIUM_ARGS } from './helpers/env';
import { ConsolePage } from './pages/ConsolePage';
import { LoginPage } from './pages/LoginPage';

const ADMIN_PASSWORD = 'Admin-pass-for-tests-1';
let work: string;
let server: ServerProcess;
let browser: Browser;
let token: string;

/** A POST as the admin; its envelope (tests/support/httpApi.ts). */
const api = async (path: string, body: unknown) =>
  (await httpApi(server.url, token, 'POST', path, body)).body;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'baas-every-type-ui-'));
  const tree = join(work, 'tree');
  copyWithSchemas(tree, [
    { from: join(ROOT, 'tests/fixtures/everything.schema.json'), to: 'schemas/specimen.schema.json' },
  ]);
  const consoleDir = join(work, 'console');
  await build({ root: tree, logLevel: 'warn', build: { outDir: consoleDir, emptyOutDir: true } });
  server = await startServerProcess({
    root: tree,
    dataDir: join(work, 'data'),
    env: { CONSOLE_DIR: consoleDir, ADMIN_PASSWORD },
  });
  const login = await fetch(`${server.url}/dev-api/user/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  token = ((await login.json()) as Envelope<{ token: string }>).data.token;
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the pages of a resource with every type', () => {
  it('list, show, edit and create render and save with no page error', async () => {
    const author = await api('/artmanager/authors/addAuthors', { authorName: 'Specimen author' });
    const full = await api('/artmanager/specimen/add', {
      code: 'UI-001',
      title: 'Shown in the browser',
      startDate: '2026-03-01',
      endDate: '2026-03-02',
      happenedAt: '2026-03-01T08:00:00Z',
      email: 'ui@example.com',
      homepage: 'https://example.com/',
      quantity: 25,
      price: 12.5,
      rating: 4.5,
      active: true,
      pinned: false,
      status: 'published',
      level: 2,
      flag: 1,
      tags: ['red', 'blue'],
      scores: [3, 4],
      author: author.data.id,
      note: 'a note',
      address: { city: 'Hangzhou', floor: 3, verified: true },
      contacts: [{ name: 'Wang Wu', primary: true, since: '2021-05-06' }],
    });
    expect(full.code, JSON.stringify(full)).toBe(0);
    const id = full.data.id as number;

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addCookies([{ name: 'language', value: 'en', url: server.url }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await new LoginPage(page, server.url).open();
    await new LoginPage(page, server.url).login('admin', ADMIN_PASSWORD);
    const ui = new ConsolePage(page, server.url);

    await ui.goto('/permission/specimens');
    await ui.rows().filter({ hasText: 'Shown in the browser' }).first().waitFor();
    await expect.poll(() => ui.rows().first().innerText()).toContain('Published');

    await ui.goto(`/specimens/${id}/show`);
    await page.getByText('Shown in the browser').first().waitFor();
    await page.getByText('Specimen author').first().waitFor();

    await ui.goto(`/specimens/${id}`);
    await ui.input('title').waitFor();
    expect(await ui.input('startDate').inputValue()).toBe('2026-03-01');
    await ui.input('title').fill('Edited in the browser');
    await ui.save();
    await page.waitForURL(/#\/specimens\/\d+\/show/);
    await page.getByText('Edited in the browser').first().waitFor();

    await ui.goto('/specimens/create');
    await ui.input('code').fill('UI-002');
    await ui.input('title').fill('Created in the browser');
    await ui.input('startDate').fill('2026-04-01');
    await ui.input('quantity').fill('15');
    await ui.save();
    await page.waitForURL(/#\/specimens\/\d+\/show/);
    await page.getByText('Created in the browser').first().waitFor();
    const created = ui.currentId();
    const res = await fetch(`${server.url}/artmanager/specimen/getInfo?id=${created}`, {
      headers: { 'X-Token': token },
    });
    const rec = ((await res.json()) as { data: Record<string, unknown> }).data;
    // the form sent JSON types: a number, a date string, and the schema's defaults
    expect(rec).toMatchObject({
      code: 'UI-002',
      startDate: '2026-04-01',
      quantity: 15,
      active: true,
      status: 'draft',
      level: 1,
    });
    expect(errors).toEqual([]);
    await context.close();
  });
});

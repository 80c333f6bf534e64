/**
 * Shared set-up of the browser tests: builds the console once (`vite build` into a temporary directory),
 * starts the real server (the server bundle that scripts/test-all.sh built, `PREBUILT_SERVER_ENTRY`, as
 * `npm start` runs it; else `tsx server/server.ts`) on a free loopback port with a temporary DATA_DIR
 * (seeded with the shipped Tate sample), known ADMIN_PASSWORD / USER_PASSWORD and CONSOLE_DIR pointing at
 * that build, and launches Chromium headless through playwright-core (`CHROMIUM`: Debian's headless shell).
 *
 * `startEnv()` resolves `{ baseUrl, browser, passwords, stop }`; `stop()` closes the browser, ends the
 * server and removes the temporary directories. The server process is tests/support/serverProcess.ts.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';
import { commandArgs, ROOT, startServerProcess } from '../../support/serverProcess';
import { httpApi } from '../../support/httpApi';
import { Codes } from '../../../common/envelope';
import { LoginPage } from '../pages/LoginPage';

export { ROOT };

/**
 * The browser the tests drive: `CHROMIUM_PATH`, else Debian's `chromium-headless-shell` (Chromium's headless
 * shell, the browser Playwright's own headless runs use: the same Blink and V8 without the full browser's
 * UI layers; the whole browser suite takes about a fifth less CPU with it than with the full browser),
 * else Debian's full `chromium` when the shell is not installed (scripts/ensure-system-deps.sh installs both).
 */
export const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => existsSync(p)) ??
  '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * What every test's browser context asks for (spread into `browser.newContext`): reduced motion, so the
 * console does not animate (src/layout/motion.ts) and no test waits on, or spends CPU drawing, a
 * transition. Playwright's own default is `no-preference`; tests/browser/shell.test.ts checks both.
 */
export const STILL = { reducedMotion: 'reduce' } as const;

export interface TestEnv {
  baseUrl: string;
  browser: Browser;
  passwords: { admin: string; user: string };
  dataDir: string;
  /**
   * A new browser context in `lang` (the `language` cookie and the browser locale) without any session:
   * its one page, blank. Close it with `page.context().close()`.
   */
  newPage(lang?: 'en' | 'zh', viewport?: { width: number; height: number }): Promise<Page>;
  /**
   * A new browser context in `lang` (the `language` cookie and the browser locale), signed in as `who`:
   * its page, on the screen the login lands on. Close it with `page.context().close()`.
   */
  signIn(
    who: 'admin' | 'user',
    lang?: 'en' | 'zh',
    viewport?: { width: number; height: number },
  ): Promise<Page>;
  /**
   * A new session of the console account `who` through the API (`/dev-api/user/login`): its token.
   * @throws Error naming the status and envelope when the login is refused
   */
  tokenOf(who: 'admin' | 'user'): Promise<string>;
  /** `tokenOf('admin')`. */
  adminToken(): Promise<string>;
  /**
   * Calls the server directly with a new admin login: GET without `body`, POST with it as JSON. Resolves
   * the HTTP status and the envelope `{code, msg, data}`.
   */
  adminApi(
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: { code: number; msg: string; data: any } }>;
  stop(): Promise<void>;
}

let built: string | undefined;
/**
 * Builds the console once per test process into a temporary directory (or takes PREBUILT_CONSOLE_DIR);
 * resolves that directory.
 */
export async function buildConsole(): Promise<string> {
  if (built) return built;
  // scripts/test-all.sh builds the console once and passes it on, so the test files need not each build it.
  if (process.env.PREBUILT_CONSOLE_DIR) return (built = process.env.PREBUILT_CONSOLE_DIR);
  const outDir = mkdtempSync(join(tmpdir(), 'baas-console-'));
  await build({ root: ROOT, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  return (built = outDir);
}

/** The Tate data folder (TATE_DIR, default ../shared/data/tate from the repository root). */
export const TATE_DIR = resolve(process.env.TATE_DIR || join(ROOT, '../shared/data/tate'));
/** The full Tate files of TATE_DIR (artworks, artists). */
const FULL_TATE_FILES = ['artworks.json.gz', 'artists.json.gz'].map((f) => join(TATE_DIR, f));
/** Whether the full Tate collection can be loaded here (TATE_FULL_SQLITE, or both files in TATE_DIR). */
export const FULL_TATE_AVAILABLE =
  Boolean(process.env.TATE_FULL_SQLITE) || FULL_TATE_FILES.every((f) => existsSync(f));

/**
 * Loads the FULL Tate collection (TATE_DIR's artists.json.gz and artworks.json.gz: 3,523 authors and
 * 51,840 artworks) into the SQLite file of `dataDir` with the command-line import (`npm run import`,
 * tests/support/serverProcess.ts `commandArgs`: the same pipeline as the first-start seed), in a child
 * process; the server then finds authors and does not seed. About 20 s of CPU (minutes on a loaded machine). `TATE_FULL_SQLITE` names a `baas.sqlite` that
 * import made before, copied instead.
 * @throws `missing <file> (set TATE_DIR ...)`, or the import's output when it exits non-zero
 */
function importFullTate(dataDir: string): void {
  // A database the same import made before (`npm run import` of the full files into an empty DATA_DIR):
  // copied instead, to spare the import on a busy machine; the server migrates it to the latest schema.
  if (process.env.TATE_FULL_SQLITE) {
    copyFileSync(process.env.TATE_FULL_SQLITE, join(dataDir, 'baas.sqlite'));
    return;
  }
  const files = FULL_TATE_FILES;
  for (const f of files)
    if (!existsSync(f)) throw new Error(`missing ${f} (set TATE_DIR to the Tate data folder)`);
  const run = spawnSync(
    process.execPath,
    commandArgs('import', [files[0], '--artists', files[1], '--report', join(dataDir, 'import.jsonl')]),
    { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' },
  );
  if (run.status !== 0)
    throw new Error(`full Tate import failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
}

/**
 * Starts server + browser (see the module doc).
 * @param opts.tate `sample` (default: the first-start seed, 1,826 artworks) or `full` (the whole Tate
 *   collection, 51,840 artworks, {@link importFullTate})
 * @param opts.seed false: no first-start seed (an empty registry; faster)
 * @param opts.env more environment of the server (e.g. `LEDGER_KEY_DIR`)
 */
export async function startEnv(
  opts: { tate?: 'sample' | 'full'; seed?: boolean; env?: Record<string, string> } = {},
): Promise<TestEnv> {
  const consoleDir = await buildConsole();
  const dataDir = mkdtempSync(join(tmpdir(), 'baas-data-'));
  if (opts.tate === 'full') importFullTate(dataDir);
  const passwords = { admin: 'Admin-pass-for-tests-1', user: 'User-pass-for-tests-1' };
  const server = await startServerProcess({
    dataDir,
    env: {
      SEED: opts.seed === false ? '0' : '1',
      CONSOLE_DIR: consoleDir,
      ADMIN_PASSWORD: passwords.admin,
      USER_PASSWORD: passwords.user,
      LOGIN_RATE_LIMIT: '1000',
      ...opts.env,
    },
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const tokenOf = async (who: 'admin' | 'user') => {
    const r = await httpApi(server.url, null, 'POST', '/dev-api/user/login', {
      username: who,
      password: passwords[who],
    });
    if (r.status !== 200 || r.body.code !== Codes.OK)
      throw new Error(`login as ${who} answered ${r.status}: ${JSON.stringify(r.body)}`);
    return r.body.data.token as string;
  };
  const adminToken = () => tokenOf('admin');
  const newPage: TestEnv['newPage'] = async (lang = 'en', viewport = { width: 1440, height: 900 }) => {
    const context = await browser.newContext({
      ...STILL,
      viewport,
      locale: lang === 'zh' ? 'zh-CN' : 'en-US',
    });
    await context.addCookies([{ name: 'language', value: lang, url: server.url }]);
    return context.newPage();
  };
  return {
    baseUrl: server.url,
    browser,
    passwords,
    dataDir,
    newPage,
    async signIn(who, lang = 'en', viewport = { width: 1440, height: 900 }) {
      const page = await newPage(lang, viewport);
      const login = new LoginPage(page, server.url);
      await login.open();
      await login.login(who, passwords[who]);
      return page;
    },
    tokenOf,
    adminToken,
    async adminApi(path, body) {
      return httpApi(server.url, await adminToken(), body === undefined ? 'GET' : 'POST', path, body);
    },
    async stop() {
      await browser.close().catch(() => undefined);
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(`${dataDir}-keys`, { recursive: true, force: true }); // the default LEDGER_KEY_DIR
    },
  };
}

/**
 * The console's first load, measured in Chromium (playwright-core driving /usr/bin/chromium, headless),
 * printed (never asserted): `run()` is called by bench/run.ts (`npm run bench`); alone:
 * `npx tsx bench/firstLoad.ts`.
 *
 * Builds the console (tests/support/consoleBuild.ts), starts the real server on loopback with the Tate
 * sample seed, then, each in a fresh browser context (empty cache), for FIRST_LOAD_ROUNDS rounds (default
 * 3, medians printed):
 * - login page: `/#/login`, until the sign-in form shows and the network is idle;
 * - dashboard after login: from that login page, sign in as admin, until the dashboard's figures and charts
 *   show and the network is idle (the bytes after the click);
 * - dashboard, cold with a session: `/#/dashboard` with a session token already set;
 * - artworks list, cold with a session: `/#/artworks`, until the first row shows.
 * Bytes: JavaScript actually transferred (CDP `Network.loadingFinished` encodedDataLength, headers
 * included; Chromium asks for br, so brotli) and the same files' gzip size (the build's `.gz`: the
 * "kB gzip" of the goals). Time to first meaningful content: navigation start to the sign-in form / the
 * dashboard's artworks figure with its value / the list's first row, with the CPU throttled 4×
 * (CDP Emulation.setCPUThrottlingRate), network unthrottled (loopback). Also the largest chunk.
 *
 * Environment: FIRST_LOAD_ROUNDS, CHROMIUM_PATH (default /usr/bin/chromium), FIRST_LOAD_THROTTLE (4),
 * FIRST_LOAD_FILES=1 to also list each load's JavaScript files (last round) with their gzip size and
 * their largest modules (what to look at when a load grows).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildConsoleWithChunks, type ConsoleBuild } from '../tests/support/consoleBuild';
import { startServerProcess } from '../tests/support/serverProcess';

const ROUNDS = Number(process.env.FIRST_LOAD_ROUNDS ?? 3);
const LIST_FILES = process.env.FIRST_LOAD_FILES === '1';
const THROTTLE = Number(process.env.FIRST_LOAD_THROTTLE ?? 4);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'];
const PASSWORD = 'First-load-bench-pass-1';

/** JavaScript requested by a page and its transferred bytes, by URL path. */
export interface JsRecord {
  path: string;
  transferred: number;
  encoding: string;
}

/**
 * Records the JavaScript a page fetches from now on (CDP Network domain): `take()` answers what was
 * fetched since the last `take()`.
 */
export async function recordJs(page: Page): Promise<{ take(): JsRecord[] }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const meta = new Map<string, { path: string; js: boolean; encoding: string }>();
  let done: JsRecord[] = [];
  cdp.on('Network.responseReceived', (e) => {
    const url = new URL(e.response.url);
    const headers = Object.fromEntries(
      Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]),
    );
    meta.set(e.requestId, {
      path: url.pathname,
      js: e.type === 'Script' || /javascript/.test(e.response.mimeType) || url.pathname.endsWith('.js'),
      encoding: String(headers['content-encoding'] ?? 'identity'),
    });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const m = meta.get(e.requestId);
    if (m?.js) done.push({ path: m.path, transferred: e.encodedDataLength, encoding: m.encoding });
  });
  return {
    take() {
      const out = done;
      done = [];
      return out;
    },
  };
}

interface Sample {
  /** The files fetched (URL paths), each once. */
  paths: string[];
  transferred: number;
  gzip: number;
  files: number;
  ms?: number;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kB = (n: number) => (n / 1024).toFixed(1);

function sample(js: JsRecord[], built: ConsoleBuild, ms?: number): Sample {
  const unique = [...new Map(js.map((j) => [j.path, j])).values()];
  return {
    paths: unique.map((j) => j.path),
    transferred: sum(unique.map((j) => j.transferred)),
    gzip: sum(unique.map((j) => built.chunkOf(j.path)?.gzip ?? j.transferred)),
    files: unique.length,
    ms,
  };
}

async function throttled(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
}

/** Milliseconds from navigation start until `selector` is visible (polled on animation frames). */
async function timeTo(page: Page, selector: string): Promise<number> {
  await page.locator(selector).first().waitFor({ state: 'visible', timeout: 120_000 });
  return page.evaluate(() => performance.now());
}

async function newContext(browser: Browser, baseUrl: string, token?: string): Promise<BrowserContext> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
  const { hostname } = new URL(baseUrl);
  await context.addCookies([
    { name: 'language', value: 'en', domain: hostname, path: '/' },
    ...(token ? [{ name: 'Admin-Token', value: token, domain: hostname, path: '/' }] : []),
  ]);
  return context;
}

async function apiToken(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/dev-api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

const DASHBOARD_READY = '[data-testid="figure-artworks"] .figure-value:not(:has(.MuiSkeleton-root))';

/** Lists a load's files, largest first: gzip kB and the biggest modules (by package or source file). */
function printFiles(name: string, s: Sample, built: ConsoleBuild): void {
  console.log(`\n${name}:`);
  const files = s.paths.map((p) => ({ path: p, chunk: built.chunkOf(p) }));
  files.sort((a, b) => (b.chunk?.gzip ?? 0) - (a.chunk?.gzip ?? 0));
  for (const { path, chunk } of files) {
    const parts = new Map<string, number>();
    for (const [m, n] of Object.entries(chunk?.moduleSizes ?? {})) {
      const key = m.startsWith('node_modules/')
        ? m
            .split('/')
            .slice(0, m.startsWith('node_modules/@') ? 3 : 2)
            .join('/')
        : m;
      parts.set(key, (parts.get(key) ?? 0) + n);
    }
    const top = [...parts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([m, n]) => `${m.replace(/^node_modules\//, '')} ${kB(n)}`)
      .join(', ');
    console.log(`  ${kB(chunk?.gzip ?? 0).padStart(6)} kB gzip  ${path}  ${top}`);
  }
}

/** Runs the measurements and prints the first-load table. */
export async function run(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'baas-first-load-'));
  const server = { stop: async () => {} };
  let browser: Browser | undefined;
  try {
    const built = await buildConsoleWithChunks(join(tmp, 'console'));
    const proc = await startServerProcess({
      dataDir: join(tmp, 'data'),
      env: {
        SEED: '1',
        CONSOLE_DIR: built.dir,
        ADMIN_PASSWORD: PASSWORD,
        USER_PASSWORD: PASSWORD,
        LOGIN_RATE_LIMIT: '100000',
      },
    });
    server.stop = () => proc.stop();
    const base = proc.url;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
    const rows: Record<string, Sample[]> = {};
    const add = (name: string, s: Sample) => (rows[name] ??= []).push(s);

    for (let round = 0; round < ROUNDS; round++) {
      // Bytes: unthrottled. Login page, then sign in → dashboard (same context: the login's files cached).
      {
        const context = await newContext(browser, base);
        const page = await context.newPage();
        const js = await recordJs(page);
        await page.goto(`${base}/#/login`);
        await page.locator('input[name="username"]').waitFor();
        await page.waitForLoadState('networkidle');
        add('login page', sample(js.take(), built));
        await page.fill('input[name="username"]', 'admin');
        await page.fill('input[name="password"]', PASSWORD);
        await page.click('button[type="submit"]');
        await page.locator(DASHBOARD_READY).waitFor({ timeout: 120_000 });
        await page.waitForLoadState('networkidle');
        await page
          .locator('[data-testid="dashboard"] .recharts-surface')
          .first()
          .waitFor({ timeout: 60_000 });
        add('dashboard after login (after the click)', sample(js.take(), built));
        await context.close();
      }
      const token = await apiToken(base);
      for (const [name, route, ready] of [
        ['dashboard, cold, signed in', '/dashboard', DASHBOARD_READY],
        ['artworks list, cold, signed in', '/artworks', 'table tbody tr'],
      ] as const) {
        const context = await newContext(browser, base, token);
        const page = await context.newPage();
        const js = await recordJs(page);
        await page.goto(`${base}/#${route}`);
        await page.locator(ready).first().waitFor({ timeout: 120_000 });
        await page.waitForLoadState('networkidle');
        add(name, sample(js.take(), built));
        await context.close();
      }
      // Times: CPU throttled, fresh context each.
      for (const [name, route, ready, signedIn] of [
        ['login page', '/login', 'input[name="username"]', false],
        ['dashboard, cold, signed in', '/dashboard', DASHBOARD_READY, true],
        ['artworks list, cold, signed in', '/artworks', 'table tbody tr', true],
      ] as const) {
        const context = await newContext(browser, base, signedIn ? token : undefined);
        const page = await context.newPage();
        await throttled(page);
        await page.goto(`${base}/#${route}`, { waitUntil: 'commit' });
        const ms = await timeTo(page, ready);
        const list = rows[name];
        list[list.length - 1].ms = ms;
        await context.close();
      }
    }

    const largest = [...built.chunks].filter((c) => !c.isEntry).sort((a, b) => b.gzip - a.gzip)[0];
    const entry = built.chunks.find((c) => c.isEntry)!;
    console.log(
      `\nconsole first load (Chromium headless, fresh cache, loopback; median of ${ROUNDS}; JavaScript only;` +
        ` time: navigation start → first meaningful content, CPU throttled ${THROTTLE}×):`,
    );
    const pad = (s: string, n: number) => s.padEnd(n);
    const lpad = (s: string, n: number) => s.padStart(n);
    console.log(
      `${pad('load', 42)}${lpad('files', 6)}${lpad('kB sent', 10)}${lpad('kB gzip', 10)}${lpad('ms', 8)}`,
    );
    for (const [name, samples] of Object.entries(rows)) {
      const ms = samples.map((s) => s.ms).filter((m): m is number => m !== undefined);
      console.log(
        `${pad(name, 42)}${lpad(String(median(samples.map((s) => s.files))), 6)}` +
          `${lpad(kB(median(samples.map((s) => s.transferred))), 10)}${lpad(kB(median(samples.map((s) => s.gzip))), 10)}` +
          `${lpad(ms.length ? median(ms).toFixed(0) : '-', 8)}`,
      );
    }
    console.log(
      `largest route chunk: ${largest.fileName} ${kB(largest.gzip)} kB gzip (${kB(largest.bytes)} kB minified);` +
        ` entry ${entry.fileName} ${kB(entry.gzip)} kB gzip; ${built.chunks.length} chunks` +
        "\n(kB sent: encoded bytes on the wire incl. headers, brotli; kB gzip: the same files gzip -9, the goals' unit;" +
        ' goals: login page <= 150, dashboard after login <= 300)',
    );
    if (LIST_FILES)
      for (const [name, samples] of Object.entries(rows)) printFiles(name, samples.at(-1)!, built);
  } finally {
    await browser?.close();
    await server.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();

/**
 * Shared set-up of the browser tests: builds the console once (`vite build` into a temporary directory),
 * starts the real server (`tsx server/server.ts`) on a free loopback port with a temporary DATA_DIR
 * (seeded with the shipped Tate sample), known ADMIN_PASSWORD / USER_PASSWORD and CONSOLE_DIR pointing at
 * that build, and launches Debian's `/usr/bin/chromium` headless through playwright-core.
 *
 * `startEnv()` resolves `{ baseUrl, browser, passwords, stop }`; `stop()` closes the browser, ends the
 * server (by its pid) and removes the temporary directories.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';

export const ROOT = resolve(import.meta.dirname, '../../..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface TestEnv {
  baseUrl: string;
  browser: Browser;
  passwords: { admin: string; user: string };
  dataDir: string;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

let built: string | undefined;
/** Builds the console once per test process into a temporary directory; resolves that directory. */
export async function buildConsole(): Promise<string> {
  if (built) return built;
  const outDir = mkdtempSync(join(tmpdir(), 'baas-console-'));
  await build({ root: ROOT, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  return (built = outDir);
}

async function waitForServer(
  url: string,
  child: ChildProcess,
  log: () => string,
  timeoutMs = 120_000,
): Promise<void> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${log()}`);
    try {
      const r = await fetch(url);
      if (r.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not answer ${url} within ${timeoutMs} ms:\n${log()}`);
}

/** Starts server + browser (see the module doc). */
export async function startEnv(): Promise<TestEnv> {
  const consoleDir = await buildConsole();
  const dataDir = mkdtempSync(join(tmpdir(), 'baas-data-'));
  const port = await freePort();
  const passwords = { admin: 'Admin-pass-for-tests-1', user: 'User-pass-for-tests-1' };
  let output = '';
  const child = spawn(
    process.execPath,
    [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'server/server.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        CONSOLE_DIR: consoleDir,
        ADMIN_PASSWORD: passwords.admin,
        USER_PASSWORD: passwords.user,
        LOG_LEVEL: 'warn',
        LOGIN_RATE_LIMIT: '1000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForServer(`${baseUrl}/`, child, () => output);
  } catch (e) {
    child.kill('SIGTERM');
    throw e;
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  return {
    baseUrl,
    browser,
    passwords,
    dataDir,
    async stop() {
      await browser.close().catch(() => undefined);
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The served console's Content-Security-Policy: scripts only from the console's own origin, no
 * 'unsafe-eval' (the console validates forms with precompiled validators, not by compiling schemas at run
 * time) and no 'unsafe-inline'; the built index.html has no inline script that such a policy would block.
 * The console is built (`vite build`) into a temporary directory and served by the app as CONSOLE_DIR.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/serverProcess';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
let consoleDir: string;

beforeAll(async () => {
  consoleDir = mkdtempSync(join(tmpdir(), 'baas-csp-console-'));
  await build({ root: ROOT, logLevel: 'warn', build: { outDir: consoleDir, emptyOutDir: true } });
  t = await createTestApp({ consoleDir });
});

afterAll(async () => {
  await t?.close();
  if (consoleDir) rmSync(consoleDir, { recursive: true, force: true });
});

/** The directives of a CSP header, by name. */
function directives(header: unknown): Record<string, string[]> {
  return Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name, values]),
  );
}

describe('content security policy of the served console', () => {
  it('GET / answers the console with scripts from itself only: no eval, no inline script', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = directives(res.headers['content-security-policy']);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(String(res.headers['content-security-policy'])).not.toContain('unsafe-eval');
    const scripts = [...res.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc="\/assets\/[^"]+\.js"/);
      expect(body.trim()).toBe('');
    }
  });

  it('the console script and the API answer carry the same policy', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    const src = /<script\b[^>]*\bsrc="([^"]+)"/.exec(page.body)![1];
    const script = await t.app.inject({ method: 'GET', url: src });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
    const api = await t.app.inject({
      method: 'GET',
      url: '/artmanager/authors/getList',
      headers: { 'x-token': t.adminToken },
    });
    expect(api.statusCode).toBe(200);
    expect(api.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
  });
});

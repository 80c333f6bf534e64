/**
 * How the built console is served (server/plugins/external/static.ts): precompressed (the build's `.br`
 * and `.gz` beside each asset, chosen by Accept-Encoding, brotli first), hashed assets under `/assets/`
 * cacheable for a year as immutable, index.html (and the single-page-app fallback) revalidated on every
 * load. The console directory here is a small stand-in with the layout `vite build` writes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
let consoleDir: string;
const script = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;
const html = `<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js"></script></head><body><div id="root"></div>${' '.repeat(2000)}</body></html>`;

beforeAll(async () => {
  consoleDir = mkdtempSync(join(tmpdir(), 'baas-static-console-'));
  mkdirSync(join(consoleDir, 'assets'));
  for (const [file, text] of [
    ['index.html', html],
    ['assets/index-AbC123.js', script],
  ]) {
    writeFileSync(join(consoleDir, file), text);
    writeFileSync(join(consoleDir, `${file}.br`), brotliCompressSync(text));
    writeFileSync(join(consoleDir, `${file}.gz`), gzipSync(text));
  }
  t = await createTestApp({ consoleDir });
});

afterAll(async () => {
  await t?.close();
  if (consoleDir) rmSync(consoleDir, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
  });

describe('the served console', () => {
  it('a hashed asset travels brotli-compressed when the browser accepts br, immutable for a year', async () => {
    const res = await get('/assets/index-AbC123.js', 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.length).toBeLessThan(script.length / 10);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('gzip when only gzip is accepted; the plain file when nothing is', async () => {
    const gz = await get('/assets/index-AbC123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const plain = await get('/assets/index-AbC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('index.html, at / and as the single-page-app fallback, is compressed and never cached unrevalidated', async () => {
    for (const url of ['/', '/index.html', '/some/deep/link']) {
      const res = await get(url, 'gzip, br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      if (res.headers['content-encoding'] === 'br')
        expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(html);
      else expect(res.body, url).toBe(html);
    }
    expect((await get('/', 'br')).headers['content-encoding']).toBe('br');
  });

  it('an API path that matches no call keeps the 404 envelope', async () => {
    const res = await get('/artmanager/nothing-here', 'br');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: expect.any(Number), data: null });
  });
});

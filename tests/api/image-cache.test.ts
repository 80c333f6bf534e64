/**
 * The remote image cache (`GET /image-cache/?url=&w=`) against a fixture picture server on 127.0.0.1 (no
 * other host is ever contacted): an allowed host's picture is fetched once and served from DATA_DIR,
 * checked by content, size-limited, thumbnailed by sharp; a host not allowed, unreachable, a body that
 * is no image or too large give the placeholder (200, never a failing request).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';

let fixture: Server;
let origin: string;
const hits: Record<string, number> = {};
let png: Buffer;

beforeAll(async () => {
  png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#c04020' } })
    .png()
    .toBuffer();
  fixture = createServer((req, res) => {
    const path = req.url ?? '/';
    hits[path] = (hits[path] ?? 0) + 1;
    if (path === '/art.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    if (path === '/moved') return res.writeHead(302, { location: '/art.png' }).end();
    if (path === '/away') return res.writeHead(302, { location: 'http://example.invalid/x.png' }).end();
    // Says it is a JPEG but is HTML: checked by content.
    if (path === '/fake.jpg')
      return res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<html>hi</html>');
    if (path === '/huge.png')
      return res
        .writeHead(200, { 'content-type': 'image/png' })
        .end(Buffer.concat([png, Buffer.alloc(300_000)]));
    res.writeHead(404).end();
  });
  await new Promise<void>((ok) => fixture.listen(0, '127.0.0.1', ok));
  origin = `http://127.0.0.1:${(fixture.address() as AddressInfo).port}`;
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    imageCacheHosts: [new URL(origin).host],
    imageCacheMaxBytes: 200_000,
  });
});
afterAll(async () => {
  await t?.close();
  await new Promise((ok) => fixture?.close(ok));
});

const get = (url: string, w?: number) =>
  t.app.inject({ method: 'GET', url: `/image-cache/?url=${encodeURIComponent(url)}${w ? `&w=${w}` : ''}` });

describe('image cache', () => {
  it('fetches an allowed picture once, then serves it from DATA_DIR', async () => {
    const first = await get(`${origin}/art.png`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.headers['x-image-cache']).toBe('hit');
    expect(first.rawPayload.equals(png)).toBe(true);
    const second = await get(`${origin}/art.png`);
    expect(second.rawPayload.equals(png)).toBe(true);
    expect(hits['/art.png']).toBe(1);
    expect(readdirSync(join(t.dataDir, 'image-cache')).some((f) => f.endsWith('.png'))).toBe(true);
  });

  it('answers a square WebP thumbnail made by sharp, stored once', async () => {
    const r = await get(`${origin}/art.png`, 96);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('image/webp');
    const meta = await sharp(r.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 96, 96]);
    await get(`${origin}/art.png`, 90); // rounds up to the same 96 px thumbnail
    expect(readdirSync(join(t.dataDir, 'image-cache', 'thumbs'))).toHaveLength(1);
  });

  it('follows a redirect on an allowed host, refuses one to another host', async () => {
    const moved = await get(`${origin}/moved`);
    expect(moved.headers['content-type']).toBe('image/png');
    const away = await get(`${origin}/away`);
    expect(away.statusCode).toBe(200);
    expect(away.headers['x-image-cache']).toBe('placeholder; reason=not-allowed');
  });

  it.each([
    ['a host not allowed', 'http://www.tate.org.uk/art/images/work/N/N01/N01234_10.jpg', 'not-allowed'],
    ['a body that is no image', '/fake.jpg', 'not-image'],
    ['a picture over the size limit', '/huge.png', 'too-large'],
    ['a missing picture', '/nothing.png', 'not-found'],
    ['a scheme other than http(s)', 'file:///etc/passwd', 'not-allowed'],
  ])('answers the placeholder for %s', async (_, path, reason) => {
    const r = await get(path.startsWith('/') ? `${origin}${path}` : path);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['x-image-cache']).toBe(`placeholder; reason=${reason}`);
    expect(r.payload).toMatch(/^<svg /);
  });

  it('answers the placeholder at once for an unreachable host (remembered as down)', async () => {
    const dead = await createTestApp({ imageCacheHosts: ['127.0.0.1:9'] }); // discard port: refused
    try {
      const r = await dead.app.inject({
        method: 'GET',
        url: `/image-cache/?url=${encodeURIComponent('http://127.0.0.1:9/a.png')}`,
      });
      expect(r.headers['x-image-cache']).toBe('placeholder; reason=unreachable');
    } finally {
      await dead.close();
    }
  });

  it('refuses a request without url in the envelope', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/image-cache/' });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: 400, key: 'request.invalid' });
  });
});

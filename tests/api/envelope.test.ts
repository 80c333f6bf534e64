/**
 * Issue 11, "outside the envelope": requests that used to be answered by Node or Fastify's defaults, or by
 * a 500, now leave in the envelope `{code, msg, data}` naming what is at fault:
 * - a URL (query) over Node's 16 KiB header limit → 431 (a real socket: `inject` bypasses Node's parser);
 * - a JSON body with a `__proto__` (or `constructor.prototype`) key → 400 naming the key's path;
 * - malformed multipart (no boundary, truncated body) on both uploads → 400 naming the header or part;
 * - `GET /baas-api/verify?channel=` (empty channel) → 400 naming `channel`;
 * - 406 (upload not multipart), 413 (body over the limit), 415 (unknown Content-Type) in the envelope;
 * - security headers: HSTS only over HTTPS (TRUST_PROXY), one framing policy (DENY + frame-ancestors 'none').
 */
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ loginRateLimit: 1000 });
});
afterAll(() => t.close());

/** Sends `raw` on a new socket to `port` and resolves with everything the server wrote until it closed. */
function rawRequest(port: number, raw: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (err) => (chunks.length ? resolve(Buffer.concat(chunks).toString()) : reject(err)));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString()));
    socket.write(raw);
  });
}

/** Status and parsed JSON body of a raw HTTP/1.1 answer. */
function parseRaw(answer: string): { status: number; headers: string; body: any } {
  const [head, ...rest] = answer.split('\r\n\r\n');
  return {
    status: Number(head.split(' ')[1]),
    headers: head.toLowerCase(),
    body: JSON.parse(rest.join('\r\n\r\n')),
  };
}

describe('a URL past Node’s header limit', () => {
  it('a query over 16 kB answers 431 in the envelope, saying the URL is too long', async () => {
    const other = await createTestApp();
    try {
      await other.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = other.app.server.address() as AddressInfo;
      const query = 'keyword=' + 'x'.repeat(17 * 1024);
      const answer = parseRaw(
        await rawRequest(
          port,
          `GET /artmanager/authors/getList?${query} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
        ),
      );
      expect(answer.status).toBe(431);
      expect(answer.headers).toContain('content-type: application/json');
      expect(answer.body).toMatchObject({ code: 431, data: { part: 'url' } });
      expect(answer.body.msg).toMatch(/URL/);
      // The server still answers other requests.
      const ok = parseRaw(
        await rawRequest(port, 'GET /nope HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'),
      );
      expect(ok.body).toMatchObject({ code: 404 });
    } finally {
      await other.close();
    }
  });
});

describe('JSON bodies with forbidden keys or bad syntax', () => {
  const post = (payload: string) =>
    t.call({
      method: 'POST',
      url: '/artmanager/authors/addAuthors',
      headers: { 'content-type': 'application/json' },
      payload,
    });

  it.each([
    ['{"authorName":"x","__proto__":{"isAdmin":true}}', '__proto__', '__proto__'],
    ['{"authorName":"x","baseInfo":{"__proto__":{"a":1}}}', 'baseInfo.__proto__', '__proto__'],
    ['{"authorName":"x","ids":[{"constructor":{"prototype":{"a":1}}}]}', 'ids.0.constructor', 'constructor'],
  ])('%s → 400 naming the key', async (payload, field, propertyName) => {
    const res = await post(payload);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
    expect(res.body.msg).toContain(field);
    expect(res.body.data.errors).toEqual([
      expect.objectContaining({ field, keyword: 'propertyNames', params: { propertyName } }),
    ]);
  });

  it('a key named "constructor" with no prototype inside is only an unknown field', async () => {
    const res = await post('{"authorName":"x","constructor":{"a":1}}');
    expect(res.status).toBe(400);
    expect(res.body.data.errors[0]).toMatchObject({ keyword: 'additionalProperties' });
  });

  it('text that is not JSON → 400 with data.errors saying why', async () => {
    const res = await post('{"authorName":');
    expect(res.status).toBe(400);
    expect(res.body.data.errors).toEqual([
      expect.objectContaining({ field: '', keyword: 'json', params: { reason: expect.any(String) } }),
    ]);
  });
});

describe('malformed multipart on both uploads answers 400, never 500', () => {
  const uploads = ['/artmanager/upload', '/baas-api/chaincode/upload'];

  it.each(uploads)('%s without a boundary → 400 naming Content-Type', async (url) => {
    const res = await t.call({
      method: 'POST',
      url,
      headers: { 'content-type': 'multipart/form-data' },
      payload: 'anything',
    });
    expect(res.status).toBe(400);
    expect(res.body.data.errors).toEqual([
      expect.objectContaining({ field: 'Content-Type', keyword: 'boundary' }),
    ]);
  });

  it.each([
    ['/artmanager/upload', 'file', 'a.png', '\x89PNG\r\n\x1a\n'],
    ['/baas-api/chaincode/upload', 'file', 'cc.go', 'package main\n'],
  ])('%s truncated inside the part "%s" → 400 naming the part', async (url, name, filename, content) => {
    const res = await t.call({
      method: 'POST',
      url,
      headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
      payload: `--XyZ\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n\r\n${content}`,
    });
    expect(res.status).toBe(400);
    expect(res.body.data.errors).toEqual([expect.objectContaining({ field: name, keyword: 'multipart' })]);
  });

  // Over a real socket, as curl sends it (issue 32): busboy then says "Part terminated early due to
  // unexpected end of multipart data", which answered 500 on both uploads.
  it('a body cut inside the part over a real socket → 400 naming the part, on both uploads', async () => {
    const other = await createTestApp();
    try {
      await other.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = other.app.server.address() as AddressInfo;
      for (const url of ['/artmanager/upload', '/baas-api/chaincode/upload']) {
        const body = Buffer.concat([
          Buffer.from('--XX\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n'),
          Buffer.from([0x89, 0x50, 0x4e, 0x47]),
        ]);
        const head =
          `POST ${url} HTTP/1.1\r\nHost: localhost\r\nX-Token: ${other.adminToken}\r\nConnection: close\r\n` +
          `Content-Type: multipart/form-data; boundary=XX\r\nContent-Length: ${body.length}\r\n\r\n`;
        const answer = parseRaw(await rawRequest(port, Buffer.concat([Buffer.from(head), body])));
        expect(answer.status, url).toBe(400);
        expect(answer.body.data.errors, url).toEqual([
          expect.objectContaining({ field: 'file', keyword: 'multipart' }),
        ]);
      }
    } finally {
      await other.close();
    }
  });

  it('a truncated chaincode upload stores nothing', async () => {
    const before = await t.get('/baas-api/chaincodes');
    const res = await t.call({
      method: 'POST',
      url: '/baas-api/chaincode/upload',
      headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
      payload:
        '--XyZ\r\nContent-Disposition: form-data; name="name"\r\n\r\ncc\r\n--XyZ\r\nContent-Disposition: form-data; name="ver',
    });
    expect(res.status).toBe(400);
    expect(res.body.data.errors[0]).toMatchObject({ keyword: 'multipart' });
    const after = await t.get('/baas-api/chaincodes');
    expect(after.body.data.total).toBe(before.body.data.total);
  });
});

describe('GET /baas-api/verify', () => {
  it('an empty channel → 400 naming channel', async () => {
    const res = await t.get('/baas-api/verify?channel=', t.userToken);
    expect(res.status).toBe(400);
    expect(res.body.data.errors).toEqual([
      expect.objectContaining({ field: 'channel', keyword: 'minLength' }),
    ]);
  });
});

describe('406, 413 and 415 leave in the envelope', () => {
  it('406: an upload that is not multipart, naming Content-Type', async () => {
    const res = await t.post('/artmanager/upload', { file: 'x' });
    expect(res.status).toBe(406);
    expect(res.body).toMatchObject({ code: 406, data: { errors: [{ field: 'Content-Type' }] } });
  });

  it('413: a body over the 2 MiB limit', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/artmanager/authors/addAuthors',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ authorName: 'x'.repeat(3 * 1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      code: 413,
      data: { errors: [{ field: '', keyword: 'maxBodyLength', params: { limit: 2 * 1024 * 1024 } }] },
    });
    expect(res.body.msg).toEqual(expect.any(String));
  });

  it('415: a Content-Type no parser accepts, naming Content-Type', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/artmanager/authors/addAuthors',
      headers: { 'content-type': 'application/xml' },
      payload: '<author/>',
    });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ code: 415, data: { errors: [{ field: 'Content-Type' }] } });
  });
});

describe('security headers', () => {
  it('plain HTTP: no HSTS, even when the request claims https without a trusted proxy', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/dev-api/user/info' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const claimed = await t.app.inject({
      method: 'GET',
      url: '/dev-api/user/info',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
  });

  it('behind a trusted proxy (TRUST_PROXY) that says https: HSTS; says http: none', async () => {
    const proxied = await createTestApp({ trustProxy: loadConfig({ TRUST_PROXY: '127.0.0.1' }).trustProxy });
    try {
      const https = await proxied.app.inject({
        method: 'GET',
        url: '/dev-api/user/info',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(https.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const http = await proxied.app.inject({
        method: 'GET',
        url: '/dev-api/user/info',
        headers: { 'x-forwarded-proto': 'http' },
      });
      expect(http.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await proxied.close();
    }
  });

  it('one framing policy: X-Frame-Options DENY beside frame-ancestors none; scripts only from self', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dev-api/user/info' });
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self';");
  });

  it('TRUST_PROXY: unset/false → off, true, a hop count, or a list of addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8,127.0.0.1' }).trustProxy).toBe('10.0.0.0/8,127.0.0.1');
  });
});

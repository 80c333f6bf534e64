/**
 * Hostile requests to every route the running server registered (issue 18 item 8): the route list is the
 * app's own (`app.routeTable`, Fastify's onRoute hook, server/app.ts), not a hand list, so a new route is
 * fuzzed the day it lands. Each route (URL parameters filled with `1`, then with `1e300`) gets:
 * - paging out of range: `page=1e18`, `page=1e300`, `page=-1`, `page=1.5`, `pageSize=1e9`: a route whose
 *   query declares `page` answers 400 naming `page` (`pageSize`), as the kernel's lists do (PAGING in
 *   kernel/dialect/schemaRegistry.ts);
 * - for POST/PUT: a malformed JSON body and a truncated multipart body (no closing boundary); the two
 *   upload calls (`POST /artmanager/upload`, `POST /baas-api/chaincode/upload`) answer 400 naming it;
 * - a 64 KiB header (Node's parser: 431 in the envelope, field "");
 * - an unknown query parameter on every GET route: 400 naming it (each declares its query string).
 * Asserted: no 5xx over all of them, the refusals above in the envelope, en and zh. Runs on SQLite, and on
 * PostgreSQL when TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers';

const DB = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

interface Route {
  method: string;
  url: string;
  hasPage: boolean;
}

/** The registered routes, one per method (HEAD and OPTIONS left out: Fastify answers them itself). */
function routesOf(t: TestApp): Route[] {
  return t.app.routeTable.flatMap((r) =>
    ([] as string[])
      .concat(r.method)
      .filter((m) => m !== 'HEAD' && m !== 'OPTIONS')
      .map((method) => ({
        method,
        url: r.url,
        hasPage: Boolean((r.schema?.querystring as { properties?: { page?: unknown } })?.properties?.page),
      })),
  );
}

/** `url` with its `:params` (and a trailing `*`) set to `value`. */
const fill = (url: string, value: string) => url.replace(/:[A-Za-z_]\w*/g, value).replace(/\*$/, 'x');

const BOUNDARY = 'fuzzboundary';
/** A multipart body cut before its closing boundary: one file part `file`, half a PNG. */
const TRUNCATED_MULTIPART =
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n` +
  'Content-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n\0\0\0\rIHDR';

const UPLOADS = ['/artmanager/upload', '/baas-api/chaincode/upload'];

describe(`every registered route, hostile input (${DB})`, () => {
  let t: TestApp;
  let token = '';
  const fiveXX: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    token = t.adminToken;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  /** The status of a call any signed-in admin may make: 401 once the session has ended. */
  const check = async () =>
    (await t.app.inject({ method: 'GET', url: '/baas-api/channels', headers: { 'x-token': token } }))
      .statusCode;

  /** Sends one request with the admin's token (signing in again if a call ended the session). */
  async function send(
    method: string,
    url: string,
    opts: { body?: string; type?: string; lang?: string } = {},
  ) {
    const go = () =>
      t.app.inject({
        method: method as 'GET',
        url,
        payload: opts.body,
        headers: {
          'x-token': token,
          'accept-language': opts.lang ?? 'en',
          ...(opts.type ? { 'content-type': opts.type } : {}),
        },
      });
    let res = await go();
    // A 401 on a route for other callers (the mini-program's) is its answer; a call that ended the
    // admin's session (logout) is followed by signing in again.
    if (res.statusCode === 401 && (await check()) === 401) {
      const login = await t.app.inject({
        method: 'POST',
        url: '/dev-api/user/login',
        payload: { username: 'admin', password: ADMIN_PASSWORD },
      });
      if (login.json().code !== 0)
        throw new Error(`cannot sign in again after ${method} ${url}: ${login.body}`);
      token = login.json().data.token;
      res = await go();
    }
    if (res.statusCode >= 500) fiveXX.push(`${method} ${url} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
    return res;
  }

  it('takes its routes from the server: every route is there, the kernel lists and the hand-written calls', () => {
    const urls = routesOf(t).map((r) => `${r.method} ${r.url}`);
    expect(urls.length).toBeGreaterThan(50);
    for (const u of ['GET /baas-api/blocks', 'GET /baas-api/transactions', 'POST /artmanager/upload'])
      expect(urls).toContain(u);
  });

  const PAGES: [string, string][] = [
    ['page=1e18', 'page'],
    ['page=1e300', 'page'],
    ['page=-1', 'page'],
    ['page=1.5', 'page'],
    ['pageSize=1e9', 'pageSize'],
  ];

  it('paging out of range: 400 naming page/pageSize on every route that pages, no 5xx anywhere', async () => {
    const wrong: string[] = [];
    const paged = routesOf(t).filter((r) => r.hasPage);
    expect(paged.map((r) => r.url)).toEqual(
      expect.arrayContaining(['/baas-api/blocks', '/baas-api/transactions', '/baas-api/chaincodes']),
    );
    for (const r of routesOf(t))
      for (const [q, field] of PAGES)
        for (const lang of r.hasPage ? ['en', 'zh'] : ['en']) {
          const url = `${fill(r.url, '1')}?${q}`;
          const res = await send(r.method, url, { lang });
          if (!r.hasPage || res.statusCode === 403) continue;
          const fields = (res.json().data?.errors ?? []).map((e: { field: string }) => e.field);
          if (res.statusCode !== 400 || !fields.includes(field))
            wrong.push(`${r.method} ${url} (${lang}) -> ${res.statusCode} ${res.body.slice(0, 160)}`);
        }
    expect(wrong).toEqual([]);
    expect(fiveXX).toEqual([]);
  });

  // Item 8: every GET route validates its query string with the kernel's rules (server/routes/*: a route
  // without parameters declares NO_QUERY, kernel/server/validation.ts). Left out: the operators' probes,
  // the OpenAPI document of @fastify/swagger and the stored files (@fastify/static: no handler of ours).
  const UNCHECKED_QUERY = ['/healthz', '/readyz', '/dev-api/openapi.json', '/uploads/*'];

  it('every GET route declares its query string and refuses an unknown parameter naming it', async () => {
    const gets = t.app.routeTable.filter(
      (r) => ([] as string[]).concat(r.method).includes('GET') && !UNCHECKED_QUERY.includes(r.url),
    );
    expect(gets.filter((r) => !r.schema?.querystring).map((r) => r.url)).toEqual([]);
    const wrong: string[] = [];
    for (const r of gets) {
      const url = `${fill(r.url, '1')}?zzUnknown=1`;
      const res = await send('GET', url);
      // a call for other callers (the mini-program's, other roles) is refused before its query is read
      if (res.statusCode === 401 || res.statusCode === 403) continue;
      const fields = (res.json().data?.errors ?? []).map((e: { field: string }) => e.field);
      if (res.statusCode !== 400 || !fields.includes('zzUnknown'))
        wrong.push(`GET ${url} -> ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('hostile URL parameters and bodies: no 5xx on any route', async () => {
    for (const r of routesOf(t)) {
      if (r.url.includes(':'))
        for (const v of ['1e300', '-1', 'x', '1.5']) await send(r.method, fill(r.url, v));
      if (r.method !== 'POST' && r.method !== 'PUT') continue;
      const url = fill(r.url, '1');
      await send(r.method, url, { body: '{"a":', type: 'application/json' });
      await send(r.method, url, {
        body: TRUNCATED_MULTIPART,
        type: `multipart/form-data; boundary=${BOUNDARY}`,
      });
      await send(r.method, url, { body: TRUNCATED_MULTIPART, type: 'multipart/form-data' });
    }
    expect(fiveXX).toEqual([]);
  });

  it('a truncated or boundary-less multipart body to either upload call: 400 naming it, en and zh', async () => {
    for (const url of UPLOADS)
      for (const lang of ['en', 'zh'])
        for (const type of [`multipart/form-data; boundary=${BOUNDARY}`, 'multipart/form-data']) {
          const res = await send('POST', url, { body: TRUNCATED_MULTIPART, type, lang });
          const what = `${url} ${type} (${lang}) -> ${res.statusCode} ${res.body.slice(0, 200)}`;
          expect(res.statusCode, what).toBe(400);
          const errors = res.json().data?.errors ?? [];
          expect(errors.length, what).toBeGreaterThan(0);
          expect(
            errors.some((e: { keyword: string }) => ['multipart', 'boundary'].includes(e.keyword)),
            what,
          ).toBe(true);
          expect(res.json().msg, what).toMatch(lang === 'zh' ? /[\u4e00-\u9fff]/ : /[a-z]/i);
        }
    expect(fiveXX).toEqual([]);
  });

  it('a 64 KiB header is refused in the envelope (431, field "")', async () => {
    const other = await createTestApp();
    try {
      const address = await other.app.listen({ host: '127.0.0.1', port: 0 });
      const res = await fetch(`${address}/baas-api/blocks`, {
        headers: { 'x-token': other.adminToken, 'x-filler': 'h'.repeat(64 * 1024) },
      });
      const body = JSON.parse(await res.text());
      expect(res.status).toBe(431);
      expect(body.code).toBe(431);
      expect((body.data?.errors ?? []).some((e: { field: string }) => e.field === '')).toBe(true);
    } finally {
      await other.close();
    }
  });
});

/**
 * What a supervisor, a load balancer and a log collector ask of the server (issue 20):
 * - `GET /healthz` answers while the process is up; `GET /readyz` answers 200 with every check passing
 *   (database, migrations, signer, and the orderer role on PostgreSQL), and 503 naming the failing check
 *   and its reason when one fails (here: a migration recorded as not applied), in the asked language;
 * - `GET /metrics` (Prometheus text format) only with METRICS_TOKEN's bearer token, and absent without
 *   one; its series count what the calls did (requests by route and status, refused logins, queries) and
 *   show the ledger's height as the ledger reports it;
 * - every answer carries an `X-Request-Id`: the trusted proxy's, or a new one (an untrusted client's
 *   is not taken); and one info line per request names method, route, status, ms, id and account.
 */
import { Writable } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { ensureAccounts } from '../../server/plugins/app/auth';
import { ADMIN_PASSWORD, createTestApp, USER_PASSWORD, type TestApp } from './helpers';

const TOKEN = 'metrics-test-token';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ metricsToken: TOKEN, databasePoolMax: 3 });
});
afterAll(async () => t?.close());

/** The value of the series `name{labels}` in an exposition text (labels in the registry's order). */
function series(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

describe('health', () => {
  it('GET /healthz answers while the process is up', async () => {
    const r = await t.call({ method: 'GET', url: '/healthz', token: null });
    expect(r).toEqual({ status: 200, body: { code: 0, msg: 'success', data: { status: 'ok' } } });
  });

  it('GET /readyz passes every check, and answers 503 naming a migration that is not applied', async () => {
    const ready = await t.call({ method: 'GET', url: '/readyz', token: null });
    expect(ready.status).toBe(200);
    const names = [
      'database',
      'ledger',
      'migrations',
      'signer',
      'witnesses',
      ...(t.app.dialect === 'postgres' ? ['orderer'] : []),
    ];
    expect(Object.keys(ready.body.data.checks).sort()).toEqual(names.sort());
    for (const name of names) expect(ready.body.data.checks[name]).toEqual({ ok: true });

    const { rows } = await sql<{ name: string; timestamp: string }>`
      select name, timestamp from kysely_migration order by name desc limit 1`.execute(t.app.db);
    const last = rows[0];
    await sql`delete from kysely_migration where name = ${last.name}`.execute(t.app.db);
    try {
      const en = await t.call({ method: 'GET', url: '/readyz', token: null });
      expect(en.status).toBe(503);
      expect(en.body.code).toBe(503);
      expect(en.body.msg).toBe(`Not ready: migrations: not applied: ${last.name}`);
      expect(en.body.data.checks.database).toEqual({ ok: true });
      const zh = await t.call({
        method: 'GET',
        url: '/readyz',
        token: null,
        headers: { 'accept-language': 'zh-CN' },
      });
      expect(zh.body.msg).toBe(`未就绪：migrations: not applied: ${last.name}`);
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${last.name}, ${last.timestamp})`.execute(
        t.app.db,
      );
    }
    expect((await t.call({ method: 'GET', url: '/readyz', token: null })).status).toBe(200);
  });
});

describe('metrics', () => {
  const scrape = (auth?: string) =>
    t.app.inject({ method: 'GET', url: '/metrics', headers: auth ? { authorization: auth } : {} });

  it('refuses a scrape without the token or with another one', async () => {
    for (const auth of [undefined, `Bearer ${TOKEN}x`, TOKEN]) {
      const r = await scrape(auth);
      expect(r.statusCode).toBe(401);
      expect(r.json().code).toBe(401);
      expect(r.body).not.toContain('baas_');
    }
  });

  it('counts requests by route and status, refused logins and queries; shows the ledger height', async () => {
    const before = (await scrape(`Bearer ${TOKEN}`)).body;
    const login = 'method="POST",route="/dev-api/user/login"';
    const okBefore = series(before, 'baas_http_request_duration_seconds_count', `${login},status_code="200"`);
    expect(okBefore).toBeGreaterThanOrEqual(2); // the helper's two sign-ins
    for (let i = 0; i < 3; i++)
      await t.call({
        method: 'POST',
        url: '/dev-api/user/login',
        payload: { username: 'admin', password: 'wrong-password' },
        token: null,
      });
    const r = await scrape(`Bearer ${TOKEN}`);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = r.body;
    expect(series(text, 'baas_http_request_duration_seconds_count', `${login},status_code="200"`)).toBe(
      okBefore,
    );
    expect(series(text, 'baas_http_request_duration_seconds_count', `${login},status_code="401"`)).toBe(3);
    expect(series(text, 'baas_login_failures_total', 'route="/dev-api/user/login",status_code="401"')).toBe(
      3,
    );
    expect(
      series(text, 'baas_db_query_duration_seconds_count', `dialect="${t.app.dialect}"`),
    ).toBeGreaterThan(0);
    const totals = await t.app.ledger.totals();
    expect(series(text, 'baas_ledger_height')).toBe(totals.blocks);
    expect(series(text, 'baas_ledger_pending_transactions')).toBe(totals.pending);
    expect(series(text, 'baas_ledger_orderer')).toBe(1);
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
  });

  it('keeps PostgreSQL to DATABASE_POOL_MAX connections under concurrent calls, and says so', async () => {
    expect(loadConfig({ DATABASE_POOL_MAX: '6' }).databasePoolMax).toBe(6);
    expect(loadConfig({}).databasePoolMax).toBeUndefined();
    for (const bad of ['0', '-1', '2.5', 'many'])
      expect(() => loadConfig({ DATABASE_POOL_MAX: bad })).toThrow(/DATABASE_POOL_MAX/);
    const calls = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.call({
          method: 'POST',
          url: '/artmanager/artwork/searchArtworkList',
          payload: { page: 1 + (i % 3), pageSize: 5 },
        }),
      ),
    );
    for (const c of calls) expect(c.body.code).toBe(0);
    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    if (t.app.dialect !== 'postgres') {
      expect(series(text, 'baas_db_pool_connections', 'state="max"')).toBeUndefined();
      return;
    }
    expect(series(text, 'baas_db_pool_connections', 'state="max"')).toBe(3);
    expect(series(text, 'baas_db_pool_connections', 'state="total"')).toBeLessThanOrEqual(3);
  });
});

describe('request ids and the request log', () => {
  const lines: any[] = [];
  let app: Awaited<ReturnType<typeof buildApp>>;
  const dataDir = mkdtempSync(join(tmpdir(), 'baas-reqlog-'));

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    });
    app = await buildApp(
      {
        ...loadConfig({}),
        dataDir,
        ledgerKeyDir: dataDir, // not the repository's ./data-keys
        consoleDir: join(dataDir, 'none'),
        seed: false,
        trustProxy: '127.0.0.1',
      },
      { logger: { level: 'info', stream } },
    );
    await app.ready();
    await ensureAccounts(app.db, { admin: ADMIN_PASSWORD, user: USER_PASSWORD }, () => {});
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("takes a trusted proxy's X-Request-Id, makes one otherwise, returns it and logs one line", async () => {
    const login = await app.inject({
      method: 'POST',
      url: '/dev-api/user/login',
      payload: { username: 'admin', password: ADMIN_PASSWORD },
      headers: { 'x-request-id': 'proxy-id-1' },
    });
    expect(login.headers['x-request-id']).toBe('proxy-id-1');
    const token = login.json().data.token;
    const info = await app.inject({
      method: 'GET',
      url: '/dev-api/user/info',
      headers: { 'x-token': token },
    });
    const made = info.headers['x-request-id'] as string;
    expect(made).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // Not from a trusted proxy (another peer address), or malformed: not taken.
    const other = await app.inject({
      method: 'GET',
      url: '/healthz',
      remoteAddress: '203.0.113.9',
      headers: { 'x-request-id': 'forged-id' },
    });
    expect(other.headers['x-request-id']).not.toBe('forged-id');
    const bad = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'a b<c>' } });
    expect(bad.headers['x-request-id']).not.toBe('a b<c>');
    const missing = await app.inject({
      method: 'GET',
      url: '/no/such/call',
      headers: { 'x-request-id': 'p-2' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-request-id']).toBe('p-2');

    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests.map((l) => l.reqId)).toEqual([
      'proxy-id-1',
      made,
      other.headers['x-request-id'],
      bad.headers['x-request-id'],
      'p-2',
    ]);
    expect(requests[0]).toMatchObject({
      level: 30,
      method: 'POST',
      route: '/dev-api/user/login',
      status: 200,
    });
    expect(requests[0].account).toBeUndefined();
    expect(requests[1]).toMatchObject({
      method: 'GET',
      route: '/dev-api/user/info',
      status: 200,
      account: 'admin',
    });
    expect(requests[4]).toMatchObject({ route: '(unmatched)', status: 404, url: '/no/such/call' });
    for (const l of requests) expect(typeof l.ms).toBe('number');
    // No METRICS_TOKEN here: no /metrics on the API port.
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });
});

/**
 * Issue 8, "What it must show": the table docs/screens-and-calls.md lists every call, and this test asks
 * the server for each of them (admin token, an empty input: scripts/codegen/screens.ts `probeCall`), on
 * SQLite and, with TEST_DATABASE_URL, PostgreSQL. Each call must answer as the table says: never 404 and
 * never 5xx; the envelope's code 0, or a 400 whose `data.errors` name the input; a call the table lists
 * as MISSING or BROKEN fails here until it is built (the issue is not done while the table says so). Each
 * role too, from the table's roles column: no token 401 (unless "anyone"), role `user` 403 on admin calls,
 * a console token refused by the platform users' calls (401, code 2). And an unknown id: every getOne,
 * update and delete of every resource schema's `x-endpoints` (aliases too) answers 404 naming the id.
 */
import { readFileSync } from 'node:fs';
import { resourceSchemas, type EndpointSpec } from '../../kernel/dialect/schemaRegistry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  documentedCalls,
  isAnswering,
  PLATFORM_USER,
  probeCall,
  probeStatus,
} from '../../scripts/codegen/screens';
import { ADMIN_PASSWORD, createTestApp, USER_PASSWORD, type TestApp } from './helpers';

const doc = readFileSync(new URL('../../docs/screens-and-calls.md', import.meta.url), 'utf8');
const calls = documentedCalls(doc);

let t: TestApp;
let token = '';
let userToken = '';
beforeAll(async () => {
  t = await createTestApp({ loginRateLimit: 100_000 });
  token = t.adminToken;
  userToken = t.userToken;
});

/** `current` if it still signs in, else a fresh token of `username` (a probed logout ends a session). */
async function valid(current: string, username: string, password: string): Promise<string> {
  const info = await t.get('/dev-api/user/info', current);
  if (info.status === 200) return current;
  const login = await t.post('/dev-api/user/login', { username, password }, null);
  return login.body.data.token;
}
afterAll(() => t?.close());

describe('docs/screens-and-calls.md: the server answers every listed call', () => {
  it('lists calls (the parser reads the table)', () => {
    expect(calls.length).toBeGreaterThan(50);
  });

  it.each(calls.map((c) => [`${c.method} ${c.path}`, c] as const))('%s', async (_name, c) => {
    expect(c.status, 'the table says the call works').toSatisfy(isAnswering);
    const r = await probeCall(t.app, token, c.method, c.path);
    expect(r.status).not.toBe(404);
    expect(r.status).toBeLessThan(500);
    const platform = c.roles === PLATFORM_USER;
    if (platform) expect(r).toMatchObject({ status: 401, code: 2 });
    else if (r.json && r.code !== undefined) {
      if (r.status === 200) expect(r.code).toBe(0);
      else {
        expect(r.status).toBe(400);
        expect(r.fields.length, 'a 400 names the input').toBeGreaterThan(0);
      }
    }
    // Same answer as when the table was written (a changed call changes the table: regenerate it).
    expect(probeStatus(r, platform)).toBe(c.status);
    token = await valid(token, 'admin', ADMIN_PASSWORD);

    // Each role, as the table's roles column says: without a token 401 (unless open to anyone); with the
    // `user` role's token 403 unless the call admits it (roles naming `user`, "signed in", "anyone").
    const none = await probeCall(t.app, '', c.method, c.path);
    if (c.roles === 'anyone') expect(none.status).not.toBe(401);
    else expect(none).toMatchObject({ status: 401, code: 401 });
    const user = await probeCall(t.app, userToken, c.method, c.path);
    if (platform) expect(user).toMatchObject({ status: 401, code: 2 });
    else if (c.roles !== 'anyone' && c.roles !== 'signed in' && !c.roles.split(', ').includes('user'))
      expect(user).toMatchObject({ status: 403, code: 403 });
    else expect([401, 403, 404]).not.toContain(user.status);
    userToken = await valid(userToken, 'user', USER_PASSWORD);
  });
});

/** Every call of every resource schema's `x-endpoints` that takes one record id (aliases too). */
function idCalls(): { name: string; method: 'GET' | 'POST'; path: string; id: string }[] {
  const out: { name: string; method: 'GET' | 'POST'; path: string; id: string }[] = [];
  for (const s of resourceSchemas()) {
    const e = (s['x-endpoints'] ?? {}) as Record<string, EndpointSpec & { idFrom?: string[] }>;
    for (const verb of ['getOne', 'update', 'delete'] as const) {
      const spec = e[verb];
      if (!spec || spec.idFrom) continue;
      for (const c of [spec, ...(spec.aliases ?? [])])
        out.push({
          name: `${s['x-resource']!.name} ${verb}: ${c.method} ${c.path}`,
          method: c.method,
          path: c.path,
          id: spec.id ?? 'id',
        });
    }
  }
  return out;
}

describe('unknown id: every getOne, update and delete of every resource answers 404', () => {
  const MAX_ID = 2147483647;
  it.each(idCalls().map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const r =
      c.method === 'GET'
        ? await t.get(`${c.path}?${c.id}=${MAX_ID}`, token)
        : await t.call({ method: 'POST', url: c.path, payload: { [c.id]: MAX_ID }, token });
    expect(r.status, JSON.stringify(r.body)).toBe(404);
    expect(r.body).toMatchObject({ code: 404, data: null });
    expect(r.body.msg).toContain(String(MAX_ID));
  });
});

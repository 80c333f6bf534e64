/**
 * Issue 8, "What it must show": the table docs/screens-and-calls.md lists every call, and this test asks
 * the server for each of them (admin token, an empty input: scripts/codegen/screens.ts `probeCall`), on
 * SQLite and, with TEST_DATABASE_URL, PostgreSQL. Each call must answer as the table says: never 404 and
 * never 5xx; the envelope's code 0, or a 400 whose `data.errors` name the input; a call the table lists
 * as MISSING or BROKEN fails here until it is built (the issue is not done while the table says so).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  documentedCalls,
  isAnswering,
  PLATFORM_USER,
  probeCall,
  probeStatus,
} from '../../scripts/codegen/screens';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers';

const doc = readFileSync(new URL('../../docs/screens-and-calls.md', import.meta.url), 'utf8');
const calls = documentedCalls(doc);

let t: TestApp;
let token = '';
beforeAll(async () => {
  t = await createTestApp({ loginRateLimit: 100_000 });
  token = t.adminToken;
});
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
    // A call that ended the admin's session (logout) leaves the next one a fresh token.
    const info = await t.call({ method: 'GET', url: '/dev-api/user/info', token });
    if (info.status !== 200)
      token = (
        await t.call({
          method: 'POST',
          url: '/dev-api/user/login',
          payload: { username: 'admin', password: ADMIN_PASSWORD },
          token: null,
        })
      ).body.data.token;
  });
});

/**
 * Login and account enumeration by timing: an unknown account must cost the same password verification
 * (one scrypt run with the stored hashes' parameters) as a wrong password for an existing account.
 * Asserted structurally — the verifier is spied on — never with timed assertions (bench/loginTiming.ts
 * prints both times).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as password from '../../server/plugins/app/password';
import { createTestApp, type TestApp } from './helpers';

vi.mock('../../server/plugins/app/password', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../server/plugins/app/password')>();
  return { ...actual, verifyPassword: vi.fn(actual.verifyPassword) };
});

const verify = vi.mocked(password.verifyPassword);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ loginRateLimit: 1000 });
});
afterAll(() => t.close());
beforeEach(() => {
  verify.mockClear();
});

/** The scrypt parameters `scrypt$N$r$p` of a stored hash. */
const params = (stored: string) => stored.split('$').slice(0, 4).join('$');

const login = (username: string, pw: string) =>
  t.post('/dev-api/user/login', { username, password: pw }, null);

describe('login: one password verification whether or not the account exists', () => {
  it('a wrong password for an existing account: 401, verified once against its hash', async () => {
    const res = await login('admin', 'wrong-password');
    expect(res.status).toBe(401);
    expect(verify).toHaveBeenCalledTimes(1);
    const stored = await t.app.db
      .selectFrom('accounts')
      .select('passwordHash')
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    expect(verify.mock.calls[0]).toEqual(['wrong-password', stored.passwordHash]);
  });

  it('an unknown account: the same 401, verified once against a dummy hash of the same cost', async () => {
    const res = await login('nobody-has-this-name', 'wrong-password');
    expect(res.status).toBe(401);
    expect(res.body.msg).toBe('Incorrect username or password');
    expect(verify).toHaveBeenCalledTimes(1);
    const [, dummy] = verify.mock.calls[0];
    const stored = await t.app.db
      .selectFrom('accounts')
      .select('passwordHash')
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    expect(params(dummy)).toBe(params(stored.passwordHash));
    expect(await verify.mock.results[0].value).toBe(false);
  });
});

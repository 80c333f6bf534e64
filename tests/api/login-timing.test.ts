/**
 * Login and account enumeration by timing: an unknown account must cost the same password verification
 * (one scrypt run with the stored hashes' parameters) as a wrong password for an existing account.
 * Asserted structurally — node:crypto's scrypt is spied on, below every helper of the login — never with
 * timed assertions (bench/loginTiming.ts prints both times).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as crypto from 'node:crypto';
import { createTestApp, type TestApp } from './helpers';

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, scrypt: vi.fn(actual.scrypt) };
});

const scrypt = vi.mocked(crypto.scrypt) as unknown as ReturnType<typeof vi.fn>;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ loginRateLimit: 1000 });
});
afterAll(() => t.close());
beforeEach(() => {
  scrypt.mockClear();
});

/** The scrypt parameters `N$r$p` and the salt of a stored hash `scrypt$N$r$p$salt$key`. */
const parts = (stored: string) => {
  const [, n, r, p, salt] = stored.split('$');
  return { params: `${n}$${r}$${p}`, salt };
};

/** The parameters and salt of each scrypt run since the last mockClear. */
const runs = () =>
  scrypt.mock.calls.map(([, salt, , opts]) => {
    const o = opts as { N: number; r: number; p: number };
    return { params: `${o.N}$${o.r}$${o.p}`, salt: Buffer.from(salt as Buffer).toString('base64') };
  });

const login = (username: string, pw: string) =>
  t.post('/dev-api/user/login', { username, password: pw }, null);

const adminHash = async () =>
  (
    await t.app.db
      .selectFrom('accounts')
      .select('passwordHash')
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow()
  ).passwordHash;

describe('login: one password verification whether or not the account exists', () => {
  it('a wrong password for an existing account: 401, one scrypt run with its hash salt and cost', async () => {
    const res = await login('admin', 'wrong-password');
    expect(res.status).toBe(401);
    expect(runs()).toEqual([parts(await adminHash())]);
  });

  it('an unknown account: the same 401, one scrypt run of the same cost on another salt', async () => {
    const res = await login('nobody-has-this-name', 'wrong-password');
    expect(res.status).toBe(401);
    expect(res.body.msg).toBe('Incorrect username or password');
    const stored = parts(await adminHash());
    const done = runs();
    expect(done).toHaveLength(1);
    expect(done[0].params).toBe(stored.params);
    expect(done[0].salt).not.toBe(stored.salt);
  });
});

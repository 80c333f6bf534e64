/**
 * Bootstrap once (issue 32): `ADMIN_PASSWORD` and `USER_PASSWORD` create the accounts at the first start
 * (server/plugins/app/auth.ts `ensureAccounts`, what server.ts runs at every start), each with an audit
 * row whose actor is `system`, and are never applied again: a restart with the same environment (the
 * README's systemd EnvironmentFile) leaves a disabled account disabled, a reset password reset, and ends
 * no session; it says in one line that the variable is not applied. A password outside the account
 * schema's rule (8 to 256 characters) is refused naming the variable. On SQLite and PostgreSQL.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConfigError } from '../../server/configError';
import { disableUser, resetPassword } from '../../server/ops/admin';
import { ensureAccounts } from '../../server/plugins/app/auth';
import { ADMIN_PASSWORD, createTestApp, USER_PASSWORD, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The server's start again, with the same environment: what it printed. */
async function restart(passwords: { admin?: string; user?: string }): Promise<string[]> {
  const lines: string[] = [];
  await ensureAccounts(t.app.db, passwords, (l) => lines.push(l));
  return lines;
}

const loginCode = async (username: string, password: string) =>
  (await t.post('/dev-api/user/login', { username, password }, null)).body.code as number;

describe('bootstrap once', () => {
  it('the first start created both accounts with an audit row by system', async () => {
    const rows = await (t.app.db as Kysely<any>)
      .selectFrom('audit_log')
      .select(['account', 'call', 'resource', 'before', 'after'])
      .where('resource', '=', 'accounts')
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.account, r.call, r.before])).toEqual([
      ['system', 'first start: account admin from ADMIN_PASSWORD', null],
      ['system', 'first start: account user from USER_PASSWORD', null],
    ]);
    // `after`: the SHA-256 of the stored row (server/db/audit.ts), as for every audited write.
    expect(rows[0].after).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a restart with the same environment leaves a disabled account disabled and ends no session', async () => {
    const admin = await t.get('/dev-api/user/info');
    await disableUser(t.app.db, 'user');
    expect(await loginCode('user', USER_PASSWORD)).not.toBe(0);
    const lines = await restart({ admin: ADMIN_PASSWORD, user: USER_PASSWORD });
    expect(await loginCode('user', USER_PASSWORD)).not.toBe(0);
    expect(lines).toEqual([
      'USER_PASSWORD is set, but the account "user" exists: its password is not changed at start (npm run admin -- reset-password user)',
    ]);
    // The admin's session, opened before the restart, goes on.
    expect((await t.get('/dev-api/user/info')).body.code).toBe(admin.body.code);
  });

  it('a reset password stays reset; a new ADMIN_PASSWORD is not applied to the existing account', async () => {
    const { password } = await resetPassword(t.app.db, 'user', 'a-new-user-password');
    await restart({ admin: `${ADMIN_PASSWORD}-new`, user: USER_PASSWORD });
    expect(await loginCode('user', password)).toBe(0);
    expect(await loginCode('user', USER_PASSWORD)).not.toBe(0);
    expect(await loginCode('admin', ADMIN_PASSWORD)).toBe(0);
    expect(await loginCode('admin', `${ADMIN_PASSWORD}-new`)).not.toBe(0);
  });

  it('a password outside the account schema (8 to 256 characters) is refused, naming the variable', async () => {
    for (const [passwords, variable] of [
      [{ admin: 'x' }, 'ADMIN_PASSWORD'],
      [{ user: 'p'.repeat(300) }, 'USER_PASSWORD'],
    ] as const) {
      const err = await restart(passwords).catch((e: unknown) => e);
      expect(isConfigError(err)).toBe(true);
      expect((err as Error).message).toMatch(new RegExp(`^${variable}: 8 to 256 characters`));
    }
    expect(await loginCode('admin', ADMIN_PASSWORD)).toBe(0);
  });
});

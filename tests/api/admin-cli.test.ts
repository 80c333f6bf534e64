/**
 * The operator's account commands (`npm run admin`, server/ops/admin.ts) against a running app's
 * database, checked through the API as a user meets them: a created account signs in with its roles; a
 * reset password replaces the old one and ends the sessions; a disabled account cannot sign in and its
 * sessions end, until a reset enables it; revoke-sessions ends sessions and leaves the password. Each
 * write leaves one audit row naming the command line as the actor; refused commands change nothing.
 * The command line itself (scripts/admin.ts) runs once: list-users prints the accounts.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminError,
  createUser,
  disableUser,
  listUsers,
  resetPassword,
  revokeSessions,
} from '../../server/ops/admin';
import { commandArgs } from '../support/serverProcess';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const login = (username: string, password: string) =>
  t.call({ method: 'POST', url: '/dev-api/user/login', payload: { username, password }, token: null });
const info = (token: string) => t.call({ method: 'GET', url: '/dev-api/user/info', token });
const auditRows = (call: string) =>
  t.app.db.selectFrom('audit_log').selectAll().where('call', '=', `CLI admin ${call}`).execute();

describe('npm run admin', () => {
  it('create-user: the account signs in with its roles; audited; a taken name or unknown role is refused', async () => {
    const { id, password } = await createUser(t.app.db, { username: 'ops.alice', roles: ['user'] });
    expect(password.length).toBeGreaterThanOrEqual(8);
    const r = await login('ops.alice', password);
    expect(r.status).toBe(200);
    expect((await info(r.body.data.token)).body.data.roles).toEqual(['user']);
    const audit = await auditRows('create-user');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      resource: 'accounts',
      recordId: String(id),
      accountId: null,
      before: null,
    });
    expect(audit[0].account).toMatch(/^cli:/);

    const count = (await listUsers(t.app.db)).length;
    await expect(createUser(t.app.db, { username: 'ops.alice', roles: ['user'] })).rejects.toThrow(/taken/);
    await expect(createUser(t.app.db, { username: 'bob', roles: ['root'] })).rejects.toThrow(AdminError);
    await expect(createUser(t.app.db, { username: '1x', roles: ['user'] })).rejects.toThrow(/username/);
    expect(await listUsers(t.app.db)).toHaveLength(count);
    expect(await auditRows('create-user')).toHaveLength(1);
  });

  it("create-user and reset-password apply the account schema's rules, as the console's create call does (issue 32)", async () => {
    const count = (await listUsers(t.app.db)).length;
    const refused: [Parameters<typeof createUser>[1], RegExp][] = [
      [{ username: 'empty.name', name: '', roles: ['user'] }, /^name: /],
      [{ username: 'wide.name', name: 'W'.repeat(100), roles: ['user'] }, /^name: must be at most 40 wide/],
      [{ username: 'markup.name', name: '<b>bold</b>', roles: ['user'] }, /^name: /],
      [{ username: 'esc.name', name: 'a\u001b[31mred', roles: ['user'] }, /^name: /],
      [{ username: 'dup.roles', roles: ['admin', 'admin', 'user', 'user'] }, /^roles: /],
      [{ username: 'long.pass', roles: ['user'], password: 'p'.repeat(300) }, /^password: /],
    ];
    for (const [opts, why] of refused) {
      const err = await createUser(t.app.db, opts).catch((e: unknown) => e);
      expect(err, opts.username).toBeInstanceOf(AdminError);
      expect((err as Error).message, opts.username).toMatch(why);
    }
    expect(await listUsers(t.app.db)).toHaveLength(count);
    expect(await auditRows('create-user')).toHaveLength(1);
    await expect(resetPassword(t.app.db, 'user', 'p'.repeat(300))).rejects.toThrow(/^password: 8 to 256/);
  });

  it('reset-password and disable-user end the sessions; a disabled account cannot sign in until reset', async () => {
    await createUser(t.app.db, { username: 'ops.bob', roles: ['user'], password: 'first-password' });
    const session = (await login('ops.bob', 'first-password')).body.data.token;
    const reset = await resetPassword(t.app.db, 'ops.bob', 'second-password');
    expect(reset.sessionsEnded).toBe(1);
    expect((await info(session)).status).toBe(401);
    expect((await login('ops.bob', 'first-password')).status).toBe(401);
    const second = (await login('ops.bob', 'second-password')).body.data.token;

    expect(await disableUser(t.app.db, 'ops.bob')).toBe(1);
    expect((await info(second)).status).toBe(401);
    expect((await login('ops.bob', 'second-password')).status).toBe(401);
    expect((await listUsers(t.app.db)).find((a) => a.username === 'ops.bob')).toMatchObject({
      disabled: true,
      sessions: 0,
    });
    await expect(disableUser(t.app.db, 'ops.bob')).rejects.toThrow(/already disabled/);
    await expect(disableUser(t.app.db, 'nobody')).rejects.toThrow(/no account "nobody"/);

    await resetPassword(t.app.db, 'ops.bob', 'third-password');
    expect((await login('ops.bob', 'third-password')).status).toBe(200);
    expect((await auditRows('reset-password')).length).toBe(2);
    expect((await auditRows('disable-user')).length).toBe(1);
  });

  it('revoke-sessions ends every session and keeps the password', async () => {
    await createUser(t.app.db, { username: 'ops.carol', roles: ['admin'], password: 'carol-password' });
    const a = (await login('ops.carol', 'carol-password')).body.data.token;
    const b = (await login('ops.carol', 'carol-password')).body.data.token;
    expect(await revokeSessions(t.app.db, 'ops.carol')).toBe(2);
    expect((await info(a)).status).toBe(401);
    expect((await info(b)).status).toBe(401);
    expect((await login('ops.carol', 'carol-password')).status).toBe(200);
    const [row] = await auditRows('revoke-sessions');
    expect(row.before).toBe(row.after);
  });

  it('the command line lists the accounts and refuses an unknown command with the usage', () => {
    const env = {
      ...process.env,
      DATA_DIR: t.dataDir,
      ...(t.app.config.databaseUrl ? { DATABASE_URL: t.app.config.databaseUrl } : {}),
    };
    const out = execFileSync(process.execPath, commandArgs('admin', ['list-users']), {
      env,
      encoding: 'utf8',
    });
    expect(out.split('\n')[0]).toBe('id\tusername\tname\troles\tstatus\tsessions\tcreated');
    expect(out).toMatch(/\tadmin\tAdministrator\tadmin\tactive\t/);
    expect(out).toMatch(/\tops\.bob\tops\.bob\tuser\tactive\t/);
    let status = 0;
    let stderr = '';
    try {
      execFileSync(process.execPath, commandArgs('admin', ['drop-everything']), { env, stdio: 'pipe' });
    } catch (e) {
      status = (e as { status: number }).status;
      stderr = String((e as { stderr: Buffer }).stderr);
    }
    expect(status).toBe(2);
    expect(stderr).toContain('usage: npm run admin');
  });
});

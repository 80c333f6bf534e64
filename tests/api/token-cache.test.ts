/**
 * The role gate answers from its token cache (server/plugins/app/tokenCache.ts), and nothing a cached
 * token could still open survives a change: each case first uses the token (so it is cached), then
 * changes what its lookup would say, then calls again. On PostgreSQL (TEST_DATABASE_URL) the same holds,
 * another connection's change arriving as a notification (server/db/pgChanges.ts).
 */
import SQLite from 'better-sqlite3';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runPgStatement } from '../support/pgAdmin';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers';
import { tokenHash } from '../../server/plugins/app/auth';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
afterEach(() => vi.useRealTimers());

const signIn = async () =>
  (await t.post('/dev-api/user/login', { username: 'admin', password: ADMIN_PASSWORD }, null)).body.data
    .token as string;
const list = (token: string) => t.get('/artmanager/authors/getList', token);

/**
 * Runs `text` on another connection to the database (another process would do the same); `?` stands for
 * the one parameter, a token hash (hex, quoted as it is on PostgreSQL).
 */
async function otherConnection(text: string, hash: string) {
  if (t.app.dialect === 'postgres') {
    const pgText = text.replace('?', `'${hash}'`).replace(/\b(revokeTime|tokenHash)\b/g, '"$1"');
    return runPgStatement(t.app.config.databaseUrl!, pgText);
  }
  const db = new SQLite(join(t.dataDir, 'baas.sqlite'));
  try {
    db.prepare(text).run(hash);
  } finally {
    db.close();
  }
}

describe('the token cache', () => {
  it('a token revoked by raw SQL on the server connection is refused at the next call', async () => {
    const token = await signIn();
    expect((await list(token)).body.code).toBe(0);
    expect((await list(token)).body.code).toBe(0);
    await sql`UPDATE tokens SET "revokeTime" = '2026-01-01 00:00:00' WHERE "tokenHash" = ${tokenHash(token)}`.execute(
      t.app.db,
    );
    expect((await list(token)).body.code).toBe(2);
  });

  it('a token revoked by another connection to the database is refused at the next call', async () => {
    const token = await signIn();
    expect((await list(token)).body.code).toBe(0);
    await otherConnection(
      `UPDATE tokens SET revokeTime = '2026-01-01 00:00:00' WHERE tokenHash = ?`,
      tokenHash(token),
    );
    expect((await list(token)).body.code).toBe(2);
  });

  it('roles withdrawn by another connection take effect at the next call', async () => {
    const token = await signIn();
    expect((await list(token)).status).toBe(200);
    await otherConnection(`UPDATE tokens SET roles = '["user"]' WHERE tokenHash = ?`, tokenHash(token));
    const after = await list(token);
    expect(after.status).toBe(403);
    expect(after.body.code).toBe(403);
  });

  it('a token is refused once it expires, cached or not', async () => {
    const token = await signIn();
    expect((await list(token)).body.code).toBe(0);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (t.app.config.tokenTtlHours + 1) * 3600_000);
    expect((await list(token)).body.code).toBe(2);
  });

  it('an account deleted by raw SQL on the server connection loses its tokens at the next call', async () => {
    const created = await t.call({
      method: 'POST',
      url: '/dev-api/user/add',
      payload: {
        username: 'cachecheck',
        password: 'cache-check-pass-1',
        roles: ['user'],
        name: 'Cache check',
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const login = await t.post(
      '/dev-api/user/login',
      { username: 'cachecheck', password: 'cache-check-pass-1' },
      null,
    );
    const token = login.body.data.token as string;
    expect((await t.get('/dev-api/user/info', token)).body.code).toBe(0);
    await sql`DELETE FROM tokens WHERE "accountId" = ${created.body.data.id}`.execute(t.app.db);
    await sql`DELETE FROM accounts WHERE id = ${created.body.data.id}`.execute(t.app.db);
    expect((await t.get('/dev-api/user/info', token)).body.code).toBe(2);
  });
});

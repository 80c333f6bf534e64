/**
 * Audit > System: every write through the API adds an audit row (account, time, call, resource, id,
 * SHA-256 of the stored row before and after) in the write's own transaction; a refused write adds none;
 * a write whose audit row cannot be written is rolled back. `GET /dev-api/audit/list|detail`: admin only,
 * paged and filtered. Runs on PostgreSQL too (TEST_DATABASE_URL, see helpers.ts).
 */
import { createHash } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../common/ledger/canonical';
import type { Database } from '../../server/db/database';
import { createTestApp, expectAdminOnly, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ loginRateLimit: 10_000 });
});
afterAll(() => t.close());

/** A stored audit row (table `audit_log`). */
type AuditRow = Selectable<Database['audit_log']>;

const db = () => t.app.db as any;
const auditCount = async () =>
  Number(
    (
      await db()
        .selectFrom('audit_log')
        .select(sql`count(*)`.as('n'))
        .executeTakeFirst()
    ).n,
  );
const lastAudit = async (): Promise<AuditRow> =>
  db().selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
const row = async (table: string, id: number) =>
  db().selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
/** The digest of a stored row as the audit trail keeps it: every column but the kernel's `revision`. */
const sha = (r: Record<string, unknown> | undefined) => {
  const { revision: _revision, ...values } = r ?? {};
  return createHash('sha256').update(canonicalJson(values)).digest('hex');
};

describe('audit rows of the kernel writes', () => {
  it('a create, an update and a delete each add one row with the digests of the stored row', async () => {
    const n0 = await auditCount();
    const created = await t.post('/artmanager/authors/addAuthors', { authorName: 'Audited author' });
    const id = created.body.data.id as number;
    const afterCreate = await row('authors', id);
    let a = await lastAudit();
    expect(a).toMatchObject({
      account: 'admin',
      call: 'POST /artmanager/authors/addAuthors',
      resource: 'authors',
      recordId: String(id),
      before: null,
      after: sha(afterCreate),
    });
    expect(a.accountId).toEqual(expect.any(Number));
    expect(a.time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    await t.post('/artmanager/authors/updateInfo', { id, introduction: 'Changed' });
    const afterUpdate = await row('authors', id);
    a = await lastAudit();
    expect(a).toMatchObject({
      call: 'POST /artmanager/authors/updateInfo',
      recordId: String(id),
      before: sha(afterCreate),
      after: sha(afterUpdate),
    });
    expect(a.before).not.toBe(a.after);

    await t.post('/artmanager/authors/deleteAuthors', { id });
    a = await lastAudit();
    expect(a).toMatchObject({
      call: 'POST /artmanager/authors/deleteAuthors',
      before: sha(afterUpdate),
      after: null,
    });
    expect(await auditCount()).toBe(n0 + 3);
  });

  it('a delete of several records adds one row per record', async () => {
    const ids: number[] = [];
    for (const name of ['One', 'Two'])
      ids.push((await t.post('/artmanager/authors/addAuthors', { authorName: name })).body.data.id);
    const n0 = await auditCount();
    await t.post('/artmanager/authors/deleteAuthors', { ids });
    expect(await auditCount()).toBe(n0 + 2);
  });

  it('account writes are audited, a password change shows in the digests', async () => {
    const add = await t.post('/dev-api/user/add', {
      username: 'audited1',
      password: 'first password',
      roles: ['user'],
      name: 'Audited',
    });
    const id = add.body.data.id as number;
    expect(await lastAudit()).toMatchObject({ call: 'POST /dev-api/user/add', resource: 'accounts' });
    const token = (
      await t.post('/dev-api/user/login', { username: 'audited1', password: 'first password' }, null)
    ).body.data.token;
    const before = await row('accounts', id);
    await t.call({
      method: 'POST',
      url: '/dev-api/user/password',
      payload: { oldPassword: 'first password', newPassword: 'second password' },
      token,
    });
    const a = await lastAudit();
    expect(a).toMatchObject({
      account: 'audited1',
      accountId: id,
      call: 'POST /dev-api/user/password',
      resource: 'accounts',
      recordId: String(id),
      before: sha(before),
      after: sha(await row('accounts', id)),
    });
    expect(a.before).not.toBe(a.after);
    await t.post('/dev-api/user/addAuth', { id, role: 'admin' });
    expect(await lastAudit()).toMatchObject({ call: 'POST /dev-api/user/addAuth', recordId: String(id) });
    await t.post('/dev-api/user/delAuth', { id, role: 'admin' });
    expect(await lastAudit()).toMatchObject({ call: 'POST /dev-api/user/delAuth', recordId: String(id) });
  });
});

describe('audit rows of the hand-written writes', () => {
  it('put on chain: one row when the block marks the author on chain, none when repeated unchanged', async () => {
    const id = (await t.post('/artmanager/authors/addAuthors', { authorName: 'Chained' })).body.data
      .id as number;
    const before = await row('authors', id);
    const n0 = await auditCount();
    const res = await t.post('/artmanager/authors/blockChain', { id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await auditCount()).toBe(n0 + 1);
    expect(await lastAudit()).toMatchObject({
      account: 'admin',
      call: 'POST /artmanager/authors/blockChain',
      resource: 'authors',
      recordId: String(id),
      before: sha(before),
      after: sha(await row('authors', id)),
    });
    const again = await t.post('/artmanager/authors/blockChain', { id });
    expect(again.body.data.repeated).toBe(true);
    expect(await auditCount()).toBe(n0 + 1);
  });
});

describe('no audit row for a refused write', () => {
  it.each([
    ['invalid input (400)', { authorName: '' }, undefined],
    ['role user (403)', { authorName: 'By a user' }, 'user'],
    ['no token (401)', { authorName: 'By nobody' }, null],
  ])('%s', async (_name, payload, who) => {
    const n0 = await auditCount();
    const token = who === 'user' ? t.userToken : who === null ? null : undefined;
    const res = await t.post('/artmanager/authors/addAuthors', payload, token);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await auditCount()).toBe(n0);
  });

  it('unknown id (404) and the last admin (409)', async () => {
    const n0 = await auditCount();
    expect((await t.post('/artmanager/authors/updateInfo', { id: 999999, introduction: 'x' })).status).toBe(
      404,
    );
    const admin = await db()
      .selectFrom('accounts')
      .select('id')
      .where('username', '=', 'admin')
      .executeTakeFirst();
    expect((await t.post('/dev-api/user/delete', { id: admin.id })).status).toBe(409);
    expect(await auditCount()).toBe(n0);
  });
});

describe('the audit row and the write are one transaction', () => {
  it('a write whose audit row fails is rolled back, and answers an error', async () => {
    const pg = t.app.dialect === 'postgres';
    // A database rule refusing audit rows of one call: the write before it in the transaction must go too.
    if (pg) {
      await sql`create function refuse_audit() returns trigger language plpgsql as $$
        begin if new."call" = 'POST /artmanager/authors/updateInfo' then raise exception 'audit refused'; end if;
        return new; end $$`.execute(t.app.db);
      await sql`create trigger refuse_audit before insert on audit_log for each row execute function refuse_audit()`.execute(
        t.app.db,
      );
    } else
      await sql`create trigger refuse_audit before insert on audit_log
        when new."call" = 'POST /artmanager/authors/updateInfo'
        begin select raise(abort, 'audit refused'); end`.execute(t.app.db);
    try {
      const created = await t.post('/artmanager/authors/addAuthors', { authorName: 'Kept as created' });
      const id = created.body.data.id as number;
      const n0 = await auditCount();
      const res = await t.post('/artmanager/authors/updateInfo', { id, authorName: 'Never stored' });
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect((await row('authors', id)).authorName).toBe('Kept as created');
      expect(await auditCount()).toBe(n0);
    } finally {
      await sql`drop trigger refuse_audit${pg ? sql` on audit_log` : sql``}`.execute(t.app.db);
      if (pg) await sql`drop function refuse_audit()`.execute(t.app.db);
    }
  });
});

describe('GET /dev-api/audit/list and detail', () => {
  it('pages and filters the entries, newest first by time', async () => {
    for (const name of ['P1', 'P2', 'P3'])
      await t.post('/artmanager/authors/addAuthors', { authorName: name });
    const page = await t.get('/dev-api/audit/list?resource=authors&page=1&pageSize=2&sort=id&order=DESC');
    expect(page.status).toBe(200);
    expect(page.body.data.list).toHaveLength(2);
    expect(page.body.data.total).toBeGreaterThanOrEqual(3);
    for (const e of page.body.data.list) expect(e.resource).toBe('authors');
    const [first, second] = page.body.data.list as AuditRow[];
    expect(first.id).toBeGreaterThan(second.id);
    const byAccount = await t.get('/dev-api/audit/list?account=nobody');
    expect(byAccount.body.data.total).toBe(0);
    const q = await t.get('/dev-api/audit/list?q=addAuthors&pageSize=100');
    expect(q.body.data.list.every((e: AuditRow) => e.call.includes('addAuthors'))).toBe(true);
    const one = await t.get(`/dev-api/audit/detail?id=${first.id}`);
    expect(one.body.data).toEqual(first);
    const missing = await t.get('/dev-api/audit/detail?id=999999');
    expect(missing.status).toBe(404);
  });

  it('refuses an unknown filter or sort, naming it', async () => {
    const res = await t.get('/dev-api/audit/list?before=x');
    expect(res.status).toBe(400);
    expect(res.body.data.errors[0].field).toBe('before');
  });

  it('is for admins only, and has no write calls', async () => {
    await expectAdminOnly(t, { method: 'GET', url: () => '/dev-api/audit/list' });
    await expectAdminOnly(t, { method: 'GET', url: () => '/dev-api/audit/detail?id=1' });
    const write = await t.post('/dev-api/audit/add', {});
    expect(write.status).toBe(404);
  });
});

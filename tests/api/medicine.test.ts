/**
 * Medicine beyond the company CRUD (tests/api/company.test.ts): the company's administrators as console
 * accounts of role `company` (created or linked with the company, disabled with their slot), the
 * company's pictures (JPG/PNG only) and video (video files only) uploads, notifications (draft → sent →
 * read; admin only) and the Messages inbox (`/medicine-api/message/*`, role company), and the company's
 * history from the audit trail (Medicine > Tracking). Each call: success, invalid input, each role
 * (none, user, company, admin), unknown id. Runs on SQLite, or on PostgreSQL with TEST_DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import type { AuditEntry } from '../../common/generated/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usccCheckCharacter } from '../../kernel/dialect/keywords';
import { type TestApp, createTestApp } from './helpers';

let t: TestApp;
const code = (first17: string) => first17 + usccCheckCharacter(first17);
const COMPANY = '/medicine-api/company';
const NOTE = '/medicine-api/notification';
const MSG = '/medicine-api/message';

/** A company body whose administrators are `a.<tag>` and `b.<tag>` (new accounts, initial passwords). */
const company = (tag: string, first17: string, over: Record<string, unknown> = {}) => ({
  companyName: `示例制药${tag}有限公司`,
  creditCode: code(first17),
  licenseNo: `京2015${tag}`,
  totalEmployees: 320,
  product: '阿莫西林胶囊 0.25 g',
  adminAccount: `a.${tag}`,
  adminName: '赵敏',
  adminEmail: `a.${tag}@example.com`,
  adminPhone: '13812345678',
  adminPassword: `pass-a-${tag}`,
  backupAdminAccount: `b.${tag}`,
  backupAdminName: '钱进',
  backupAdminEmail: `b.${tag}@example.com`,
  backupAdminPhone: '010-12345678',
  backupAdminPassword: `pass-b-${tag}`,
  ...over,
});

async function login(username: string, password: string) {
  return t.post('/dev-api/user/login', { username, password }, null);
}
async function tokenOf(username: string, password: string): Promise<string> {
  const r = await login(username, password);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.token;
}
const accountsNamed = async (username: string) =>
  (await t.get(`/dev-api/user/list?q=${username}&pageSize=100`)).body.data.list.filter(
    (a: any) => a.username === username,
  );

/** A multipart/form-data body with one file part `file`. */
function multipart(bytes: Buffer, filename: string) {
  const boundary = `b${randomBytes(8).toString('hex')}`;
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  };
}
const png = () =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(56)]);
const jpg = () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(60)]);
const gif = () => Buffer.concat([Buffer.from('GIF89a'), randomBytes(58)]);
const mp4 = () => Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), randomBytes(52)]);
const upload = (field: string, bytes: Buffer, filename: string) =>
  t.call({
    method: 'POST',
    url: `/artmanager/upload?resource=companies&field=${field}`,
    ...multipart(bytes, filename),
  });

let first: any;
let aToken: string;
let bToken: string;

beforeAll(async () => {
  t = await createTestApp();
  const r = await t.post(`${COMPANY}/addCompany`, company('one', '91110105MA01ABCD1'));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  first = r.body.data;
  aToken = await tokenOf('a.one', 'pass-a-one');
  bToken = await tokenOf('b.one', 'pass-b-one');
});
afterAll(() => t?.close());

/** POST notification/add of a sent notification (`title`, `content`) to the first company. */
const sendNote = (title: string, content: string) =>
  t.post(`${NOTE}/add`, { companyId: first.id, title, content, status: 'sent' });

describe('the company record', () => {
  it('stores employees, product, contract, pictures and video, never answers the passwords', async () => {
    expect(first).toMatchObject({
      totalEmployees: 320,
      product: '阿莫西林胶囊 0.25 g',
      contractId: null,
      images: [],
      video: null,
      adminName: '赵敏',
      adminNotify: 1,
      adminStatus: 1,
      backupAdminStatus: 1,
    });
    expect(first).not.toHaveProperty('adminPassword');
    expect(first).not.toHaveProperty('backupAdminPassword');
    const pic = await upload('images', png(), 'a.png');
    const vid = await upload('video', mp4(), 'a.mp4');
    expect([pic.status, vid.status]).toEqual([200, 200]);
    // The smart contract: a contract made from the shipped drug supply template (contractId references it).
    const templates = await t.get('/medicine-api/smContract/templateList?pageSize=100');
    const templateId = templates.body.data.list.find(
      (x: { name: string }) => x.name === 'Drug supply agreement',
    ).id;
    const contract = await t.call({
      method: 'POST',
      url: '/data-api/contract/add',
      payload: {
        name: '华北制药供货合同',
        templateId,
        params: { supplier: '华北制药', drugName: '阿莫西林胶囊', quantity: 1200, unitPrice: 12.5 },
      },
    });
    expect(contract.status, JSON.stringify(contract.body)).toBe(200);
    const contractId = contract.body.data.id;
    const unknown = await t.post(`${COMPANY}/updateCompany`, { id: first.id, contractId: 999999 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.data.errors[0].field).toBe('contractId');
    const r = await t.post(`${COMPANY}/updateCompany`, {
      id: first.id,
      images: [pic.body.data.url],
      video: vid.body.data.url,
      contractId,
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      images: [pic.body.data.url],
      video: vid.body.data.url,
      contractId,
    });
  });

  it.each([
    ['a GIF as a picture (JPG/PNG only)', 'images', gif, 'a.gif'],
    ['a PNG as the video', 'video', png, 'a.png'],
  ])('refuses %s by content, naming file', async (_what, field, make, name) => {
    const r = await upload(field, make(), name);
    expect(r.status).toBe(400);
    expect(r.body.data.errors[0]).toMatchObject({ field: 'file', keyword: 'fileType' });
  });

  it('takes a JPEG picture', async () => {
    const r = await upload('images', jpg(), 'a.jpg');
    expect(r.status).toBe(200);
    expect(r.body.data.type).toBe('image/jpeg');
  });

  it.each([
    ['a negative staff count', { totalEmployees: -1 }, 'totalEmployees', 'minimum'],
    ['a bad administrator email', { adminEmail: 'not-mail' }, 'adminEmail', 'format'],
    ['a bad backup phone', { backupAdminPhone: '12345' }, 'backupAdminPhone', 'pattern'],
    ['no administrator name', { adminName: undefined }, 'adminName', 'required'],
    ['a notify flag of 2', { adminNotify: 2 }, 'adminNotify', 'enum'],
    ['a short initial password', { adminPassword: 'short' }, 'adminPassword', 'minLength'],
    ['ten pictures', { images: Array(10).fill('/uploads/a.png') }, 'images', 'maxItems'],
  ])('refuses %s with 400 naming the field', async (_what, over, field, keyword) => {
    const r = await t.post(`${COMPANY}/addCompany`, company('bad', '91440300MA5G1H2J3', over));
    expect(r.status).toBe(400);
    expect(r.body.data.errors).toEqual([expect.objectContaining({ field, keyword })]);
    expect(await accountsNamed('a.bad')).toEqual([]);
  });
});

describe('administrators are console accounts of role company', () => {
  it('creates both accounts with role company; they sign in and see their company', async () => {
    for (const [username, name] of [
      ['a.one', '赵敏'],
      ['b.one', '钱进'],
    ]) {
      const [acc] = await accountsNamed(username);
      expect(acc).toMatchObject({ username, name, roles: ['company'] });
    }
    const info = await t.get('/dev-api/user/info', aToken);
    expect(info.body.data.roles).toEqual(['company']);
    const mine = await t.get(`${MSG}/company`, bToken);
    expect(mine.body.data.list.map((c: any) => c.id)).toEqual([first.id]);
    // Their role opens no operator call.
    const list = await t.get(`${COMPANY}/getList`, aToken);
    expect(list.status).toBe(403);
  });

  it('refuses a new account without its initial password (400 naming it), storing nothing', async () => {
    const r = await t.post(
      `${COMPANY}/addCompany`,
      company('two', '91310115MA1K4P7Q2', { backupAdminPassword: undefined }),
    );
    expect(r.status).toBe(400);
    expect(r.body.data.errors).toEqual([
      expect.objectContaining({ field: 'backupAdminPassword', keyword: 'required' }),
    ]);
    // The administrator account made before the refusal is rolled back with the company.
    expect(await accountsNamed('a.two')).toEqual([]);
    const codes = (await t.get(`${COMPANY}/getList?pageSize=100`)).body.data.list.map(
      (c: any) => c.creditCode,
    );
    expect(codes).not.toContain(code('91310115MA1K4P7Q2'));
  });

  it('links an existing account (granting company) and refuses a password for it', async () => {
    const withPassword = await t.post(
      `${COMPANY}/addCompany`,
      company('three', '91510100MA6C5D6E7', { adminAccount: 'user', adminPassword: 'whatever-1' }),
    );
    expect(withPassword.status).toBe(400);
    expect(withPassword.body.data.errors[0]).toMatchObject({
      field: 'adminPassword',
      keyword: 'accountExists',
    });
    const r = await t.post(
      `${COMPANY}/addCompany`,
      company('three', '91510100MA6C5D6E7', { adminAccount: 'user', adminPassword: undefined }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const [user] = await accountsNamed('user');
    expect(user.roles).toEqual(['user', 'company']);
    expect(user.name).not.toBe('赵敏'); // an operator's own name is kept
  });

  it('refuses an account that administers another company (409 naming the field)', async () => {
    const r = await t.call({
      method: 'POST',
      url: `${COMPANY}/addCompany`,
      payload: company('four', '91440101MA59R3T4U', {
        backupAdminAccount: 'A.ONE',
        backupAdminPassword: undefined,
      }),
    });
    expect(r.status).toBe(409);
    expect(r.body.data.errors[0]).toMatchObject({
      field: 'backupAdminAccount',
      keyword: 'companyAdmin',
      params: { companyId: first.id },
    });
  });

  it('a disabled administrator loses its sessions and cannot sign in until enabled again', async () => {
    const c = (await t.post(`${COMPANY}/addCompany`, company('five', '91120116MA05T1U2W'))).body.data;
    const token = await tokenOf('a.five', 'pass-a-five');
    const off = await t.post(`${COMPANY}/updateCompany`, { id: c.id, adminStatus: 0 });
    expect(off.status).toBe(200);
    expect((await t.get('/dev-api/user/info', token)).status).toBe(401);
    const refused = await login('a.five', 'pass-a-five');
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toMatch(/disabled/);
    // The backup administrator is not concerned.
    expect((await login('b.five', 'pass-b-five')).status).toBe(200);
    await t.post(`${COMPANY}/updateCompany`, { id: c.id, adminStatus: 1 });
    expect((await login('a.five', 'pass-a-five')).status).toBe(200);
  });

  it('a changed administrator name follows to its account', async () => {
    await t.post(`${COMPANY}/updateCompany`, { id: first.id, adminName: '孙丽' });
    expect((await accountsNamed('a.one'))[0].name).toBe('孙丽');
  });
});

describe('notifications (operator) and messages (company administrators)', () => {
  let note: any;

  it('guards every notification call: 401 without token, 403 for user and company', async () => {
    const calls = [
      { method: 'GET' as const, url: `${NOTE}/getList` },
      { method: 'GET' as const, url: `${NOTE}/getInfo?id=1` },
      {
        method: 'POST' as const,
        url: `${NOTE}/add`,
        payload: { companyId: first.id, title: 'x', content: 'y' },
      },
      { method: 'POST' as const, url: `${NOTE}/update`, payload: { id: 1, title: 'x' } },
      { method: 'POST' as const, url: `${NOTE}/delete`, payload: { id: 1 } },
    ];
    for (const c of calls) {
      expect((await t.call({ ...c, token: null })).status, c.url).toBe(401);
      expect((await t.call({ ...c, token: t.userToken })).status, c.url).toBe(403);
      expect((await t.call({ ...c, token: aToken })).status, c.url).toBe(403);
    }
    expect((await t.get(`${NOTE}/getList`)).body.data.total).toBe(0);
  });

  it('guards the inbox: 401 without token, 403 for role user', async () => {
    for (const c of [
      { method: 'GET' as const, url: `${MSG}/getList` },
      { method: 'GET' as const, url: `${MSG}/unreadCount` },
      { method: 'GET' as const, url: `${MSG}/company` },
      { method: 'POST' as const, url: `${MSG}/read`, payload: { id: 1 } },
    ]) {
      expect((await t.call({ ...c, token: null })).status, c.url).toBe(401);
      expect((await t.call({ ...c, token: t.userToken })).status, c.url).toBe(403);
    }
  });

  it('stores a draft, which no administrator sees', async () => {
    const r = await t.call({
      method: 'POST',
      url: `${NOTE}/add`,
      payload: {
        companyId: first.id,
        title: ' 年度 GMP 检查通知 ',
        content: '请于 12 月 1 日前提交自查报告。',
      },
    });
    expect(r.status).toBe(200);
    note = r.body.data;
    expect(note).toMatchObject({
      title: '年度 GMP 检查通知',
      status: 'draft',
      sent: 0,
      recipients: [],
      sendTime: null,
      companyName: first.companyName,
    });
    const inbox = await t.get(`${MSG}/getList`, aToken);
    expect(inbox.body.data).toEqual({ list: [], total: 0 });
  });

  it.each([
    ['an unknown company', { companyId: 999999 }, 400, 'companyId', 'reference'],
    ['no title', { title: undefined }, 400, 'title', 'required'],
    ['a status of read', { status: 'read' }, 400, 'status', 'readByRecipient'],
    ['a status the schema lacks', { status: 'archived' }, 400, 'status', 'enum'],
    ['recipients (read-only)', { recipients: ['x'] }, 400, 'recipients', 'false schema'],
  ])('refuses %s', async (_what, over, status, field, keyword) => {
    const r = await t.post(`${NOTE}/add`, { companyId: first.id, title: 't', content: 'c', ...over });
    expect(r.status).toBe(status);
    expect(r.body.data.errors).toEqual([expect.objectContaining({ field, keyword })]);
  });

  it('sends to the enabled administrators who are notified; the inbox and unread count show it', async () => {
    await t.post(`${COMPANY}/updateCompany`, { id: first.id, backupAdminNotify: 0 });
    const r = await t.post(`${NOTE}/update`, { id: note.id, status: 'sent' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ status: 'sent', sent: 1, recipients: ['a.one'] });
    expect(r.body.data.sendTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const count = await t.get(`${MSG}/unreadCount`, aToken);
    expect(count.body.data).toEqual({ count: 1 });
    const inbox = await t.get(`${MSG}/getList`, aToken);
    expect(inbox.body.data.total).toBe(1);
    expect(inbox.body.data.list[0]).toMatchObject({
      id: note.id,
      title: '年度 GMP 检查通知',
      status: 'sent',
    });
    // The backup administrator does not receive notifications.
    expect((await t.get(`${MSG}/unreadCount`, bToken)).body.data).toEqual({
      count: 0,
    });
    // Permission > Notifications: the ones sent to accounts.
    const sent = await t.get(`${NOTE}/getList?sent=1`);
    expect(sent.body.data.list.map((n: any) => n.id)).toEqual([note.id]);
  });

  it('refuses to change or delete a sent notification, and to send where nobody receives', async () => {
    const edit = await t.post(`${NOTE}/update`, { id: note.id, title: '改' });
    expect(edit.status).toBe(400);
    expect(edit.body.data.errors[0]).toMatchObject({ field: 'title', keyword: 'sentFrozen' });
    const del = await t.post(`${NOTE}/delete`, { id: note.id });
    expect(del.status).toBe(409);
    expect(del.body.data.errors[0]).toMatchObject({ field: 'id', keyword: 'sentFrozen' });
    await t.post(`${COMPANY}/updateCompany`, { id: first.id, adminNotify: 0 });
    const nobody = await sendNote('t', 'c');
    expect(nobody.status).toBe(400);
    expect(nobody.body.data.errors[0]).toMatchObject({ field: 'status', keyword: 'recipients' });
    await t.post(`${COMPANY}/updateCompany`, { id: first.id, adminNotify: 1 });
  });

  it('the recipient reads it (audited); others cannot; unknown ids answer 404', async () => {
    const other = await t.post(`${MSG}/read`, { id: note.id }, bToken);
    expect(other.status).toBe(404);
    const unknown = await t.post(`${MSG}/read`, { id: 999999 }, aToken);
    expect(unknown.status).toBe(404);
    expect(unknown.body.msg).toMatch(/999999/);
    const bad = await t.post(`${MSG}/read`, { id: 'x' }, aToken);
    expect(bad.status).toBe(400);
    expect(bad.body.data.errors[0].field).toBe('id');
    const badQuery = await t.get(`${MSG}/getList?status=draft`, aToken);
    expect(badQuery.status).toBe(400);
    expect(badQuery.body.data.errors[0].field).toBe('status');
    const r = await t.post(`${MSG}/read`, { id: note.id }, aToken);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ status: 'read', readBy: 'a.one' });
    expect((await t.get(`${MSG}/unreadCount`, aToken)).body.data.count).toBe(0);
    const stored = await t.get(`${NOTE}/getInfo?id=${note.id}`);
    // Its only recipient read it: the notification is read.
    expect(stored.body.data).toMatchObject({ status: 'read', readBy: 'a.one', readers: ['a.one'] });
    const audit = await t.get(
      `/dev-api/audit/list?resource=notifications&recordId=${note.id}&sort=id&order=ASC`,
    );
    expect(audit.body.data.list.map((e: any) => [e.account, e.call])).toEqual([
      ['admin', 'POST /medicine-api/notification/add'],
      ['admin', 'POST /medicine-api/notification/update'],
      ['a.one', 'POST /medicine-api/message/read'],
    ]);
    // Reading it again answers it unchanged.
    const again = await t.post(`${MSG}/read`, { id: note.id }, aToken);
    expect(again.body.data.readTime).toBe(r.body.data.readTime);
  });

  it('each recipient has its own read state: one reading leaves it unread for the other', async () => {
    const unread = async (token: string) =>
      (await t.get(`${MSG}/unreadCount`, token)).body.data.count as number;
    const inboxOf = async (token: string, status?: string) =>
      (await t.call({ method: 'GET', url: `${MSG}/getList${status ? `?status=${status}` : ''}`, token })).body
        .data;
    await t.post(`${COMPANY}/updateCompany`, { id: first.id, backupAdminNotify: 1 });
    const sent = await sendNote('两位管理员都收到', '请阅读');
    expect(sent.status).toBe(200);
    const both = sent.body.data;
    expect(both.recipients).toEqual(['a.one', 'b.one']);
    const [aBefore, bBefore] = [await unread(aToken), await unread(bToken)];
    expect(bBefore).toBeGreaterThanOrEqual(1);
    const aRead = await t.post(`${MSG}/read`, { id: both.id }, aToken);
    expect(aRead.body.data).toMatchObject({ status: 'read', readBy: 'a.one' });
    expect(await unread(aToken)).toBe(aBefore - 1);
    // The backup administrator has not read it: still unread in its inbox, with no reader or time.
    expect(await unread(bToken)).toBe(bBefore);
    const bInbox = await inboxOf(bToken, 'sent');
    expect(bInbox.list.find((n: any) => n.id === both.id)).toMatchObject({
      status: 'sent',
      readBy: null,
      readTime: null,
    });
    expect((await inboxOf(aToken, 'read')).list.map((n: any) => n.id)).toContain(both.id);
    expect((await inboxOf(aToken, 'sent')).list.map((n: any) => n.id)).not.toContain(both.id);
    // The operator sees who read it; it is read only once every recipient has.
    const half = (await t.get(`${NOTE}/getInfo?id=${both.id}`)).body.data;
    expect(half).toMatchObject({ status: 'sent', readers: ['a.one'], readBy: 'a.one' });
    const bRead = await t.post(`${MSG}/read`, { id: both.id }, bToken);
    expect(bRead.body.data).toMatchObject({ status: 'read', readBy: 'b.one' });
    expect(await unread(bToken)).toBe(bBefore - 1);
    const all = (await t.get(`${NOTE}/getInfo?id=${both.id}`)).body.data;
    // The first reader and time stay; every field the reads did not name is unchanged.
    expect(all).toEqual({
      ...half,
      status: 'read',
      readers: ['a.one', 'b.one'],
      updateTime: all.updateTime,
      // The second read is one more write of the row.
      revision: half.revision + 1,
    });
  });

  it('two recipients reading at the same moment are both kept', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await sendNote(`同时阅读 ${i}`, '并发');
      ids.push(r.body.data.id);
    }
    await Promise.all(
      ids.flatMap((id) =>
        [aToken, bToken].map((token) =>
          t.call({ method: 'POST', url: `${MSG}/read`, payload: { id }, token }),
        ),
      ),
    );
    for (const id of ids) {
      const n = (await t.get(`${NOTE}/getInfo?id=${id}`)).body.data;
      expect([...n.readers].sort(), `notification ${id}`).toEqual(['a.one', 'b.one']);
      expect(n.status).toBe('read');
    }
  });

  it('answers 404 for an unknown notification id', async () => {
    const r = await t.get(`${NOTE}/getInfo?id=999999`);
    expect(r.status).toBe(404);
  });

  it('a company with notifications cannot be deleted (restrict)', async () => {
    const r = await t.post(`${COMPANY}/deleteCompany`, { id: first.id });
    expect(r.status).toBe(409);
  });
});

describe('tracking: the history of a company from the audit trail', () => {
  it('lists who changed the company, its notifications and its accounts, newest first', async () => {
    const r = await t.get(`${COMPANY}/tracking?id=${first.id}&pageSize=100`);
    expect(r.status).toBe(200);
    const entries = r.body.data.list as Required<AuditEntry>[];
    expect(r.body.data.total).toBe(entries.length);
    const seen = entries.map((e) => `${e.resource} ${e.call} ${e.account}`);
    // The create wrote the company and its two new accounts (in one transaction): the oldest three.
    expect(seen.slice(-3).sort()).toEqual([
      'accounts POST /medicine-api/company/addCompany admin',
      'accounts POST /medicine-api/company/addCompany admin',
      'companies POST /medicine-api/company/addCompany admin',
    ]);
    expect(seen).toContain('notifications POST /medicine-api/message/read a.one');
    expect(seen).toContain('companies POST /medicine-api/company/updateCompany admin');
    // What changed: the column names of an update; none for a create.
    const rename = entries.find((e) => e.resource === 'accounts' && e.call.endsWith('updateCompany'));
    expect(rename?.changed).toEqual(['name']);
    // The oldest read: the sole recipient reading the first notification, which made it read.
    const read = entries.filter((e) => e.call === 'POST /medicine-api/message/read').at(-1);
    // (updateTime too, unless the send and the read fell in the same second)
    expect(read?.changed.filter((c: string) => c !== 'updateTime')).toEqual([
      'readBy',
      'readTime',
      'readers',
      'status',
    ]);
    expect(entries.at(-1)?.changed).toEqual([]);
    const ids = entries.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    // Another company's writes are not in it.
    expect(entries.every((e) => e.resource !== 'companies' || e.recordId === String(first.id))).toBe(true);
    const page = await t.get(`${COMPANY}/tracking?id=${first.id}&pageSize=2&page=2`);
    expect(page.body.data.list.map((e: AuditEntry) => e.id)).toEqual(ids.slice(2, 4));
  });

  it('answers 404 for an unknown company, 400 without an id, and guards the roles', async () => {
    const missing = await t.get(`${COMPANY}/tracking?id=999999`);
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toMatch(/999999/);
    const bad = await t.get(`${COMPANY}/tracking`);
    expect(bad.status).toBe(400);
    expect(bad.body.data.errors[0].field).toBe('id');
    const url = `${COMPANY}/tracking?id=${first.id}`;
    expect((await t.call({ method: 'GET', url, token: null })).status).toBe(401);
    expect((await t.call({ method: 'GET', url, token: t.userToken })).status).toBe(403);
    expect((await t.call({ method: 'GET', url, token: aToken })).status).toBe(403);
  });
});

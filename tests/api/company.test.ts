/**
 * Every `/medicine-api/company` call: success, invalid input (wrong check character of the Unified Social
 * Credit Code, identical admin accounts, bad phone, unknown and read-only fields), missing token (401),
 * role user (403), unknown id (404), a duplicate credit code (409); and that a refused call leaves what is
 * stored as it was. Runs on SQLite, or on PostgreSQL with TEST_DATABASE_URL (see helpers.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usccCheckCharacter } from '../../kernel/dialect/keywords';
import { fieldLabel } from '../../common/messages/index';
import { type GuardedCall, type TestApp, callName, createTestApp, expectAdminOnly } from './helpers';

let t: TestApp;

/** A synthetic, well-formed credit code: 17 given characters plus their GB 32100-2015 check character. */
const code = (first17: string) => first17 + usccCheckCharacter(first17);

const BASE = '/medicine-api/company';
/**
 * A valid company body; its administrators' account names derive from the credit code (an account is the
 * administrator of one company only), and the accounts are created with the initial passwords.
 */
const valid = (over: Record<string, unknown> = {}) => {
  const tag = String(over.creditCode ?? code('91110105MA01ABCD1'))
    .slice(8, 17)
    .toLowerCase();
  return {
    companyName: '北京示例制药有限公司',
    creditCode: code('91110105MA01ABCD1'),
    licenseNo: '京20150001',
    address: '北京市朝阳区示例路 1 号',
    contactName: '王芳',
    contactPhone: '13812345678',
    adminAccount: `adm.${tag}`,
    adminName: '赵敏',
    adminPassword: 'initial-pass-1',
    backupAdminAccount: `ops.${tag}`,
    backupAdminName: '钱进',
    backupAdminPassword: 'initial-pass-2',
    ...over,
  };
};

/** Everything stored, as the list call answers it (to compare before and after a refused call). */
async function stored() {
  const r = await t.get(`${BASE}/getList?pageSize=100&sort=id&order=ASC`);
  expect(r.status).toBe(200);
  return r.body.data;
}

let firstId: number;

beforeAll(async () => {
  t = await createTestApp();
  const r = await t.post(`${BASE}/addCompany`, valid());
  expect(r.status).toBe(200);
  firstId = r.body.data.id;
});
afterAll(() => t?.close());

const CALLS: GuardedCall[] = [
  { method: 'GET', url: () => `${BASE}/getList` },
  { method: 'GET', url: () => `${BASE}/getInfo?id=${firstId}` },
  {
    method: 'POST',
    url: () => `${BASE}/addCompany`,
    payload: () => valid({ creditCode: code('91440300MA5G1H2J3') }),
  },
  { method: 'POST', url: () => `${BASE}/updateCompany`, payload: () => ({ id: firstId, status: 0 }) },
  { method: 'POST', url: () => `${BASE}/deleteCompany`, payload: () => ({ id: firstId }) },
];

describe('roles are enforced by the server', () => {
  it.each(CALLS.map((c) => [callName(c), c] as const))(
    '%s: 401 without token, 403 for role user, nothing changed',
    async (_name, c) => {
      const before = await stored();
      await expectAdminOnly(t, c);
      expect(await stored()).toEqual(before);
    },
  );
});

describe('addCompany', () => {
  it('stores a company and answers it with id, status 1 and times', async () => {
    const r = await t.post(
      `${BASE}/addCompany`,
      valid({
        companyName: '  上海示例医药有限公司 ',
        creditCode: code('91310115MA1K4P7Q2'),
        contactPhone: '021-12345678-801',
        address: null,
      }),
    );
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(0);
    expect(r.body.data).toMatchObject({
      companyName: '上海示例医药有限公司',
      creditCode: code('91310115MA1K4P7Q2'),
      contactPhone: '021-12345678-801',
      address: null,
      status: 1,
    });
    expect(r.body.data.createTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const one = await t.get(`${BASE}/getInfo?id=${r.body.data.id}`);
    expect(one.body.data).toEqual(r.body.data);
  });

  it.each([
    [
      'a wrong check character',
      {
        creditCode:
          code('91440300MA5G1H2J3').slice(0, 17) + (code('91440300MA5G1H2J3')[17] === 'A' ? 'B' : 'A'),
      },
      'creditCode',
      'x-uscc',
    ],
    ['a code of 17 characters', { creditCode: '91440300MA5G1H2J3' }, 'creditCode', 'pattern'],
    ['a code with the letter O', { creditCode: '9144030OMA5G1H2J3K' }, 'creditCode', 'pattern'],
    [
      'identical admin accounts',
      { adminAccount: 'admin.shili', backupAdminAccount: 'Admin.Shili' },
      'backupAdminAccount',
      'x-distinct',
    ],
    ['a phone that is not Chinese', { contactPhone: '+1 4155550100' }, 'contactPhone', 'pattern'],
    ['a name with markup', { companyName: '<b>示例</b>' }, 'companyName', 'x-plainText'],
    ['a name wider than 60', { companyName: '药'.repeat(31) }, 'companyName', 'x-maxWidth'],
    ['no licence number', { licenseNo: undefined }, 'licenseNo', 'required'],
    ['a status of 2', { status: 2 }, 'status', 'enum'],
    ['a read-only createTime', { createTime: '2020-01-01 00:00:00' }, 'createTime', 'false schema'],
    ['an unknown field', { legalPerson: 'x' }, 'legalPerson', 'additionalProperties'],
  ])('refuses %s with 400 naming the field, storing nothing', async (_what, over, field, keyword) => {
    const before = await stored();
    const r = await t.post(`${BASE}/addCompany`, valid({ creditCode: code('91440300MA5G1H2J3'), ...over }));
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(400);
    expect(r.body.data.errors).toEqual([expect.objectContaining({ field, keyword })]);
    expect(r.body.msg).toContain(`${fieldLabel('en', field, 'company')}:`);
    expect(await stored()).toEqual(before);
  });

  it('tells the expected check character', async () => {
    const good = code('91440300MA5G1H2J3');
    const r = await t.post(
      `${BASE}/addCompany`,
      valid({ creditCode: `${good.slice(0, 17)}${good[17] === '0' ? '1' : '0'}` }),
    );
    expect(r.body.data.errors[0].params).toEqual({
      expected: good[17],
      actual: good[17] === '0' ? '1' : '0',
    });
  });

  it('refuses a credit code another company holds with 409 naming creditCode, storing nothing', async () => {
    const before = await stored();
    const r = await t.post(`${BASE}/addCompany`, valid({ companyName: '另一家公司' }));
    expect(r.status).toBe(409);
    expect(r.body.code).toBe(409);
    expect(r.body.msg).toContain(`${fieldLabel('en', 'creditCode', 'company')}:`);
    expect(r.body.data.errors).toEqual([expect.objectContaining({ field: 'creditCode', keyword: 'unique' })]);
    expect(await stored()).toEqual(before);
  });
  it('stores one of two concurrent adds with the same code and refuses the other with 409', async () => {
    const payload = valid({ companyName: '并发登记', creditCode: code('91500000MA5U7W8X9') });
    const results = await Promise.all([
      t.post(`${BASE}/addCompany`, payload),
      t.post(`${BASE}/addCompany`, payload),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const list = (await stored()).list.filter((c: any) => c.creditCode === payload.creditCode);
    expect(list).toHaveLength(1);
    await t.post(`${BASE}/deleteCompany`, { id: list[0].id });
  });
});

describe('getList and getInfo', () => {
  it('lists with paging, free text over name, code and licence, filter and sort', async () => {
    const page = await t.get(`${BASE}/getList?page=1&pageSize=1&sort=id&order=ASC`);
    expect(page.body.data.list).toHaveLength(1);
    expect(page.body.data.list[0].id).toBe(firstId);
    expect(page.body.data.total).toBeGreaterThanOrEqual(2);
    const q = await t.get(`${BASE}/getList?q=${encodeURIComponent('上海')}`);
    expect(q.body.data.list.map((c: any) => c.companyName)).toEqual(['上海示例医药有限公司']);
    const byCode = await t.get(`${BASE}/getList?q=ma01abcd`);
    expect(byCode.body.data.list.map((c: any) => c.id)).toEqual([firstId]);
    const enabled = await t.get(`${BASE}/getList?status=1`);
    expect(enabled.body.data.total).toBe(page.body.data.total);
    const disabled = await t.get(`${BASE}/getList?status=0`);
    expect(disabled.body.data.total).toBe(0);
    const ids = await t.get(`${BASE}/getList?ids=${firstId}`);
    expect(ids.body.data.list.map((c: any) => c.id)).toEqual([firstId]);
  });

  it.each([
    ['an unknown parameter', 'legalPerson=x', 'legalPerson'],
    ['an unsortable field', 'sort=adminAccount', 'sort'],
    ['pageSize over 100', 'pageSize=101', 'pageSize'],
  ])('refuses %s with 400', async (_what, query, field) => {
    const r = await t.get(`${BASE}/getList?${query}`);
    expect(r.status).toBe(400);
    expect(r.body.data.errors[0].field).toBe(field);
  });

  it('answers 404 for an unknown id and 400 for a missing or non-numeric one', async () => {
    const missing = await t.get(`${BASE}/getInfo?id=999999`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 404, data: null });
    expect(missing.body.msg).toMatch(/999999/);
    expect((await t.get(`${BASE}/getInfo`)).status).toBe(400);
    expect((await t.get(`${BASE}/getInfo?id=abc`)).status).toBe(400);
  });
});

describe('updateCompany', () => {
  it('changes only the fields sent and moves updateTime', async () => {
    const before = (await t.get(`${BASE}/getInfo?id=${firstId}`)).body.data;
    const r = await t.post(`${BASE}/updateCompany`, { id: firstId, status: 0, contactName: ' 李雷 ' });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      ...before,
      status: 0,
      contactName: '李雷',
      updateTime: r.body.data.updateTime,
      revision: before.revision + 1,
    });
    await t.post(`${BASE}/updateCompany`, { id: firstId, status: 1 });
  });

  it('refuses an admin account equal to the stored backup one (partial update), storing nothing', async () => {
    const before = await stored();
    const r = await t.post(`${BASE}/updateCompany`, { id: firstId, adminAccount: 'OPS.ma01abcd1' });
    expect(r.status).toBe(400);
    expect(r.body.data.errors).toEqual([
      expect.objectContaining({ field: 'adminAccount', keyword: 'x-distinct' }),
    ]);
    expect(await stored()).toEqual(before);
  });

  it("refuses identical accounts in one body, a wrong check character and another company's code", async () => {
    const before = await stored();
    const other = before.list.find((c: any) => c.id !== firstId);
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ adminAccount: 'same.one', backupAdminAccount: 'same.one' }, 400, 'backupAdminAccount', 'x-distinct'],
      [{ creditCode: `${code('91110105MA01ABCD1').slice(0, 17)}Y` }, 400, 'creditCode', 'x-uscc'],
      [{ creditCode: other.creditCode, companyName: '改名' }, 409, 'creditCode', 'unique'],
      [{ updateTime: '2020-01-01 00:00:00' }, 400, 'updateTime', 'false schema'],
    ];
    for (const [body, status, field, keyword] of cases) {
      const r = await t.post(`${BASE}/updateCompany`, { id: firstId, ...body });
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.data.errors).toEqual([expect.objectContaining({ field, keyword })]);
    }
    expect(await stored()).toEqual(before);
  });

  it('answers 404 for an unknown id and 400 without one', async () => {
    const r = await t.post(`${BASE}/updateCompany`, { id: 999999, status: 0 });
    expect(r.status).toBe(404);
    expect((await t.post(`${BASE}/updateCompany`, { status: 0 })).status).toBe(400);
  });
});

describe('deleteCompany', () => {
  it('deletes nothing when one of the ids is unknown (404), then deletes one and many', async () => {
    const a = await t.post(
      `${BASE}/addCompany`,
      valid({ companyName: '待删除一', creditCode: code('91120116MA05T1U2W') }),
    );
    const b = await t.post(
      `${BASE}/addCompany`,
      valid({ companyName: '待删除二', creditCode: code('91120116MA05T1U2X') }),
    );
    const before = await stored();
    const refused = await t.post(`${BASE}/deleteCompany`, { ids: [a.body.data.id, 999999] });
    expect(refused.status).toBe(404);
    expect(refused.body.msg).toMatch(/999999/);
    expect(await stored()).toEqual(before);
    const bad = await t.post(`${BASE}/deleteCompany`, { id: 'x' });
    expect(bad.status).toBe(400);
    const one = await t.post(`${BASE}/deleteCompany`, { id: a.body.data.id });
    expect(one.body.data).toEqual({ ids: [a.body.data.id] });
    const many = await t.post(`${BASE}/deleteCompany`, { ids: [b.body.data.id] });
    expect(many.body.data).toEqual({ ids: [b.body.data.id] });
    const gone = await t.get(`${BASE}/getInfo?id=${b.body.data.id}`);
    expect(gone.status).toBe(404);
    // The code is free again once its company is deleted; its administrators' accounts stay, and the
    // new company links them (no password: they have their own).
    const again = await t.post(
      `${BASE}/addCompany`,
      valid({
        companyName: '重新登记',
        creditCode: code('91120116MA05T1U2W'),
        adminPassword: undefined,
        backupAdminPassword: undefined,
      }),
    );
    expect(again.status).toBe(200);
  });

  it('answers the 404 envelope for an unknown call under /medicine-api', async () => {
    const r = await t.get(`${BASE}/nope`);
    expect(r.status).toBe(404);
    expect(r.body.code).toBe(404);
  });
});

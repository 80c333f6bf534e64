/**
 * Issue 8, smart contracts and Data: every call of the smart-contract templates
 * (`/medicine-api/smContract/*`), the contracts (`/data-api/contract/*`, `/medicine-api/smContract/add`),
 * the pigeonhole (`/data-api/pigeonhole/*`), the chains info (`GET /baas-api/chains`) and the chaincode
 * lifecycle's roles: success, invalid input (a parameter refused by the template's own JSON Schema, named
 * in English and Chinese), each role (none, user, admin), unknown id; and that archive + restore round-trips
 * every stored column. Runs on SQLite, or on PostgreSQL with TEST_DATABASE_URL (see helpers.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHIPPED_TEMPLATES } from '../../server/db/migrations/20261123T0215_contract_templates_seed';
import { storedRow } from '../../server/db/audit';
import { type TestApp, addArtwork, addAuthor, createTestApp } from './helpers';

let t: TestApp;
let supplyId: number;

const T = '/medicine-api/smContract';
const C = '/data-api/contract';
const P = '/data-api/pigeonhole';

const supply = (over: Record<string, unknown> = {}) => ({
  supplier: '华北制药',
  drugName: '阿莫西林胶囊',
  quantity: 1200,
  unitPrice: 12.5,
  ...over,
});

const get = (url: string, token?: string | null) => t.call({ method: 'GET', url, token });
const post = (url: string, payload: unknown, token?: string | null, lang?: string) =>
  t.call({
    method: 'POST',
    url,
    payload: payload as Record<string, unknown>,
    token,
    headers: lang ? { 'accept-language': lang } : {},
  });

beforeAll(async () => {
  t = await createTestApp();
  const list = (await get(`${T}/templateList?pageSize=100&sort=id&order=ASC`)).body.data.list;
  supplyId = list.find((x: { name: string }) => x.name === 'Drug supply agreement').id;
});
afterAll(() => t?.close());

describe('smart-contract templates', () => {
  it('ships the standard templates, each valid under its own schema (read by user and admin)', async () => {
    for (const token of [t.adminToken, t.userToken]) {
      const r = await get(`${T}/templateList?pageSize=100`, token);
      expect(r.status).toBe(200);
      expect(r.body.data.list.map((x: { name: string }) => x.name).sort()).toEqual(
        SHIPPED_TEMPLATES.map((x) => x.name).sort(),
      );
    }
    const one = await get(`${T}/templateInfo?id=${supplyId}`, t.userToken);
    expect(one.body.data.paramsSchema.properties.quantity).toMatchObject({ type: 'integer', minimum: 1 });
    expect((await get(`${T}/templateInfo?id=999999`)).status).toBe(404);
    expect((await get(`${T}/templateList`, null)).status).toBe(401);
  });

  it('writes are admin only: 401 without token, 403 for user', async () => {
    const body = {
      name: 'Lease',
      chaincode: 'lease',
      paramsSchema: {
        type: 'object',
        properties: { months: { type: 'integer', minimum: 1, 'x-i18n': { en: 'Months', zh: '月数' } } },
        additionalProperties: false,
      },
    };
    expect((await post(`${T}/addTemplate`, body, null)).status).toBe(401);
    const user = await post(`${T}/addTemplate`, body, t.userToken);
    expect(user.status).toBe(403);
    expect(user.body.msg).toMatch(/admin/);
    expect((await post(`${T}/updateTemplate`, { id: supplyId, status: 0 }, t.userToken)).status).toBe(403);
    expect((await post(`${T}/deleteTemplate`, { id: supplyId }, t.userToken)).status).toBe(403);
    const made = await post(`${T}/addTemplate`, body);
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ name: 'Lease', status: 1, version: '1.0' });
    expect(
      (await post(`${T}/updateTemplate`, { id: made.body.data.id, description: 'Rent' })).body.data
        .description,
    ).toBe('Rent');
    expect((await post(`${T}/deleteTemplate`, { id: made.body.data.id })).status).toBe(200);
    expect((await post(`${T}/updateTemplate`, { id: 999999, description: 'x' })).status).toBe(404);
  });

  it('refuses a parameter schema outside the restricted draft-07 shape, naming the field', async () => {
    const base = { name: 'Bad', chaincode: 'bad' };
    const cases: [unknown, string][] = [
      [
        {
          type: 'object',
          properties: { a: { type: 'array', 'x-i18n': { en: 'A', zh: '甲' } } },
          additionalProperties: false,
        },
        'paramsSchema.properties.a.type',
      ],
      [
        { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
        'paramsSchema.properties.a.x-i18n',
      ],
      [
        {
          type: 'object',
          properties: { a: { type: 'string', 'x-i18n': { en: 'A', zh: '甲' } } },
          additionalProperties: true,
        },
        'paramsSchema.additionalProperties',
      ],
      [
        {
          type: 'object',
          properties: { a: { type: 'string', minimum: 3, 'x-i18n': { en: 'A', zh: '甲' } } },
          additionalProperties: false,
        },
        'paramsSchema.properties.a',
      ],
      [
        {
          type: 'object',
          properties: { a: { type: 'integer', minimum: 5, maximum: 1, 'x-i18n': { en: 'A', zh: '甲' } } },
          additionalProperties: false,
        },
        'paramsSchema.properties.a',
      ],
      [
        {
          type: 'object',
          properties: { a: { type: 'integer', default: 'x', 'x-i18n': { en: 'A', zh: '甲' } } },
          additionalProperties: false,
        },
        'paramsSchema.properties.a',
      ],
      [
        {
          type: 'object',
          properties: { a: { type: 'string', 'x-i18n': { en: 'A', zh: '甲' } } },
          required: ['b'],
          additionalProperties: false,
        },
        'paramsSchema.required',
      ],
    ];
    for (const [paramsSchema, field] of cases) {
      const r = await post(`${T}/addTemplate`, { ...base, paramsSchema });
      expect(r.status, JSON.stringify(paramsSchema)).toBe(400);
      expect(
        r.body.data.errors.map((e: { field: string }) => e.field),
        JSON.stringify(paramsSchema),
      ).toContain(field);
    }
    expect((await get(`${T}/templateList?q=Bad`)).body.data.total).toBe(0);
  });
});

describe('contracts from a template', () => {
  it('creates a contract whose params pass the template schema, defaults filled (user and admin, both paths)', async () => {
    const r = await post(
      `${C}/add`,
      { name: 'Q3 supply', templateId: supplyId, params: supply() },
      t.userToken,
    );
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      name: 'Q3 supply',
      templateId: supplyId,
      templateName: 'Drug supply agreement',
      status: 'draft',
      params: { ...supply(), deliveryDays: 30, coldChain: false },
    });
    const product = await post(`${T}/add`, {
      name: 'Q4 supply',
      templateId: supplyId,
      params: supply({ coldChain: true }),
    });
    expect(product.status).toBe(200);
    expect(product.body.data.params.coldChain).toBe(true);
    const list = await get(`${C}/list?templateId=${supplyId}`, t.userToken);
    expect(list.body.data.total).toBeGreaterThanOrEqual(2);
    const ofTemplate = await get(`${T}/contractsOfTemplate?id=${supplyId}`, t.userToken);
    expect(ofTemplate.body.data.total).toBe(list.body.data.total);
    expect((await get(`${C}/detail?id=${r.body.data.id}`, null)).status).toBe(401);
    expect((await get(`${C}/detail?id=999999`, t.userToken)).status).toBe(404);
  });

  it('refuses a parameter the template schema refuses, naming it by its label in English and Chinese', async () => {
    const before = (await get(`${C}/list?pageSize=100`)).body.data.total;
    const r = await post(
      `${C}/add`,
      { name: 'Too many', templateId: supplyId, params: supply({ quantity: 0 }) },
      t.userToken,
      'en',
    );
    expect(r.status).toBe(400);
    expect(r.body.data.errors).toEqual([
      expect.objectContaining({
        field: 'params.quantity',
        keyword: 'minimum',
        params: expect.objectContaining({ limit: 1 }),
        label: { en: 'Quantity (boxes)', zh: '数量（盒）' },
      }),
    ]);
    expect(r.body.msg).toContain('params.quantity ("Quantity (boxes)")');
    const zh = await post(
      `${C}/add`,
      { name: 'x', templateId: supplyId, params: supply({ quantity: 0 }) },
      t.userToken,
      'zh-CN',
    );
    expect(zh.body.msg).toContain('数量（盒）：');
    const cases: [Record<string, unknown>, string, string][] = [
      [supply({ supplier: undefined }), 'params.supplier', 'required'],
      [supply({ unitPrice: 0 }), 'params.unitPrice', 'exclusiveMinimum'],
      [supply({ quantity: 1.5 }), 'params.quantity', 'type'],
      [supply({ color: 'red' }), 'params.color', 'additionalProperties'],
      [supply({ drugName: 'a\u0000b' }), 'params.drugName', 'x-text'],
    ];
    for (const [params, field, keyword] of cases) {
      const e = await post(`${C}/add`, { name: 'x', templateId: supplyId, params });
      expect(e.status, field).toBe(400);
      expect(e.body.data.errors[0], field).toMatchObject({ field, keyword });
    }
    const noTemplate = await post(`${C}/add`, { name: 'x', templateId: 999999, params: {} });
    expect(noTemplate.status).toBe(400);
    expect(noTemplate.body.data.errors[0]).toMatchObject({ field: 'templateId', keyword: 'reference' });
    expect((await post(`${C}/add`, { name: 'x', params: supply() })).body.data.errors[0].field).toBe(
      'templateId',
    );
    expect((await get(`${C}/list?pageSize=100`)).body.data.total).toBe(before);
  });

  it('an update is checked against the template too, and a refused one changes nothing', async () => {
    const made = (await post(`${C}/add`, { name: 'Upd', templateId: supplyId, params: supply() })).body.data;
    const bad = await post(`${C}/update`, { id: made.id, params: supply({ quantity: -3 }) }, t.userToken);
    expect(bad.status).toBe(400);
    expect(bad.body.data.errors[0].field).toBe('params.quantity');
    const cold = (await get(`${T}/templateList?q=Cold-chain`)).body.data.list[0];
    // Moving to another template re-checks the stored params against that template: refused.
    const moved = await post(`${C}/update`, { id: made.id, templateId: cold.id });
    expect(moved.status).toBe(400);
    expect(moved.body.data.errors.map((e: { field: string }) => e.field)).toContain('params.warehouse');
    expect((await get(`${C}/detail?id=${made.id}`)).body.data).toEqual(made);
    const ok = await post(`${C}/update`, { id: made.id, status: 'active', params: supply({ quantity: 7 }) });
    expect(ok.body.data).toMatchObject({ status: 'active', params: { quantity: 7 } });
    expect((await post(`${C}/update`, { id: 999999, status: 'active' })).status).toBe(404);
  });

  it('a template in use cannot be deleted (409)', async () => {
    const r = await post(`${T}/deleteTemplate`, { id: supplyId });
    expect(r.status).toBe(409);
  });
});

describe('pigeonhole: archive and restore', () => {
  it('round-trips every stored column of a contract, in the audit trail, for user and admin', async () => {
    const made = (
      await post(`${C}/add`, { name: 'Keep me', templateId: supplyId, params: supply() }, t.userToken)
    ).body.data;
    const db = t.app.db as never;
    const before = await storedRow(db, 'contracts', made.id);
    const a = await post(`${P}/archive`, { resource: 'contracts', id: made.id }, t.userToken);
    expect(a.status).toBe(200);
    expect(a.body.data).toMatchObject({
      resource: 'contracts',
      recordId: made.id,
      title: 'Keep me',
      archivedBy: 'user',
    });
    expect(a.body.data.record).toEqual(before);
    expect((await get(`${C}/detail?id=${made.id}`)).status).toBe(404);
    const listed = await get(`${P}/list?resource=contracts`, t.userToken);
    expect(listed.body.data.list.map((x: { id: number }) => x.id)).toContain(a.body.data.id);
    const r = await post(`${P}/restore`, { id: a.body.data.id }, t.userToken);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual((await get(`${C}/detail?id=${made.id}`)).body.data);
    expect(await storedRow(db, 'contracts', made.id)).toEqual(before);
    expect((await get(`${P}/detail?id=${a.body.data.id}`)).status).toBe(404);
    const audit = (await get(`/dev-api/audit/list?recordId=${made.id}&resource=contracts&pageSize=100`)).body
      .data.list;
    expect(audit.map((e: { call: string }) => e.call)).toEqual(
      expect.arrayContaining(['POST /data-api/pigeonhole/archive', 'POST /data-api/pigeonhole/restore']),
    );
  });

  it('round-trips an artwork taken off the registry (every column, searchable again); artworks need admin', async () => {
    const author = await addAuthor(t, '吴冠中');
    const artId = await addArtwork(t, author, '双燕图', {
      texture: 'Ink and colour on paper',
      images: ['https://example.org/swallows.jpg'],
      baseInfo: { size: '70 x 140 cm', startYear: 1981, endYear: 1981 },
    });
    const db = t.app.db as never;
    const before = await storedRow(db, 'artworks', artId);
    const user = await post(`${P}/archive`, { resource: 'artworks', id: artId }, t.userToken);
    expect(user.status).toBe(403);
    const a = await post(`${P}/archive`, { resource: 'artworks', id: artId });
    expect(a.status).toBe(200);
    expect((await post('/artmanager/artwork/searchArtworkList', { q: '双燕图' })).body.data.total).toBe(0);
    // A contract archived beside it: role user may read that one.
    const kept = (
      await post(`${C}/add`, { name: 'Archived beside', templateId: supplyId, params: supply() }, t.userToken)
    ).body.data;
    const c = (await post(`${P}/archive`, { resource: 'contracts', id: kept.id }, t.userToken)).body.data;
    // The archived row is admin's to read too: role user neither lists nor reads it. Without a `resource`
    // filter, user lists the archived records of every resource it may read (here: contracts), admin all.
    const adminList = (await get(`${P}/list?pageSize=100`)).body.data.list.map((x: { id: number }) => x.id);
    expect(adminList).toEqual(expect.arrayContaining([a.body.data.id, c.id]));
    const contracts = (await get(`${P}/list?pageSize=100&resource=contracts`)).body.data;
    const userList = await get(`${P}/list?pageSize=100`, t.userToken);
    expect(userList.status).toBe(200);
    expect(userList.body.data.total).toBe(contracts.total);
    expect(userList.body.data.list.map((x: { id: number }) => x.id)).toEqual(
      contracts.list.map((x: { id: number }) => x.id),
    );
    expect(userList.body.data.list.map((x: { id: number }) => x.id)).toContain(c.id);
    expect((await get(`${P}/detail?id=${c.id}`, t.userToken)).status).toBe(200);
    const history = `/dev-api/history/revisions?resource=archivedRecords&id=`;
    expect((await get(`${history}${c.id}`, t.userToken)).status).toBe(200);
    expect((await get(`${history}${a.body.data.id}`, t.userToken)).status).toBe(404);
    expect((await get(`${P}/list?ids=${a.body.data.id}`, t.userToken)).body.data.list).toEqual([]);
    expect((await get(`${P}/list?resource=artworks`, t.userToken)).status).toBe(403);
    expect((await get(`${P}/detail?id=${a.body.data.id}`, t.userToken)).status).toBe(404);
    expect((await get(`${P}/detail?id=${a.body.data.id}`)).status).toBe(200);
    // The author has no work left: it could be deleted now; restoring then must refuse, changing nothing.
    expect((await post(`${P}/restore`, { id: a.body.data.id }, t.userToken)).status).toBe(403);
    const r = await post(`${P}/restore`, { id: a.body.data.id });
    expect(r.status).toBe(200);
    expect(await storedRow(db, 'artworks', artId)).toEqual(before);
    expect((await post('/artmanager/artwork/searchArtworkList', { q: '双燕图' })).body.data.total).toBe(1);
  });

  it('refuses what it cannot do whole: unknown ids, wrong resource, a referenced record, a missing reference', async () => {
    expect((await post(`${P}/archive`, { resource: 'contracts', id: 999999 })).status).toBe(404);
    expect((await post(`${P}/restore`, { id: 999999 })).status).toBe(404);
    const wrong = await post(`${P}/archive`, { resource: 'authors', id: 1 });
    expect(wrong.status).toBe(400);
    expect(wrong.body.data.errors[0].field).toBe('resource');
    expect((await post(`${P}/archive`, { resource: 'contracts' })).body.data.errors[0].field).toBe('id');
    expect((await post(`${P}/archive`, { resource: 'contracts', id: 1 }, null)).status).toBe(401);
    // A restore whose reference is gone: the author of an archived artwork deleted meanwhile.
    const author = await addAuthor(t, '林风眠');
    const artId = await addArtwork(t, author, '仕女', {
      texture: 'Ink on paper',
      images: ['https://example.org/lady.jpg'],
      baseInfo: { size: '66 x 66 cm', startYear: 1950, endYear: 1950 },
    });
    const a = (await post(`${P}/archive`, { resource: 'artworks', id: artId })).body.data;
    expect((await post('/artmanager/authors/deleteAuthors', { id: author })).status).toBe(200);
    const r = await post(`${P}/restore`, { id: a.id }, undefined, 'zh-CN');
    expect(r.status).toBe(409);
    expect(r.body.msg).toContain('已不存在');
    expect((await get(`${P}/detail?id=${a.id}`)).body.data.record.id).toBe(artId);
  });
});

describe('chains info and the chaincode roles', () => {
  it('GET /baas-api/chains answers the running network from configuration and ledger state', async () => {
    expect((await get('/baas-api/chains', null)).status).toBe(401);
    const r = await get('/baas-api/chains', t.userToken);
    expect(r.status).toBe(200);
    const [chain] = r.body.data.list;
    const totals = (await get('/baas-api/dashboard', t.userToken)).body.data;
    expect(chain).toMatchObject({
      name: 'baas-admin',
      consensus: process.env.TEST_DATABASE_URL ? 'leader-election' : 'solo',
      ordererCount: 1,
      tls: false,
      channels: totals.channels,
      blocks: totals.blocks,
    });
    expect(chain.peerOrgs).toContain('baas-admin');
    expect(chain.peerCount).toBeGreaterThanOrEqual(1);
    expect(['running', 'syncing']).toContain(chain.status);
    expect((await get('/baas-api/chains?x=1')).status).toBe(400);
  });

  it('user uploads (installs) chaincode; approve and commit are admin only', async () => {
    const GO = 'package main\n\nfunc main() {}\n';
    const boundary = '----roles' + Math.random().toString(16).slice(2);
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nroles\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="version"\r\n\r\n1.0\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="roles.go"\r\nContent-Type: text/plain\r\n\r\n${GO}\r\n--${boundary}--\r\n`,
      ),
    ]);
    const upload = (token: string | null) =>
      t.call({
        method: 'POST',
        url: '/baas-api/chaincode/upload',
        payload: body,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        token,
      });
    expect((await upload(null)).status).toBe(401);
    const up = await upload(t.userToken);
    expect(up.status).toBe(200);
    expect(up.body.data).toMatchObject({ status: 'installed', createdBy: 'user' });
    const id = up.body.data.id;
    for (const step of ['approve', 'commit']) {
      const refused = await post(`/baas-api/chaincode/${step}`, { id }, t.userToken);
      expect(refused.status, step).toBe(403);
      expect(refused.body.msg).toMatch(/admin/);
      expect((await post(`/baas-api/chaincode/${step}`, { id }, null)).status).toBe(401);
    }
    expect((await get(`/baas-api/chaincode?id=${id}`, t.userToken)).body.data.status).toBe('installed');
    expect((await post('/baas-api/chaincode/approve', { id })).body.data.status).toBe('approved');
    expect((await post('/baas-api/chaincode/commit', { id })).body.data.status).toBe('committed');
    expect((await post('/baas-api/chaincode/approve', { id: 999999 })).status).toBe(404);
  });
});

/**
 * Every type of the schema dialect end to end (issue 18 item 2), through a resource added by one schema
 * file: tests/fixtures/everything.schema.json (`specimen`: one field of each type and keyword: string
 * with pattern and the formats date, date-time, email, uri; bounded integer and number with multipleOf;
 * booleans with and without a default, nullable; string and integer enums with labels; arrays of strings,
 * numbers, booleans, objects and JSON values (items of several types); a nested object holding a value of
 * no type; a reference; an upload; nullable fields and defaults). A copy of
 * the repository gets the schema, codegen runs there, and the real server runs on the copy, on SQLite or,
 * with `TEST_DATABASE_URL`, on PostgreSQL. For each type:
 * create → getOne round-trips the value exactly; an update of one field leaves every other unchanged;
 * list filters (equality, ranges for numbers and dates, booleans, enums, references) and sort agree with
 * the stored records; delete; an invalid value is refused with 400 naming the field, in English and in
 * Chinese, and changes nothing; the OpenAPI document validates; the generated validators carry no
 * format library. The same copy holds tests/fixtures/treatment.schema.json, whose tests (the dialect's less
 * common keywords, issue 33) are tests/api/dialectKeywords.ts, registered at the end of this file.
 */
import { readFileSync, readdirSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../../common/envelope';
import { copyWithSchemas, scratchPostgres } from '../support/repoCopy';
import { call as fuzzCall } from '../support/schemaFuzzApi';
import { describeDialectKeywords, TREATMENT } from './dialectKeywords';
import { ROOT, startServerProcess, type ServerProcess } from '../support/serverProcess';

type Rec = Record<string, unknown>;
interface Prop {
  type?: string | string[];
  default?: unknown;
  properties?: Record<string, Prop>;
  items?: Prop;
  'x-i18n'?: { en: string; zh: string };
  'x-ui'?: { sortable?: boolean; filter?: boolean | 'q' };
  [k: string]: unknown;
}

const FIXTURE = join(ROOT, 'tests/fixtures/everything.schema.json');
const schema = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { properties: Record<string, Prop> };
const BASE = '/artmanager/specimen';
const ADMIN_PASSWORD = 'Admin-pass-for-tests-1';
const USER_PASSWORD = 'User-pass-for-tests-1';

let work: string;
let tree: string;
let server: ServerProcess;
let pgDb: Awaited<ReturnType<typeof scratchPostgres>>;
let token: string;
let userToken: string;
let authorId: number;

/** One call as the admin, in `lang` (tests/support/schemaFuzzApi.ts `call`). */
const call = (method: 'GET' | 'POST', path: string, body?: unknown, lang: 'en' | 'zh' = 'en') =>
  fuzzCall({ url: server.url, token }, method, path, body, lang);

const create = (r: Rec, lang?: 'en' | 'zh') => call('POST', `${BASE}/add`, r, lang);
const update = (r: Rec, lang?: 'en' | 'zh') => call('POST', `${BASE}/update`, r, lang);
const getOne = (id: number) => call('GET', `${BASE}/getInfo?id=${id}`);
async function listAll(query = ''): Promise<Rec[]> {
  const r = await call('GET', `${BASE}/getList?pageSize=100${query}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.list as Rec[];
}

const typesOf = (p: Prop) => ([] as string[]).concat(p.type ?? []);
/** The schema node of a dotted error field (`contacts.0.name`), for its labels. */
function propAt(field: string): Prop | undefined {
  let node: Prop | undefined = { properties: schema.properties };
  for (const part of field.split('.')) {
    if (/^\d+$/.test(part)) node = node?.items;
    else node = node?.properties?.[part];
  }
  return node;
}

/** A record with a value in every writable field. */
const FULL: Rec = {
  code: 'FU-001',
  title: 'Everything at once',
  startDate: '2024-02-29',
  endDate: '2024-03-31',
  happenedAt: '2024-02-29T23:59:60.5+08:00',
  email: 'someone@example.com',
  homepage: 'https://example.com/a/b?c=d#e',
  quantity: 995,
  price: 999999.75,
  rating: -4.5,
  active: false,
  pinned: true,
  reviewed: null,
  status: 'retired',
  level: 3,
  flag: 1,
  tags: ['alpha', 'βeta', '中文'],
  scores: [0, 100, 42],
  checks: [true, false, true],
  readings: [1.5, 'n/a', 3],
  author: null,
  cover: '/uploads/2026/cover.png',
  note: 'two\nlines',
  address: {
    street: null,
    city: '北京',
    postcode: '100000',
    floor: -2,
    verified: true,
    details: { wing: 'east', rooms: [1, 2] },
  },
  contacts: [
    { name: 'Li Lei', phone: '+86 10-1234', primary: true, since: '2020-01-01' },
    { name: 'Han Meimei', phone: null, primary: false, since: null },
  ],
};

/**
 * What the API answers for a created record `sent`: defaults filled, absent nullable fields null, other
 * absent fields (objects and arrays too) left out (docs/api.md "Types").
 */
function expected(sent: Rec): Rec {
  const out: Rec = { ...sent };
  for (const [name, p] of Object.entries(schema.properties)) {
    if (p.readOnly || name in out) continue;
    if (p.default !== undefined) out[name] = p.default;
    else if (typesOf(p).includes('null')) out[name] = null;
  }
  return out;
}

/** The fields the server adds: the id, the create time and the kernel's revision. */
const READ_ONLY = (r: Rec) => ({ id: r.id, createTime: r.createTime, revision: r.revision });

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'baas-every-type-'));
  tree = join(work, 'tree');
  // the treatment schema too (tests/api/dialectKeywords.ts): one copy, codegen and server for both
  copyWithSchemas(tree, [{ from: FIXTURE, to: 'schemas/specimen.schema.json' }, TREATMENT]);
  pgDb = await scratchPostgres();
  server = await startServerProcess({
    root: tree,
    dataDir: join(work, 'data'),
    env: { ADMIN_PASSWORD, USER_PASSWORD, ...(pgDb ? { DATABASE_URL: pgDb.url } : {}) },
  });
  const login = async (username: string, password: string) => {
    const res = await fetch(`${server.url}/dev-api/user/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    return ((await res.json()) as Envelope<{ token: string }>).data.token;
  };
  token = await login('admin', ADMIN_PASSWORD);
  userToken = await login('user', USER_PASSWORD);
  const author = await call('POST', '/artmanager/authors/addAuthors', { authorName: 'Specimen author' });
  authorId = author.body.data.id as number;
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await pgDb?.drop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('every type of the dialect, through one schema file', () => {
  it('codegen emits the columns and their defaults, and validators without a format library', () => {
    const dir = join(tree, 'server/db/migrations');
    const file = readdirSync(dir).find((f) => /_storage_(.*_)?specimens(_.*)?\.ts$/.test(f));
    expect(file, 'a migration for the new table').toBeTruthy();
    const migration = readFileSync(join(dir, file!), 'utf8');
    // booleans are integer 0/1 columns with their default; enums keep theirs; JSON arrays default to []
    expect(migration).toContain(`.addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))`);
    expect(migration).toContain(`.addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))`);
    expect(migration).toContain(`.addColumn('level', 'integer', (c) => c.notNull().defaultTo(1))`);
    expect(migration).toContain(`.addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))`);
    // an optional field without default may be absent: a nullable column (JSON ones too)
    expect(migration).toContain(`.addColumn('pinned', 'integer')`);
    expect(migration).toContain(`.addColumn('scores', 'text')`);
    expect(migration).toContain(`.addColumn('price', realType)`);
    for (const f of ['formValidators', 'bodyValidators', 'queryValidators']) {
      const code = readFileSync(join(tree, `common/generated/${f}.ts`), 'utf8');
      expect(code, f).not.toContain('ajv-formats');
      expect(code, f).toContain('keywordRules.formats');
    }
  });

  it('create → getOne round-trips every field exactly', async () => {
    const created = await create(FULL);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const rec = created.body.data as Rec;
    expect(rec).toEqual({ ...FULL, ...READ_ONLY(rec) });
    expect(rec.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await getOne(rec.id as number)).body.data).toEqual(rec);
    // and with a reference, an integer enum 0 and booleans true
    const other = { ...FULL, code: 'FU-002', author: authorId, flag: 0, active: true, reviewed: true };
    const second = await create(other);
    expect(second.body.data).toEqual({ ...other, ...READ_ONLY(second.body.data) });
    expect((await getOne(second.body.data.id)).body.data).toEqual(second.body.data);
  });

  it('create applies the defaults of omitted fields and leaves optional ones out', async () => {
    const minimal = { code: 'MI-001', title: 'Minimal', startDate: '2026-01-01', quantity: 0 };
    const created = await create(minimal);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const rec = created.body.data as Rec;
    expect(rec).toEqual({ ...expected(minimal), ...READ_ONLY(rec) });
    expect(rec).toMatchObject({ active: true, status: 'draft', level: 1, flag: 0, tags: [] });
    for (const optional of [
      'happenedAt',
      'homepage',
      'price',
      'pinned',
      'scores',
      'checks',
      'readings',
      'address',
      'contacts',
    ])
      expect(rec, optional).not.toHaveProperty(optional);
    expect((await getOne(rec.id as number)).body.data).toEqual(rec);
  });

  it('an update of one field changes that field only', async () => {
    const start = (await create({ ...FULL, code: 'UP-001' })).body.data as Rec;
    const changes: Rec = {
      code: 'UP-002',
      title: 'Renamed',
      startDate: '2023-12-31',
      endDate: null,
      happenedAt: '2030-01-01T00:00:00Z',
      email: null,
      homepage: 'urn:isbn:0451450523',
      quantity: 0,
      price: 0.25,
      rating: null,
      active: true,
      pinned: false,
      reviewed: false,
      status: 'draft',
      level: 1,
      flag: 0,
      tags: [],
      scores: [7],
      checks: [false],
      readings: ['only text', 0],
      author: authorId,
      cover: null,
      note: null,
      address: { city: 'Shanghai', details: 'a plain string' },
      contacts: [{ name: 'Solo' }],
    };
    let current = start;
    for (const [field, value] of Object.entries(changes)) {
      const r = await update({ id: start.id, [field]: value });
      expect(r.status, `${field}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(r.body.data, field).toEqual({
        ...current,
        [field]: value,
        revision: (current.revision as number) + 1,
      });
      current = (await getOne(start.id as number)).body.data as Rec;
      expect(current, field).toEqual(r.body.data);
    }
  });

  it('refuses invalid values with 400 naming the field, in English and Chinese, and stores nothing', async () => {
    const stored = (await create({ ...FULL, code: 'IN-001' })).body.data as Rec;
    const before = await listAll();
    const cases: [string, unknown, string][] = [
      ['code', 'ab-1', 'code'],
      ['title', '', 'title'],
      ['title', 'a<b>', 'title'],
      ['startDate', '2023-02-29', 'startDate'],
      ['startDate', '2026-1-01', 'startDate'],
      ['endDate', '2026/01/01', 'endDate'],
      ['happenedAt', '2026-01-01T10:00:00', 'happenedAt'],
      ['happenedAt', '2026-01-01T24:00:00Z', 'happenedAt'],
      ['email', 'not-an-email', 'email'],
      ['homepage', 'no scheme here', 'homepage'],
      ['homepage', 'https://bad host/', 'homepage'],
      ['quantity', 7, 'quantity'],
      ['quantity', 1005, 'quantity'],
      ['quantity', 2.5, 'quantity'],
      ['quantity', '10', 'quantity'],
      ['price', 0, 'price'],
      ['price', 1000000, 'price'],
      ['price', 0.3, 'price'],
      ['rating', 5.5, 'rating'],
      ['active', 'true', 'active'],
      ['active', 1, 'active'],
      ['pinned', null, 'pinned'],
      ['reviewed', 'no', 'reviewed'],
      ['status', 'deleted', 'status'],
      ['level', 4, 'level'],
      ['level', '1', 'level'],
      ['flag', 2, 'flag'],
      ['flag', true, 'flag'],
      ['tags', ['ok', ''], 'tags.1'],
      ['tags', 'alpha', 'tags'],
      ['scores', [101], 'scores.0'],
      ['scores', [1.5], 'scores.0'],
      ['checks', ['yes'], 'checks.0'],
      ['checks', [true, 1], 'checks.1'],
      ['readings', [true], 'readings.0'],
      ['readings', [1, 'x'.repeat(21)], 'readings.1'],
      ['author', 0, 'author'],
      ['author', 2000000000, 'author'],
      ['cover', 'javascript:alert(1)', 'cover'],
      ['note', 5, 'note'],
      ['address', { city: 'X', floor: 201 }, 'address.floor'],
      ['address', { city: 'X', postcode: '12' }, 'address.postcode'],
      ['address', { city: 'X', extra: 1 }, 'address.extra'],
      ['address', null, 'address'],
      ['contacts', [{ phone: '123' }], 'contacts.0.name'],
      ['contacts', [{ name: 'A', since: '2026-13-01' }], 'contacts.0.since'],
      ['contacts', [{ name: 'A', primary: 'yes' }], 'contacts.0.primary'],
      ['nope', 1, 'nope'],
    ];
    for (const [field, value, at] of cases) {
      // an item without a label of its own (`tags.1`) is named by its list's label and its place
      const [, list, index] = /^(.*)\.(\d+)$/.exec(at) ?? [];
      const listLabel = list !== undefined && !propAt(at)?.['x-i18n'] ? propAt(list)?.['x-i18n'] : undefined;
      const label = listLabel
        ? {
            en: `${listLabel.en}, item ${Number(index) + 1}`,
            zh: `${listLabel.zh}第 ${Number(index) + 1} 项`,
          }
        : propAt(at)?.['x-i18n'];
      for (const lang of ['en', 'zh'] as const) {
        const what = `${lang} ${field}=${JSON.stringify(value)}`;
        for (const r of [
          await create({ ...FULL, code: 'IN-999', [field]: value }, lang),
          await update({ id: stored.id, [field]: value }, lang),
        ]) {
          expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(400);
          const fields = (r.body.data.errors as { field: string }[]).map((e) => e.field);
          expect(fields, what).toContain(at);
          // English names the field by its label (the key where it has none), Chinese by its Chinese label
          if (lang === 'en') expect(r.body.msg, what).toContain(`${label?.en ?? at}:`);
          else {
            expect(r.body.msg, what).toMatch(/[\u4e00-\u9fff]/);
            if (label) expect(r.body.msg, what).toContain(`${label.zh}：`);
          }
        }
      }
    }
    // x-ordered: an end date before the start date, named on the field the update changes
    const reversed = await update({ id: stored.id, endDate: '2020-01-01' }, 'zh');
    expect(reversed.status).toBe(400);
    expect((reversed.body.data.errors as { field: string }[]).map((e) => e.field)).toEqual(['endDate']);
    expect(reversed.body.msg).toContain('结束日期');
    // nothing changed
    expect((await getOne(stored.id as number)).body.data).toEqual(stored);
    expect(await listAll()).toEqual(before);
  });

  it('list filters and sorts every scalar type as the stored records say', async () => {
    const word = fc.stringMatching(/^[a-z]{3,10}$/);
    const day = fc.integer({ min: 0, max: 3650 }).map((d) => new Date(Date.UTC(2020, 0, 1) + d * 864e5));
    const record = fc.record(
      {
        title: word,
        start: day,
        span: fc.option(fc.integer({ min: 0, max: 60 })),
        happenedAt: fc
          .integer({ min: 0, max: 3650 * 24 * 3600 })
          .map((s) => `${new Date(Date.UTC(2020, 0, 1) + s * 1000).toISOString().slice(0, 19)}Z`),
        email: fc.option(word.map((w) => `${w}@example.com`)),
        quantity: fc.integer({ min: 0, max: 200 }).map((q) => q * 5),
        price: fc.integer({ min: 1, max: 3_999_999 }).map((p) => p / 4),
        rating: fc.option(fc.integer({ min: -20, max: 20 }).map((r) => r / 4)),
        active: fc.boolean(),
        pinned: fc.boolean(),
        reviewed: fc.option(fc.boolean()),
        status: fc.constantFrom('draft', 'published', 'retired'),
        level: fc.constantFrom(1, 2, 3),
        flag: fc.constantFrom(0, 1),
        byAuthor: fc.boolean(),
      },
      {
        requiredKeys: [
          'title',
          'start',
          'span',
          'quantity',
          'status',
          'email',
          'rating',
          'reviewed',
          'byAuthor',
        ],
      },
    );
    const samples = fc.sample(record, { numRuns: 24, seed: 18 });
    for (const [i, s] of samples.entries()) {
      const iso = (d: Date) => d.toISOString().slice(0, 10);
      const { start, span, byAuthor, ...rest } = s;
      const body: Rec = {
        ...rest,
        code: `LS-${String(i).padStart(3, '0')}`,
        startDate: iso(start),
        endDate: span === null ? null : iso(new Date(start.getTime() + span * 864e5)),
        author: byAuthor ? authorId : null,
      };
      const r = await create(body);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data).toEqual({ ...expected(body), ...READ_ONLY(r.body.data) });
    }
    const all = await listAll();
    expect(all.length).toBeGreaterThanOrEqual(samples.length);
    const ids = (rs: Rec[]) => rs.map((r) => r.id as number).sort((a, b) => a - b);
    const q = (v: unknown) => encodeURIComponent(String(v));
    const cmp = (a: unknown, b: unknown) =>
      typeof a === 'number' || typeof a === 'boolean'
        ? Number(a) - Number(b)
        : String(a) < String(b)
          ? -1
          : String(a) > String(b)
            ? 1
            : 0;

    // equality: every value some record holds (and false for booleans), per filterable field
    const filterable = Object.entries(schema.properties).filter(([, p]) => p['x-ui']?.filter === true);
    expect(filterable.map(([n]) => n)).toEqual(
      expect.arrayContaining(['startDate', 'quantity', 'price', 'active', 'status', 'level', 'author']),
    );
    for (const [name] of filterable) {
      const values = [...new Set(all.map((r) => r[name]).filter((v) => v !== null && v !== undefined))];
      for (const v of values.slice(0, 4)) {
        const got = await listAll(`&${name}=${q(v)}`);
        expect(ids(got), `${name}=${String(v)}`).toEqual(ids(all.filter((r) => r[name] === v)));
      }
    }
    // ranges: numbers and dates, inclusive bounds
    for (const name of ['startDate', 'happenedAt', 'quantity', 'price']) {
      const values = all.map((r) => r[name]).filter((v) => v !== undefined && v !== null);
      const sorted = [...values].sort(cmp);
      const [lo, hi] = [sorted[Math.floor(sorted.length / 4)], sorted[Math.floor((sorted.length * 3) / 4)]];
      const got = await listAll(`&${name}_gte=${q(lo)}&${name}_lte=${q(hi)}`);
      const inRange = all.filter((r) => r[name] != null && cmp(r[name], lo) >= 0 && cmp(r[name], hi) <= 0);
      expect(ids(got), `${name} in [${String(lo)}, ${String(hi)}]`).toEqual(ids(inRange));
      expect(got.length).toBeGreaterThan(0);
    }
    // a filter of the wrong type or shape is refused (400 naming it), never a 500
    for (const bad of ['active=maybe', 'quantity=abc', 'startDate=2026-02-30', 'price_gte=x', 'level=9']) {
      const r = await call('GET', `${BASE}/getList?${bad}`);
      expect(r.status, bad).toBe(400);
      expect(JSON.stringify(r.body.data.errors), bad).toContain(bad.split('=')[0]);
    }
    const comparable = (v: unknown) =>
      typeof v !== 'string' ||
      /^(?:[a-z]+|[A-Z]{2}-\d{3}|\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}:\d{2}Z?)?)$/.test(v);
    // sort: ascending and descending by every sortable field (nulls wherever the database puts them)
    const sortable = Object.entries(schema.properties).filter(([, p]) => p['x-ui']?.sortable);
    for (const [name] of sortable)
      for (const order of ['ASC', 'DESC'] as const) {
        const got = await listAll(`&sort=${name}&order=${order}`);
        expect(ids(got)).toEqual(ids(all));
        // Text compared where every collation agrees with code-unit order (PostgreSQL's may be a locale's).
        const values = got.map((r) => r[name]).filter((v) => v !== null && v !== undefined && comparable(v));
        for (let i = 1; i < values.length; i++) {
          const c = cmp(values[i - 1], values[i]);
          expect(order === 'ASC' ? c <= 0 : c >= 0, `${name} ${order} at ${i}`).toBe(true);
        }
      }
  });

  it('delete removes the record and nothing else', async () => {
    const all = await listAll();
    const victim = all[0];
    const r = await call('POST', `${BASE}/delete`, { id: victim.id });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await getOne(victim.id as number)).status).toBe(404);
    expect(await listAll()).toEqual(all.slice(1));
  });

  it('the OpenAPI document validates and documents the calls', async () => {
    const res = await fetch(`${server.url}/dev-api/openapi.json`, { headers: { 'X-Token': token } });
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    for (const [path, method] of [
      [`${BASE}/getList`, 'get'],
      [`${BASE}/getInfo`, 'get'],
      [`${BASE}/add`, 'post'],
      [`${BASE}/update`, 'post'],
      [`${BASE}/delete`, 'post'],
    ])
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeTruthy();
  });
});

describeDialectKeywords(() => ({
  url: server.url,
  tokens: { admin: token, user: userToken },
  authorId,
  authorName: 'Specimen author',
}));

/**
 * The dialect's less common keywords end to end (issue 33 item 1), through a resource added by one schema
 * file: tests/fixtures/treatment.schema.json (`treatment`: `$ref`'d items and properties, `x-count` over
 * its own table, `x-archive`, `x-distinct`, `x-notFuture`, `x-uscc`, `x-frozen`, `x-storage.search` and
 * `display`, roles on a call). Registered by tests/api/every-type.test.ts on its repository copy (the copy
 * gets this schema beside the specimen; codegen runs there once, with no hand edit of any other file: the
 * pigeonhole's kinds follow `x-archive`), so no second copy, codegen and server start are paid: the real
 * server on SQLite or, with `TEST_DATABASE_URL`, on PostgreSQL. The API answers what the schema says:
 * `$ref`'d values round-trip and are validated (400 naming the nested field), a count over the resource's
 * own records counts only the records sharing the key, the pigeonhole archives and lists the new
 * resource, the export carries the count and the OpenAPI document has no reference left to resolve;
 * updateMany writes one change to several records as update does, all or none, naming a refusing record;
 * a list of lists round-trips and is validated at every depth; `x-schemaFrom` in a list's items checks
 * every item against the schema of the record the record's own reference names.
 */
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../common/envelope';
import { call as fuzzCall } from '../support/schemaFuzzApi';
import { ROOT } from '../support/serverProcess';

type Rec = Record<string, unknown>;

/** The fixture and where the copy holds it. */
export const TREATMENT = {
  from: join(ROOT, 'tests/fixtures/treatment.schema.json'),
  to: 'schemas/treatment.schema.json',
};
const BASE = '/artmanager/treatment';

/** The copy's server and the admin's and a user's tokens, as the caller's beforeAll made them. */
export interface KeywordTarget {
  url: string;
  tokens: { admin: string; user: string };
  /** An author's id (for the reference, the display and the search by reference). */
  authorId: number;
  authorName: string;
}

/**
 * Registers the tests on `target()` (read when the tests run, after the caller's beforeAll).
 */
export function describeDialectKeywords(target: () => KeywordTarget): void {
  /** One call as `who` (admin unless said), in `lang` (tests/support/schemaFuzzApi.ts `call`). */
  const call = (
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    { who = 'admin', lang = 'en' }: { who?: 'admin' | 'user'; lang?: 'en' | 'zh' } = {},
  ) => fuzzCall({ url: target().url, token: target().tokens[who] }, method, path, body, lang);

  /** The field names of a 400's errors. */
  const fields = (body: Envelope<unknown>) =>
    ((body.data as { errors?: { field: string }[] })?.errors ?? []).map((e) => e.field).sort();

  const BASE_RECORD: Rec = {
    title: 'Surface cleaning',
    objectCode: 'A001',
    year: 2020,
    conservator: 'Li Na',
    interventions: [{ method: 'Dry cleaning', material: 'Soft brush', hours: 2.5 }],
  };

  async function add(r: Rec): Promise<Rec> {
    const res = await call('POST', `${BASE}/add`, r);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as Rec;
  }

  describe('$ref and definitions', () => {
    it("round-trips $ref'd items and properties, and validates them at every depth", async () => {
      const full = {
        ...BASE_RECORD,
        objectCode: 'R001',
        keywords: ['paper', 'ink'],
        measurements: { width: 30.5, height: 42 },
        interventions: [
          { method: 'Humidification', material: null, hours: 1 },
          { method: 'Flattening', material: 'Blotter', hours: null },
        ],
      };
      const made = await add(full);
      expect(made).toMatchObject({ ...full, status: 'open', kind: 'conservation' });
      const read = await call('GET', `${BASE}/getInfo?id=${made.id}`);
      expect(read.body.data).toMatchObject(full);

      // a $ref'd item's own rule (definitions.label: minLength 1) and its object's `additionalProperties`
      const bad = await call('POST', `${BASE}/add`, {
        ...BASE_RECORD,
        interventions: [{ method: '' }, { method: 'ok', colour: 'red' }],
        keywords: ['x', 'x'],
      });
      expect(bad.status, JSON.stringify(bad.body)).toBe(400);
      expect(fields(bad.body)).toEqual(['interventions.0.method', 'interventions.1.colour', 'keywords']);
      // a $ref'd property (title: definitions.label, at most 60 wide), in Chinese too
      const wide = await call(
        'POST',
        `${BASE}/add`,
        { ...BASE_RECORD, title: '宽'.repeat(31) },
        { lang: 'zh' },
      );
      expect(wide.status).toBe(400);
      expect(fields(wide.body)).toEqual(['title']);
      expect(wide.body.msg).toContain('标题');
      // an update of one $ref'd item list replaces it, and nothing else
      const upd = await call('POST', `${BASE}/update`, {
        id: made.id,
        interventions: [{ method: 'Lining' }],
      });
      expect(upd.body.data).toMatchObject({ ...full, interventions: [{ method: 'Lining' }] });
    });
  });

  describe('a list of lists', () => {
    it('round-trips the inner lists and validates each inner value, naming its place', async () => {
      const samples = [['varnish', 'paint', 'ground'], ['ground']];
      const made = await add({ ...BASE_RECORD, objectCode: 'LOL001', samples });
      expect(made.samples).toEqual(samples);
      expect((await call('GET', `${BASE}/getInfo?id=${String(made.id)}`)).body.data.samples).toEqual(samples);
      // an inner value ($ref'd definitions.label: not empty), an inner list too short, in Chinese too
      const bad = await call(
        'POST',
        `${BASE}/add`,
        { ...BASE_RECORD, samples: [['ok'], ['fine', ''], []] },
        { lang: 'zh' },
      );
      expect(bad.status, JSON.stringify(bad.body)).toBe(400);
      expect(fields(bad.body)).toEqual(['samples.1.1', 'samples.2']);
      // an inner value has no label of its own: named by its list's label and its place
      expect(bad.body.msg).toContain('各样本层次第 2 项第 2 个值：');
      expect(bad.body.msg).toContain('各样本层次第 3 项：');
      const en = await call('POST', `${BASE}/add`, { ...BASE_RECORD, samples: [['ok'], ['fine', '']] });
      expect(en.body.msg).toContain('Layers per sample, item 2, value 2: ');
      const upd = await call('POST', `${BASE}/update`, { id: made.id, samples: [['paint']] });
      expect(upd.body.data).toMatchObject({ samples: [['paint']], objectCode: 'LOL001' });
    });
  });

  describe('x-schemaFrom below the top (each item of a list)', () => {
    /** A protocol template whose parameters the interventions' `settings` follow. */
    const template = async (maximum: number) => {
      const res = await call('POST', '/medicine-api/smContract/addTemplate', {
        name: `Protocol up to ${maximum}`,
        chaincode: 'protocol',
        paramsSchema: {
          type: 'object',
          properties: {
            temperature: {
              type: 'integer',
              minimum: 0,
              maximum,
              default: Math.min(20, maximum),
              'x-i18n': { en: 'Temperature', zh: '温度' },
            },
          },
          additionalProperties: false,
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.id as number;
    };

    it("checks every item's value against the referenced record's schema, defaults filled in", async () => {
      const protocol = await template(40);
      const made = await add({
        ...BASE_RECORD,
        objectCode: 'SCH001',
        protocol,
        interventions: [
          { method: 'Humidification', settings: { temperature: 25 } },
          { method: 'Flattening', settings: {} },
          { method: 'Drying' },
        ],
      });
      expect(made.interventions).toEqual([
        { method: 'Humidification', settings: { temperature: 25 } },
        { method: 'Flattening', settings: { temperature: 20 } },
        { method: 'Drying' },
      ]);
      for (const lang of ['en', 'zh'] as const) {
        const bad = await call(
          'POST',
          `${BASE}/add`,
          {
            ...BASE_RECORD,
            protocol,
            interventions: [
              { method: 'A', settings: {} },
              { method: 'B', settings: { temperature: 90, x: 1 } },
            ],
          },
          { lang },
        );
        expect(bad.status, JSON.stringify(bad.body)).toBe(400);
        expect(fields(bad.body)).toEqual([
          'interventions.1.settings.temperature',
          'interventions.1.settings.x',
        ]);
        expect(bad.body.msg).toContain(lang === 'en' ? 'Temperature' : '温度');
      }
      // without a protocol there is no schema to follow
      const free = await add({
        ...BASE_RECORD,
        objectCode: 'SCH002',
        interventions: [{ method: 'A', settings: { anything: 'goes' } }],
      });
      expect(free.interventions).toEqual([{ method: 'A', settings: { anything: 'goes' } }]);
      // a protocol changed alone: the stored settings are checked against the new one, and kept
      const strict = await template(10);
      const moved = await call('POST', `${BASE}/update`, { id: made.id, protocol: strict });
      expect(moved.status, JSON.stringify(moved.body)).toBe(400);
      expect(fields(moved.body)).toEqual([
        'interventions.0.settings.temperature',
        'interventions.1.settings.temperature',
      ]);
      expect((await call('GET', `${BASE}/getInfo?id=${String(made.id)}`)).body.data.protocol).toBe(protocol);
    });
  });

  describe('x-count over the resource’s own table', () => {
    it('counts the records sharing the key, not every row', async () => {
      const a1 = await add({ ...BASE_RECORD, objectCode: 'CNT001', title: 'First of A' });
      const a2 = await add({ ...BASE_RECORD, objectCode: 'CNT001', title: 'Second of A' });
      const b = await add({ ...BASE_RECORD, objectCode: 'CNT002', title: 'Only of B' });
      expect((await call('GET', `${BASE}/getInfo?id=${a1.id}`)).body.data.sameObject).toBe(2);
      expect((await call('GET', `${BASE}/getInfo?id=${b.id}`)).body.data.sameObject).toBe(1);
      const list = await call(
        'GET',
        `${BASE}/getList?ids=${a1.id},${a2.id},${b.id}&sort=sameObject&order=DESC`,
      );
      expect((list.body.data.list as Rec[]).map((r) => [r.id, r.sameObject])).toEqual([
        [a2.id, 2],
        [a1.id, 2],
        [b.id, 1],
      ]);
    });
  });

  describe('the other record rules', () => {
    it('refuses a future year, a reviewer who is the conservator and a wrong credit code, naming each', async () => {
      const year = new Date().getUTCFullYear() + 1;
      const bad = await call('POST', `${BASE}/add`, {
        ...BASE_RECORD,
        year,
        reviewer: ' li na ',
        labCode: '91350100M000100Y44',
      });
      expect(bad.status, JSON.stringify(bad.body)).toBe(400);
      expect(fields(bad.body)).toEqual(['labCode', 'reviewer', 'year']);
      const good = await add({
        ...BASE_RECORD,
        year: year - 1,
        reviewer: 'Wang Fang',
        labCode: '91350100M000100Y43',
      });
      expect(good).toMatchObject({ reviewer: 'Wang Fang', labCode: '91350100M000100Y43' });
    });

    it('keeps a closed treatment final, and admits only an admin', async () => {
      const t = await add({ ...BASE_RECORD, objectCode: 'FRZ001' });
      // admin only (x-roles and the call's roles): a user is refused
      expect((await call('POST', `${BASE}/delete`, { id: t.id }, { who: 'user' })).status).toBe(403);
      expect((await call('GET', `${BASE}/getInfo?id=${t.id}`, undefined, { who: 'user' })).status).toBe(403);
      await call('POST', `${BASE}/update`, { id: t.id, status: 'closed' });
      const frozen = await call('POST', `${BASE}/update`, { id: t.id, title: 'Changed' });
      expect(frozen.status).toBe(400);
      expect(frozen.body.data.errors[0].keyword).toBe('closedFrozen');
    });

    it('finds a record by its author’s name (x-storage.search.references) and shows it (display)', async () => {
      const t = await add({
        ...BASE_RECORD,
        objectCode: 'SRC001',
        title: 'Searched',
        author: target().authorId,
      });
      const found = await call(
        'GET',
        `${BASE}/getList?q=${encodeURIComponent(target().authorName.toLowerCase())}`,
      );
      expect((found.body.data.list as Rec[]).map((r) => r.id)).toContain(t.id);
      expect((await call('GET', `${BASE}/getInfo?id=${t.id}`)).body.data.authorName).toBe(
        target().authorName,
      );
    });
  });

  describe('updateMany', () => {
    const many = (body: unknown, opts?: { who?: 'admin' | 'user'; lang?: 'en' | 'zh' }) =>
      call('POST', `${BASE}/updateMany`, body, opts);
    const one = async (id: unknown) =>
      (await call('GET', `${BASE}/getInfo?id=${String(id)}`)).body.data as Rec;

    it('writes the same change to every record named: each checked, audited and one revision on', async () => {
      const a = await add({ ...BASE_RECORD, objectCode: 'UPM001', title: 'Bulk A' });
      const b = await add({ ...BASE_RECORD, objectCode: 'UPM002', title: 'Bulk B', reviewer: 'Old' });
      const res = await many({ ids: [a.id, b.id], data: { reviewer: ' Zhao Lei ', year: 2018 } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toEqual({ ids: [a.id, b.id] });
      for (const { updateTime: _written, ...before } of [a, b]) {
        const after = await one(before.id);
        // the update's rules: a plain-text value trimmed; every other field as it was
        expect(after).toMatchObject({ ...before, reviewer: 'Zhao Lei', year: 2018, revision: 2 });
        const history = await call('GET', `/dev-api/history/revisions?resource=treatments&id=${before.id}`);
        expect(history.body.data.list[0]).toMatchObject({ call: `POST ${BASE}/updateMany` });
        expect(history.body.data.total).toBe(2);
      }
    });

    it('is all or none: a record refusing the change refuses the call, naming its id and field (en, zh)', async () => {
      const kept = await add({ ...BASE_RECORD, objectCode: 'UPM003', conservator: 'Zhou Min' });
      const same = await add({ ...BASE_RECORD, objectCode: 'UPM004', conservator: 'Li Na' });
      // x-distinct on the merged record: the reviewer cannot be that record's conservator
      for (const lang of ['en', 'zh'] as const) {
        const res = await many({ ids: [kept.id, same.id], data: { reviewer: 'li na' } }, { lang });
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(fields(res.body)).toEqual(['data.reviewer']);
        expect(res.body.data.ids).toEqual([same.id]);
        expect(res.body.msg).toContain(
          lang === 'en' ? `Treatment ${String(same.id)}` : `修复记录 ${String(same.id)}`,
        );
        expect(res.body.msg).toContain(lang === 'en' ? 'Reviewer' : '审核人');
        expect(res.body.msg).toContain(lang === 'en' ? 'Conservator' : '修复师');
      }
      // x-frozen: a closed treatment refuses it too
      await call('POST', `${BASE}/update`, { id: same.id, status: 'closed' });
      const frozen = await many({ ids: [kept.id, same.id], data: { title: 'Changed' } });
      expect(frozen.status).toBe(400);
      expect(frozen.body.data.errors[0]).toMatchObject({ field: 'data.title', keyword: 'closedFrozen' });
      expect(frozen.body.data.ids).toEqual([same.id]);
      // nothing was written, not even to the record before the refused one
      expect(await one(kept.id)).toEqual(kept);
    });

    it('refuses a bad body naming data.<field>, unknown ids (404) and a user (403), changing nothing', async () => {
      const t = await add({ ...BASE_RECORD, objectCode: 'UPM005' });
      const bad = await many({ ids: [t.id], data: { year: 1800, colour: 'red' } }, { lang: 'zh' });
      expect(bad.status, JSON.stringify(bad.body)).toBe(400);
      expect(fields(bad.body)).toEqual(['data.colour', 'data.year']);
      expect(bad.body.msg).toContain('年份');
      const en = await many({ ids: [t.id], data: { year: 1800 } });
      expect(en.body.msg).toContain('Year');
      // read-only fields are not written by it either
      expect(fields((await many({ ids: [t.id], data: { sameObject: 3 } })).body)).toEqual([
        'data.sameObject',
      ]);
      expect(fields((await many({ ids: [], data: { year: 2019 } })).body)).toEqual(['ids']);
      expect(fields((await many({ ids: [t.id, t.id], data: { year: 2019 } })).body)).toEqual(['ids']);
      expect(fields((await many({ ids: [t.id] })).body)).toEqual(['data']);
      const unknown = await many({ ids: [t.id, 2_000_000_000], data: { year: 2019 } });
      expect(unknown.status).toBe(404);
      expect(unknown.body.msg).toContain('2000000000');
      expect((await many({ ids: [t.id], data: { year: 2019 } }, { who: 'user' })).status).toBe(403);
      expect(await one(t.id)).toEqual(t);
    });
  });

  describe('x-archive with no hand edit of the pigeonhole', () => {
    it('archives a treatment, lists it under its resource and restores it', async () => {
      const t = await add({ ...BASE_RECORD, objectCode: 'ARC001', title: 'Archived one' });
      const archived = await call('POST', '/data-api/pigeonhole/archive', {
        resource: 'treatments',
        id: t.id,
      });
      expect(archived.status, JSON.stringify(archived.body)).toBe(200);
      const list = await call('GET', '/data-api/pigeonhole/list?resource=treatments');
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      expect(list.body.data.list).toEqual([
        expect.objectContaining({ resource: 'treatments', recordId: t.id, title: 'Archived one' }),
      ]);
      expect((await call('GET', `${BASE}/getInfo?id=${t.id}`)).status).toBe(404);
      const restored = await call('POST', '/data-api/pigeonhole/restore', { id: archived.body.data.id });
      expect(restored.body.data).toMatchObject({ id: t.id, interventions: BASE_RECORD.interventions });
    });
  });

  describe('documents and files', () => {
    it('exports the records with their own count, and documents every call in a valid OpenAPI document', async () => {
      const res = await fetch(`${target().url}${BASE}/getList/export?format=csv&objectCode=R001`, {
        headers: { 'X-Token': target().tokens.admin },
      });
      expect(res.status).toBe(200);
      const csv = await res.text();
      expect(csv.split('\n')[0]).toContain('Treatments of the object');
      expect(csv).toContain('Surface cleaning');

      const doc = await (
        await fetch(`${target().url}/dev-api/openapi.json`, { headers: { 'X-Token': target().tokens.admin } })
      ).json();
      const result = await new Validator().validate(doc);
      expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
      expect(JSON.stringify(doc.paths[`${BASE}/add`])).not.toContain('#/definitions/');
      expect(doc.paths[`${BASE}/getList`]?.get).toBeTruthy();
    });
  });
}

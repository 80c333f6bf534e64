/**
 * Fuzz suite of issue 11: malformed requests generated from the resource schemas themselves
 * (tests/support/malformed.ts) for every write call (create, update, delete) and every list call
 * (getList/search/getMany bodies and query strings, getManyReference) that a resource schema with
 * `x-storage` declares in `x-endpoints`. Each malformation is mixed into an otherwise valid request
 * (valid values from tests/support/arbitraries.ts). Asserted, per malformation class:
 * - no 5xx;
 * - every refusal (4xx) names the offending field in `data.errors[].field` (docs/api.md; "" for the body);
 * - a request that must be refused is not accepted, and an accepted one stores nothing that breaks the
 *   text policy (read back with getOne);
 * - the digest of every resource table (`x-storage.table`) is unchanged by a refusal.
 * Every route the server registers, with hostile query strings, bodies and headers: fuzz-routes.test.ts.
 * Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set (scripts/test-all.sh). Deterministic:
 * seed 11 unless `FUZZ_SEED` is set; `FUZZ_RUNS` runs per class (default 40); `FUZZ_STRICT=1` ignores the
 * allow-list below.
 *
 * KNOWN_FAILING_CLASSES lists the classes today's server fails (found by this suite, with fast-check's
 * shrunk counter-example); their tests assert that they still fail, so the list must be emptied as the
 * fixes land (a fixed class listed here fails with "now passes").
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceSchemas, type EndpointSpec, type ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { validatorFor } from '../../kernel/dialect/validators';
import { nowText } from '../../server/db/database';
import { createBodyArbitrary } from '../support/arbitraries';
import {
  jsonWith,
  malformationsFor,
  NUMBER_TOKENS,
  storedBreaches,
  type Malformation,
} from '../support/malformed';
import { createTestApp, type TestApp } from './helpers';
import {
  BODY_CLASSES,
  encodeQuery,
  listBodyMalformations,
  qs,
  queryMalformations,
  type Request,
} from '../support/fuzzMalformations';

type Db = 'sqlite' | 'postgres';

/**
 * Classes today's code fails (issue 11 wording), with the database(s) they fail on and the shrunk
 * counter-example fast-check found. Empty this list as the fixes are merged.
 */
export const KNOWN_FAILING_CLASSES: Record<string, { issue: string; on: Db[]; example: string }> = {};

/** The allow-list in force: none with `FUZZ_STRICT=1` (every class asserted, as after the fixes). */
const KNOWN: typeof KNOWN_FAILING_CLASSES = process.env.FUZZ_STRICT === '1' ? {} : KNOWN_FAILING_CLASSES;

const SEED = Number(process.env.FUZZ_SEED ?? 11);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const DB: Db = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

type Json = Record<string, any>;

const storedSchemas = resourceSchemas().filter((s) => s['x-storage'] && s['x-endpoints']);
const TABLES = storedSchemas.map((s) => s['x-storage']!.table as string);

/** One case: a call, one malformation, and how to build the request. */
interface Case {
  call: string;
  schema: ResourceSchema;
  kind: 'create' | 'update' | 'delete' | 'list';
  m: Malformation;
  build: (ctx: Ctx) => Request;
}

/** Ids of stored records to mix into requests, and valid field values drawn per run. */
interface Ctx {
  ids: Record<string, number[]>;
  base: Json;
}

const writable = (s: ResourceSchema) =>
  Object.entries(s.properties)
    .filter(([, p]) => !p.readOnly)
    .map(([k]) => k);

/**
 * Arbitrary of a valid create body of `s` (every writable field) passing the server's own validator, and
 * never final: a record matching `x-frozen.when` refuses every update whatever it sends (a refusal naming
 * the rule, not the malformed field), so those fields are left to their default (as partial-update.test.ts).
 */
const validBody = (s: ResourceSchema, ids: Record<string, number[]>): fc.Arbitrary<Json> =>
  createBodyArbitrary(s, ids, validatorFor(`${s.$id}.create`)).map((body) => {
    for (const [k, v] of Object.entries<unknown>(s['x-frozen']?.when ?? {}))
      if (body[k] === v) delete body[k];
    return body;
  });

/** Every case of every call of every stored resource. */
function allCases(): Case[] {
  const cases: Case[] = [];
  for (const s of storedSchemas) {
    const e = s['x-endpoints']!;
    const post = (spec: EndpointSpec, kind: Case['kind'], ms: Malformation[], baseOf: (ctx: Ctx) => Json) => {
      for (const m of ms)
        cases.push({
          call: `${spec.method} ${spec.path}`,
          schema: s,
          kind,
          m,
          build: (ctx) => ({ method: 'POST', url: spec.path, body: jsonWith(baseOf(ctx), m.field, m.bad) }),
        });
      for (const b of BODY_CLASSES)
        cases.push({
          call: `${spec.method} ${spec.path}`,
          schema: s,
          kind,
          m: {
            cls: b.cls,
            field: b.field ?? '',
            bad: { value: null },
            mustRefuse: true,
          },
          build: (ctx) => ({ method: 'POST', url: spec.path, ...b.make(JSON.stringify(baseOf(ctx))) }),
        });
    };
    const name = s['x-resource']!.name;
    if (e.create) {
      const ms = writable(s).flatMap((f) => malformationsFor(f, s.properties[f], s));
      ms.push({ cls: 'unknown-field', field: 'notAField', bad: { value: 'x' }, mustRefuse: true });
      for (const [f, p] of Object.entries(s.properties))
        if (p.readOnly && f !== 'id')
          ms.push({ cls: 'read-only-field', field: f, bad: { value: p.default ?? 1 }, mustRefuse: true });
      for (const k of ['__proto__', 'constructor'])
        ms.push({
          cls: 'prototype-key',
          field: k,
          bad: { value: { isBlock: 1, prototype: { isBlock: 1 } } },
          mustRefuse: true,
        });
      post(e.create, 'create', ms, (ctx) => ctx.base);
    }
    if (e.update) {
      const ms = writable(s).flatMap((f) => malformationsFor(f, s.properties[f], s));
      ms.push(...malformationsFor('id', { type: 'integer', minimum: 1, maximum: 2147483647 }, s));
      ms.push({ cls: 'unknown-field', field: 'notAField', bad: { value: 'x' }, mustRefuse: true });
      for (const k of ['__proto__', 'constructor'])
        ms.push({ cls: 'prototype-key', field: k, bad: { value: { id: 1 } }, mustRefuse: true });
      post(e.update, 'update', ms, (ctx) => ({ ...ctx.base, id: ctx.ids[name][0] }));
    }
    const del = e.delete ?? e.deleteMany;
    if (del) {
      const idName = e.delete?.id ?? 'id';
      const idsName = e.deleteMany?.ids ?? 'ids';
      const idProp = { type: 'integer', minimum: 1, maximum: 2147483647 };
      const ms = [
        ...malformationsFor(idName, idProp, s),
        ...malformationsFor(idsName, { type: 'array', items: idProp, minItems: 1, maxItems: 100 }, s).filter(
          (m) => m.field !== idsName || m.cls !== 'too-many-items',
        ),
        {
          cls: 'too-many-items',
          field: idsName,
          bad: { value: Array.from({ length: 101 }, (_, i) => i + 1) },
          mustRefuse: true,
        },
        { cls: 'unknown-field', field: 'notAField', bad: { value: 1 }, mustRefuse: true },
        ...['__proto__', 'constructor'].map((k) => ({
          cls: 'prototype-key',
          field: k,
          bad: { value: { id: 1 } },
          mustRefuse: true,
        })),
      ];
      post(del, 'delete', ms, (ctx) => (ms.length ? { [idName]: ctx.ids[name][1] } : {}));
    }
    // List calls: getList / search / getMany share calls; each distinct call once.
    const lists = new Map<string, EndpointSpec>();
    for (const v of ['getList', 'search', 'getMany'] as const)
      if (e[v]) lists.set(`${e[v]!.method} ${e[v]!.path}`, e[v]!);
    const refs = Object.entries((e.getManyReference ?? {}) as Record<string, EndpointSpec>);
    for (const [call, spec] of [
      ...lists,
      ...refs.map(([, sp]) => [`${sp.method} ${sp.path}`, sp] as const),
    ]) {
      const ref = refs.find(([, sp]) => sp === spec);
      const extra = (ctx: Ctx): Json => {
        if (!ref) return {};
        const target = s.properties[ref[0]]['x-references']!.resource;
        return { [spec.id ?? 'id']: ctx.ids[target][0] };
      };
      if (spec.method === 'GET')
        for (const q of queryMalformations(s))
          cases.push({
            call,
            schema: s,
            kind: 'list',
            m: { cls: q.cls, field: q.field, bad: { value: q.raw }, mustRefuse: q.mustRefuse },
            build: (ctx) => ({
              method: 'GET',
              url: `${spec.path}?${qs({ page: 1, pageSize: 5, ...extra(ctx) })}&${encodeQuery(q.field)}=${encodeQuery(q.raw)}`,
            }),
          });
      else post(spec, 'list', listBodyMalformations(s), (ctx) => ({ page: 1, pageSize: 5, ...extra(ctx) }));
    }
  }
  return cases;
}

/** sha256 of every row of every resource table, ordered by id. */
async function digest(t: TestApp): Promise<string> {
  const h = createHash('sha256');
  for (const table of TABLES) {
    const rows = await t.app.db
      .selectFrom(table as any)
      .selectAll()
      .orderBy('id' as any)
      .execute();
    h.update(table + JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? String(v) : v)));
  }
  return h.digest('hex');
}

/** `s` with every character outside printable ASCII written as \uXXXX (readable counter-examples). */
const ascii = (s: string) =>
  s.replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Figures of the run, printed at the end. */
const figures = { requests: 0, fiveXx: 0, acceptedInvalid: 0, unnamedRefusals: 0, digestChanged: 0 };
/** Failing `call field` pairs by class (every failing run, shrinking included), printed at the end. */
const failing = new Map<string, Map<string, { where: Set<string>; example: string }>>();

/** Records a failure of class `cls` at `c` (kind: the failure's text up to its first colon). */
function record(cls: string, c: Case, failure: string) {
  const kind = failure.slice(0, failure.indexOf(':'));
  if (!failing.has(cls)) failing.set(cls, new Map());
  const byKind = failing.get(cls)!;
  if (!byKind.has(kind)) byKind.set(kind, { where: new Set(), example: failure.slice(0, 400) });
  byKind.get(kind)!.where.add(`${c.call} ${c.m.field || '(body)'}`);
}

const cases = allCases();
const classes = [...new Set(cases.map((c) => c.m.cls))].sort();

/** The resources a property of `s` refers to (`x-references`, `x-ui.reference`), at any depth. */
function referencedBy(s: ResourceSchema): Set<string> {
  const out = new Set<string>();
  const walk = (p: Json) => {
    if (!p || typeof p !== 'object') return;
    if (typeof p['x-references']?.resource === 'string') out.add(p['x-references'].resource);
    if (typeof p['x-ui']?.reference === 'string') out.add(p['x-ui'].reference);
    for (const q of Object.values<Json>(p.properties ?? {})) walk(q);
    walk(p.items);
  };
  for (const p of Object.values<Json>(s.properties)) walk(p);
  return out;
}

/** Stored resources without a create call whose rows the fuzz inserts itself (platform users, categories). */
const INSERTED = ['platformUsers', 'artCategories'];

/**
 * The resources the fuzz makes records of, from the registry: those with a create call and
 * {@link INSERTED}, each after the resources it refers to (a cycle, which a foreign key would forbid,
 * is broken in registry order).
 */
function seedOrder(): string[] {
  const names = new Set(storedSchemas.map((s) => s['x-resource']!.name));
  const todo = storedSchemas.filter(
    (s) => s['x-endpoints']!.create || INSERTED.includes(s['x-resource']!.name),
  );
  const order: string[] = [];
  while (todo.length) {
    const ready = (s: ResourceSchema) =>
      [...referencedBy(s)].every((r) => !names.has(r) || order.includes(r) || r === s['x-resource']!.name);
    const i = Math.max(0, todo.findIndex(ready));
    order.push(todo.splice(i, 1)[0]['x-resource']!.name);
  }
  return order;
}

describe(`fuzz (${DB})`, () => {
  let t: TestApp;
  const ids: Record<string, number[]> = {};
  let before = '';

  /** Makes two records of every resource (bid and platform users inserted: they have no create call). */
  async function seedRecords() {
    for (const name of Object.keys(ids)) delete ids[name];
    for (const name of seedOrder()) {
      const s = storedSchemas.find((x) => x['x-resource']!.name === name);
      if (!s) continue;
      const table = s['x-storage']!.table as string;
      const got: number[] = [];
      for (let i = 0; i < 3; i++) {
        const create = s['x-endpoints']!.create;
        if (create) {
          const [body] = fc.sample(validBody(s, ids), {
            numRuns: 1,
            seed: SEED + i + got.length * 7 + name.length,
          });
          const res = await t.app.inject({
            method: 'POST',
            url: create.path,
            payload: body,
            headers: { 'x-token': t.adminToken },
          });
          expect(res.json().code, res.body).toBe(0);
          got.push(res.json().data.id);
        } else {
          const values: Json =
            name === 'artCategories'
              ? { name: `cat${i}${Date.now()}` }
              : {
                  uid: `u${i}${Date.now()}`,
                  account: `acc${i}${Date.now()}`,
                  nickname: `N ${i}`,
                  registerTime: nowText(),
                };
          const row = await t.app.db
            .insertInto(table as any)
            .values(values)
            .returning('id' as any)
            .executeTakeFirstOrThrow();
          got.push((row as any).id);
        }
      }
      ids[name] = got;
    }
    // Audit entries have no create call: the writes above made them.
    const audit = await t.app.db
      .selectFrom('audit_log' as any)
      .select('id' as any)
      .orderBy('id' as any)
      .limit(3)
      .execute();
    ids.auditEntries = audit.map((r: any) => Number(r.id));
  }

  beforeAll(async () => {
    t = await createTestApp();
    await seedRecords();
    before = await digest(t);
  }, 60_000);

  afterAll(async () => {
    console.log(
      `fuzz figures (${DB}, seed ${SEED}, ${RUNS} runs/class): ${figures.requests} requests, ${figures.fiveXx} 5xx, ` +
        `${figures.acceptedInvalid} accepted-invalid, ${figures.unnamedRefusals} unnamed refusals, ` +
        `${figures.digestChanged} refusals that changed a table`,
    );
    for (const [cls, byKind] of failing)
      for (const [kind, { where, example }] of byKind)
        console.log(
          `  ${cls} / ${kind} at ${where.size} call/field pairs: ${[...where].slice(0, 12).join('; ')}\n    e.g. ${example}`,
        );
    await t?.close();
  });

  /** Sends one case; returns the failure found (a string) or null. */
  async function run(c: Case, base: Json): Promise<string | null> {
    const req = c.build({ ids, base });
    const res = await t.app.inject({
      method: req.method,
      url: req.url,
      headers: {
        'x-token': t.adminToken,
        ...(req.body !== undefined ? { 'content-type': req.contentType ?? 'application/json' } : {}),
      },
      ...(req.body !== undefined ? { payload: req.body } : {}),
    });
    figures.requests++;
    const status = res.statusCode;
    let body: any;
    try {
      body = res.json();
    } catch {
      body = undefined;
    }
    const what = ascii(
      `${c.call} ${c.m.cls} ${c.m.field || '(body)'}=${JSON.stringify(c.m.bad).slice(0, 120)} -> ${status} ${res.body.slice(0, 300)}`,
    );
    if (status >= 500) {
      figures.fiveXx++;
      return `5xx: ${what}`;
    }
    if (status >= 400) {
      const fields: string[] = (body?.data?.errors ?? []).map((e: any) => String(e.field));
      // A value the field itself allows (e.g. -0 for a year) may still break a rule between fields, which
      // names the object holding them (x-ordered): then an ancestor is named.
      const named = fields.some(
        (f) =>
          f === c.m.field ||
          (c.m.field !== '' && f.startsWith(`${c.m.field}.`)) ||
          (!c.m.mustRefuse && f !== '' && c.m.field.startsWith(`${f}.`)),
      );
      const envelopeOk = body && body.code === status && typeof body.msg === 'string';
      if (!envelopeOk || !named) {
        // A uniqueness clash of the valid part (x-unique) is not the malformation's refusal.
        if (status === 409 && c.m.field !== '' && !fields.includes(c.m.field)) return null;
        figures.unnamedRefusals++;
        return `refusal not naming "${c.m.field}": ${what}`;
      }
      const after = await digest(t);
      if (after !== before) {
        figures.digestChanged++;
        before = after;
        return `a refusal changed the stored tables: ${what}`;
      }
      return null;
    }
    // Accepted.
    const failure = await acceptedFailure(c, body, what);
    before = await digest(t);
    if (c.kind === 'delete') await seedRecords().then(async () => void (before = await digest(t)));
    if (failure) figures.acceptedInvalid++;
    return failure;
  }

  async function acceptedFailure(c: Case, body: any, what: string): Promise<string | null> {
    if (c.m.mustRefuse) return `accepted-invalid: ${what}`;
    if (c.kind !== 'create' && c.kind !== 'update') return null;
    const getOne = c.schema['x-endpoints']!.getOne!;
    const id = body?.data?.id;
    const res = await t.app.inject({
      method: 'GET',
      url: `${getOne.path}?${getOne.id ?? 'id'}=${id}`,
      headers: { 'x-token': t.adminToken },
    });
    const breaches = storedBreaches(res.json().data, c.schema);
    return breaches.length ? `accepted-invalid (stored ${breaches.join('; ')}): ${what}` : null;
  }

  for (const cls of classes) {
    const mine = cases.filter((c) => c.m.cls === cls);
    const known = KNOWN[cls]?.on.includes(DB);
    it(`${cls}: ${mine.length} malformations over ${new Set(mine.map((c) => c.call)).size} calls${known ? ' (known failing)' : ''}`, async () => {
      const byResource = new Map(storedSchemas.map((s) => [s.$id, validBody(s, ids)]));
      const arb = fc
        .constantFrom(...mine)
        .chain((c) => fc.tuple(fc.constant(c), byResource.get(c.schema.$id)!));
      const numRuns = Math.min(RUNS, mine.length * 3);
      // Every sampled case is sent (failures recorded, not stopping at the first); fast-check then
      // shrinks to the smallest failing case when there was one.
      let failed = false;
      for (const [c, base] of fc.sample(arb, { seed: SEED, numRuns })) {
        const failure = await run(c, base);
        if (failure) {
          record(cls, c, failure);
          failed = true;
        }
      }
      const prop = fc.asyncProperty(arb, async ([c, base]) => {
        const failure = await run(c, base);
        if (failure) {
          record(cls, c, failure);
          throw new Error(failure);
        }
      });
      if (known) {
        // With another seed a listed class may by chance sample no failing case: only the default run says
        // that a listed class now passes.
        if (process.env.FUZZ_SEED === undefined)
          expect(failed, `${cls} now passes on ${DB}: remove it from KNOWN_FAILING_CLASSES`).toBe(true);
        return;
      }
      if (!failed) return;
      const result = await fc.check(prop, { seed: SEED, numRuns });
      const where = [...failing.get(cls)!]
        .map(([kind, f]) => `${kind} at ${[...f.where].join(', ')}`)
        .join('; ');
      if (!result.failed) throw new Error(`${cls} failed on ${DB} (seed ${SEED}) at: ${where}`);
      const [, base] = result.counterexample![0] as [Case, Json];
      throw new Error(
        `${cls} failed on ${DB} (seed ${SEED}, shrunk after ${result.numShrinks} shrinks):\n` +
          `${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}\n` +
          `valid part: ${JSON.stringify(base).slice(0, 300)}\nfailing call/field pairs: ${where}`,
      );
    }, 60_000);
  }
});

it('fuzzes every write and list call of every stored resource', () => {
  const calls = new Set(cases.map((c) => c.call));
  for (const s of storedSchemas) {
    const e = s['x-endpoints']!;
    for (const v of ['create', 'update', 'delete', 'deleteMany', 'getList', 'search', 'getMany'] as const)
      if (e[v]) expect(calls, `${s.$id}.${v}`).toContain(`${e[v]!.method} ${e[v]!.path}`);
  }
  expect(NUMBER_TOKENS).toContain('1e400');
});

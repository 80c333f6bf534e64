/**
 * The API side of schema fuzzing (tests/browser/schema-fuzz.test.ts): for one generated resource schema
 * (tests/support/schemaArbitraries.ts) and a running server built from it, the checks of issue 18 item 5,
 * each failure written down (not thrown) so one run reports every problem of every schema:
 * - valid records (from `recordArbitrary`) round-trip every field: create answers them (omitted optional
 *   fields as their `default`, null when nullable, else left out), getOne answers the same record;
 * - `x-count` fields answer the count the record alone tells (`knownCounts`);
 * - update of one field changes that field only (every other field read back unchanged, but the
 *   revision and `write` timestamps, `touchedByWrites`); a `writeOnly` field is never answered;
 * - getList with an equality filter (`x-ui.filter`) or free text `q`, and a sort (`x-ui.sortable`), lists
 *   the record, only matching records, in order (numbers and dates; text order is the database's);
 * - delete removes it (getOne 404 afterwards);
 * - updateMany, when declared, sets one field on every record at once and refuses an invalid value of it
 *   naming `data.<field>` (`checkUpdateMany`);
 * - an invalid body (`invalidCases`) is refused with 400 naming the field in `data.errors[].field`, with
 *   Accept-Language en and zh, the message naming the field by its label in that language (x-i18n), and
 *   nothing stored.
 */
import fc from 'fast-check';
import type { Envelope } from '../../common/envelope';
import { invalidCases, recordArbitrary, valueArb, withDefaults, writable } from './recordArbitraries';

type Json = Record<string, any>;

export interface ApiTarget {
  url: string;
  /** The admin's token. */
  token: string;
}

/** An answer: the HTTP status and the envelope (a body that is no JSON as `code: -1`, its start as `msg`). */
export interface Answer {
  status: number;
  body: Envelope<Json>;
}

/** One call with the admin token; `lang` sets Accept-Language. */
export async function call(
  t: ApiTarget,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  lang: 'en' | 'zh' = 'en',
): Promise<Answer> {
  const res = await fetch(t.url + path, {
    method,
    headers: {
      'X-Token': t.token,
      'Accept-Language': lang === 'zh' ? 'zh-CN,zh;q=0.9' : 'en-US,en;q=0.9',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as Envelope<Json> };
  } catch {
    return { status: res.status, body: { code: -1, msg: text.slice(0, 200), data: {} } };
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const show = (v: unknown) => JSON.stringify(v)?.slice(0, 160);
const typeOf = (p: Json) => ([] as string[]).concat(p.type ?? 'string').find((t) => t !== 'null');

/**
 * What the API answers for `field` after a create with `record` (docs/api.md "Types"): the value sent
 * (an absent property of a nested object as its default), else the default, else null for a nullable
 * field, else nothing (the field left out).
 */
function expected(p: Json, record: Json, field: string, defs: Json): unknown {
  if (p.writeOnly) return undefined;
  if (record[field] !== undefined) return withDefaults(defs, record[field], p);
  if (p.default !== undefined) return p.default;
  return ([] as string[]).concat(p.type ?? []).includes('null') ? null : undefined;
}

/** A query string from list parameters (booleans and numbers as text). */
const query = (params: Json) =>
  Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');

/**
 * The fields of `schema` every write may change on its own: the kernel's `revision` (If-Match) and the
 * `write` timestamps of `x-storage`.
 */
export function touchedByWrites(schema: Json): Set<string> {
  const stamps = Object.entries<string>(schema['x-storage']?.timestamps ?? {});
  return new Set(['revision', ...stamps.filter(([, when]) => when === 'write').map(([k]) => k)]);
}

/**
 * The fields an update of `field` changes besides it: the display fields joined through it
 * (`x-storage.display`) and the counts keyed by it (`x-count.key`).
 */
export function changedWith(schema: Json, field: string): Set<string> {
  const display = Object.entries<Json>(schema['x-storage']?.display ?? {});
  const counts = Object.entries<Json>(schema.properties).filter(([, p]) => p['x-count']?.key === field);
  return new Set([
    ...display.filter(([, d]) => d.reference === field).map(([k]) => k),
    ...counts.map(([k]) => k),
  ]);
}

/**
 * What the `x-count` fields of `schema` answer for `stored` when the count is known from the record alone:
 * `{ resource: <itself>, field: 'id' }` (1, the record itself) and `{ field: 'id', key }` over another
 * resource (1 when `key` holds an id, else 0); other counts are left out.
 */
function knownCounts(schema: Json, name: string, stored: Json): [string, number][] {
  return Object.entries<Json>(schema.properties).flatMap(([f, p]) => {
    const c = p['x-count'];
    if (!c || c.field !== 'id') return [];
    if (c.resource === name && (c.key ?? 'id') === 'id') return [[f, 1] as [string, number]];
    if (c.resource !== name && c.key) return [[f, stored[c.key] == null ? 0 : 1] as [string, number]];
    return [];
  });
}

/**
 * Runs every check on `schema` against `t`; resolves the problems found (empty: all passed), each
 * `<resource> <step>: <what>`. `refIds` gives existing ids per referenced resource, `seed` the records.
 */
export async function checkResourceApi(
  t: ApiTarget,
  schema: Json,
  refIds: Record<string, number[]>,
  seed: number,
): Promise<string[]> {
  const problems: string[] = [];
  const name = schema['x-resource'].name as string;
  const ep = schema['x-endpoints'] as Record<string, { method: 'GET' | 'POST'; path: string }>;
  const fail = (step: string, what: string) => problems.push(`${name} ${step}: ${what}`);
  const props = writable(schema);
  const getOne = (id: number) => call(t, 'GET', `${ep.getOne.path}?id=${id}`);
  const list = (params: Json) => call(t, 'GET', `${ep.getList.path}?${query(params)}`);
  const total = async () => (await list({ page: 1, pageSize: 1 })).body.data?.total as number | undefined;

  // Distinct records: values of x-unique fields differ between them.
  const unique = props.filter(([, p]) => p['x-unique']).map(([k]) => k);
  const records = fc
    .sample(recordArbitrary(schema, refIds), { numRuns: 30, seed })
    .filter((r, i, all) => unique.every((u) => all.findIndex((o) => same(o[u], r[u])) === i))
    .slice(0, 3);

  for (const [n, record] of records.entries()) {
    const created = await call(t, 'POST', ep.create.path, record);
    if (created.status !== 200 || created.body.code !== 0) {
      fail(`create #${n}`, `${created.status} ${show(created.body)} for ${show(record)}`);
      continue;
    }
    const stored = created.body.data as Json;
    const id = stored.id as number;
    for (const [f, p] of props) {
      const want = expected(p, record, f, schema.definitions ?? {});
      if (!same(stored[f], want) || (want === undefined && f in stored))
        fail(`create #${n}`, `${f} sent ${show(record[f])}, answered ${show(stored[f])}`);
    }
    for (const [f, want] of knownCounts(schema, name, stored))
      if (stored[f] !== want) fail(`x-count #${n}`, `${f} answered ${show(stored[f])}, expected ${want}`);
    const one = await getOne(id);
    if (one.status !== 200) fail(`getOne #${n}`, `${one.status} ${show(one.body)}`);
    else
      for (const [f] of props)
        if (!same(one.body.data[f], stored[f]))
          fail(`getOne #${n}`, `${f} created as ${show(stored[f])}, read as ${show(one.body.data[f])}`);

    // update of one field: only that field changes
    const [field, p] = props[(seed + n) % props.length];
    const pair = ((schema['x-ordered'] ?? []) as [string, string][]).find((pr) => pr.includes(field));
    const partner = pair ? stored[pair[0] === field ? pair[1] : pair[0]] : undefined;
    const candidates = fc.sample(valueArb(p, refIds, schema.definitions), {
      numRuns: 20,
      seed: seed + 1000 + n,
    });
    const value =
      partner !== undefined && partner !== null
        ? partner
        : (candidates.find((v) => !same(v, stored[field])) ?? candidates[0]);
    const before = (await getOne(id)).body.data as Json;
    const updated = await call(t, 'POST', ep.update.path, { id, [field]: value });
    if (updated.status !== 200 || updated.body.code !== 0)
      fail(`update #${n} ${field}`, `${updated.status} ${show(updated.body)} for ${show(value)}`);
    else {
      const after = (await getOne(id)).body.data as Json;
      if (!p.writeOnly && !same(after[field], value))
        fail(`update #${n}`, `${field} set to ${show(value)}, read ${show(after[field])}`);
      const touched = new Set([...touchedByWrites(schema), ...changedWith(schema, field)]);
      for (const k of Object.keys(before))
        if (k !== field && !touched.has(k) && !same(after[k], before[k]))
          fail(`update #${n} ${field}`, `${k} changed from ${show(before[k])} to ${show(after[k])}`);
    }
    const current = (await getOne(id)).body.data as Json;

    // list with a filter and a sort
    const filters = props.filter(([, q]) => q['x-ui']?.filter === true);
    const sortable = Object.entries<Json>(schema.properties).filter(([, q]) => q['x-ui']?.sortable);
    const [sortField, sortProp] = sortable[(seed + n) % sortable.length];
    const params: Json = { page: 1, pageSize: 100, sort: sortField, order: 'ASC' };
    const [filterField] = filters.find(([k]) => current[k] !== null && current[k] !== undefined) ?? [];
    if (filterField) params[filterField] = current[filterField];
    else if (schema.properties.title['x-ui']?.filter === 'q')
      params.q = String(current.title).slice(1, 4).trim() || current.title;
    const listed = await list(params);
    if (listed.status !== 200) fail(`getList ${query(params)}`, `${listed.status} ${show(listed.body)}`);
    else {
      const rows = (listed.body.data?.list ?? []) as Json[];
      if (!rows.some((r) => r.id === id)) fail(`getList ${query(params)}`, `record ${id} not listed`);
      if (filterField && rows.some((r) => !same(r[filterField], current[filterField])))
        fail(`getList ${query(params)}`, `a row does not match ${filterField}=${show(current[filterField])}`);
      const ordered =
        ['integer', 'number'].includes(typeOf(sortProp)!) || sortProp.format?.startsWith('date');
      const keys = rows.map((r) => r[sortField]).filter((v) => v !== null && v !== undefined);
      if (ordered && keys.some((v, i) => i > 0 && keys[i - 1] > v))
        fail(`getList ${query(params)}`, `not sorted by ${sortField}: ${show(keys)}`);
    }

    // refused bodies, in both languages, and nothing stored
    const count = await total();
    for (const c of invalidCases(schema, record)) {
      for (const lang of ['en', 'zh'] as const) {
        const r = await call(t, 'POST', ep.create.path, c.body, lang);
        const fields = ((r.body.data?.errors ?? []) as { field: string }[]).map((e) => e.field);
        const label = (schema.properties[c.field]['x-i18n'] ?? {})[lang] as string | undefined;
        if (r.status !== 400) fail(`refuse ${c.field} (${c.why}, ${lang})`, `${r.status} ${show(r.body)}`);
        else if (
          !fields.some((f) => f === c.field || f.startsWith(`${c.field}.`) || f.startsWith(`${c.field}[`))
        )
          fail(`refuse ${c.field} (${c.why}, ${lang})`, `errors name ${show(fields)}: ${show(r.body.msg)}`);
        // the message names the field by its label in the language asked
        else if (label && !r.body.msg.includes(label))
          fail(
            `refuse ${c.field} (${c.why}, ${lang})`,
            `the message does not name "${label}": ${show(r.body.msg)}`,
          );
      }
    }
    if ((await total()) !== count)
      fail('refusals', `the record count changed from ${count} to ${await total()}`);

    const gone = await call(t, 'POST', ep.delete.path, { id });
    if (gone.status !== 200 || gone.body.code !== 0)
      fail(`delete #${n}`, `${gone.status} ${show(gone.body)}`);
    else if ((await getOne(id)).status !== 404) fail(`delete #${n}`, `getOne ${id} still answers`);
  }
  if (!records.length) fail('records', 'the record arbitrary produced nothing');
  if (ep.updateMany) await checkUpdateMany(t, schema, refIds, seed, records, fail);
  return problems;
}

/**
 * updateMany (`x-endpoints.updateMany`, `{<ids>, data}`): the records created again, one field set on all
 * of them at once (a field no pair rule or unique rule ties to another), every other field unchanged; an
 * invalid value of it is refused naming `data.<field>`, and changes nothing. The records are deleted after.
 */
async function checkUpdateMany(
  t: ApiTarget,
  schema: Json,
  refIds: Record<string, number[]>,
  seed: number,
  records: Json[],
  fail: (step: string, what: string) => void,
): Promise<void> {
  const ep = schema['x-endpoints'];
  const getOne = async (id: number) => (await call(t, 'GET', `${ep.getOne.path}?id=${id}`)).body.data as Json;
  const ids: number[] = [];
  for (const r of records) {
    const made = await call(t, 'POST', ep.create.path, r);
    if (made.status === 200) ids.push(made.body.data.id as number);
  }
  const paired = new Set(
    [...(schema['x-ordered'] ?? []), ...(schema['x-distinct'] ?? [])].flat() as string[],
  );
  const fields = writable(schema).filter(([k, p]) => !paired.has(k) && !p['x-unique'] && !p.writeOnly);
  if (ids.length && fields.length) {
    const [field, p] = fields[seed % fields.length];
    const [value] = fc.sample(valueArb(p, refIds, schema.definitions), { numRuns: 1, seed: seed + 7 });
    const before = await Promise.all(ids.map(getOne));
    const body = { [ep.updateMany.ids ?? 'ids']: ids, data: { [field]: value } };
    const res = await call(t, 'POST', ep.updateMany.path, body);
    if (res.status !== 200 || !same(res.body.data?.ids, ids))
      fail(`updateMany ${field}`, `${res.status} ${show(res.body)} for ${show(value)}`);
    const touched = new Set([...touchedByWrites(schema), ...changedWith(schema, field)]);
    for (const [i, id] of ids.entries()) {
      const after = await getOne(id);
      for (const k of Object.keys(before[i]))
        if (k === field ? !same(after[k], value) : !touched.has(k) && !same(after[k], before[i][k]))
          fail(`updateMany ${field}`, `record ${id}: ${k} was ${show(before[i][k])}, read ${show(after[k])}`);
    }
    const bad = invalidCases(schema, { [field]: value }).find((c) => c.field === field && field in c.body);
    if (bad) {
      const now = await Promise.all(ids.map(getOne));
      const r = await call(t, 'POST', ep.updateMany.path, { ...body, data: { [field]: bad.body[field] } });
      const named = ((r.body.data?.errors ?? []) as { field: string }[]).map((e) => e.field);
      if (r.status !== 400 || !named.some((f) => f === `data.${field}` || f.startsWith(`data.${field}.`)))
        fail(`updateMany refuse ${field} (${bad.why})`, `${r.status} ${show(r.body)}`);
      if (!same(await Promise.all(ids.map(getOne)), now))
        fail(`updateMany refuse ${field} (${bad.why})`, 'a record changed');
    }
  }
  for (const id of ids) await call(t, 'POST', ep.delete.path, { id });
}

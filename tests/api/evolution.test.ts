/**
 * Schema evolution (issue 33 item 3; README "Changing a schema"), on SQLite and, with TEST_DATABASE_URL,
 * on PostgreSQL: a test resource (`evoItems`, table `evo_items`) gets records with history through the
 * generic repository, then its schema is edited and the migration the storage codegen writes
 * (scripts/codegen/storage.ts) runs through the real runner (server/db/migrator.ts):
 * - a tightened rule (maxLength, enum) refuses the migration naming each rule's rows by id, in the plan
 *   (`planMigrations`, as `codegen --plan` runs it) and at `up()`; the refused migration leaves the
 *   database as it was;
 * - with `x-onBreak`, the same edit passes: a renamed field keeps every value and its history (the
 *   History of a record shows the old values under the new name), a removed field's values are in
 *   `removed_values`, integer → number and date → date-time convert, new fields get their default or
 *   `x-fill`; renamed fields keep what they were: the free-text search finds the renamed field's values
 *   (old ones, those the migration fixed, and those written after it), a unique one refuses duplicates, a
 *   reference one unknown ids, and a later migration making the unique one plain finds its constraint;
 * - a table renamed (`x-storage.renamedFrom`) keeps its rows; a table removed (`--remove-table`) is kept
 *   as `removed_<table>`.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sql, type Migration } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceSchemas, type ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { revisionsOf } from '../../kernel/server/history';
import { resourceModels } from '../../kernel/server/model';
import { Repository } from '../../kernel/server/repository';
import {
  diffStorage,
  evolutionHints,
  migrationSource,
  storageSnapshot,
  type StorageSnapshot,
} from '../../scripts/codegen/storage';
import { migrateToLatest, planMigrations } from '../../server/db/migrator';
import { migrations } from '../../server/db/migrations/index';
import { landedSnapshot } from '../support/tateEvolution';
import { createTestApp, type TestApp } from './helpers';

const root = resolve(__dirname, '../..');
/** The storage snapshot the landed migrations produce. */
const snapshot = landedSnapshot();
const actor = { accountId: null, account: 'tester', call: 'POST /test' };
const label = (en: string) => ({ en, zh: en });

/** The test resource's schema: `props` and `extra` root keywords over a minimal resource. */
function evo(
  props: Record<string, object>,
  extra: Record<string, unknown> = {},
  table = 'evo_items',
): ResourceSchema {
  return {
    $schema: './meta.schema.json',
    // The registry's id of a schema without cross-field rules: the repository's update looks its
    // cross-field rules up by id in the registry, which does not hold this test's schema.
    $id: 'artCategory',
    title: 'EvoItem',
    type: 'object',
    'x-roles': ['admin'],
    'x-resource': { name: 'evoItems', recordRepresentation: 'id' },
    'x-i18n': label('Evo item |||| Evo items'),
    'x-endpoints': {},
    // the free-text index (FTS5 on SQLite, `<table>_search` on PostgreSQL) of the `x-ui.filter: "q"` fields
    'x-storage': { table, search: { index: 'trigram' } },
    additionalProperties: false,
    properties: { id: { type: 'integer', readOnly: true, 'x-i18n': label('ID') }, ...props },
    ...extra,
  } as unknown as ResourceSchema;
}

const V1 = {
  title: { type: 'string', maxLength: 100, 'x-ui': { filter: 'q' }, 'x-i18n': label('Title') },
  code: { type: 'string', 'x-unique': true, 'x-i18n': label('Code') },
  parent: { type: ['integer', 'null'], 'x-references': { resource: 'evoItems' }, 'x-i18n': label('Parent') },
  kind: { type: 'string', 'x-i18n': label('Kind') },
  price: { type: 'integer', 'x-i18n': label('Price') },
  note: { type: 'string', 'x-i18n': label('Note') },
  day: { type: 'string', format: 'date', 'x-i18n': label('Day') },
};
/** Every edit kind at once: rename, remove, retype, date → date-time, new fields, tightened rules. */
const V2 = {
  name: {
    type: 'string',
    maxLength: 5,
    'x-renamedFrom': 'title',
    'x-ui': { filter: 'q' },
    'x-i18n': label('Name'),
  },
  ref: { type: 'string', 'x-unique': true, 'x-renamedFrom': 'code', 'x-i18n': label('Ref') },
  up: {
    type: ['integer', 'null'],
    'x-references': { resource: 'evoItems' },
    'x-renamedFrom': 'parent',
    'x-i18n': label('Up'),
  },
  kind: { type: 'string', enum: ['a', 'b'], 'x-i18n': label('Kind') },
  price: { type: 'number', 'x-i18n': label('Price') },
  day: { type: 'string', format: 'date-time', 'x-i18n': label('Day') },
  tag: { type: 'string', 'x-i18n': label('Tag') },
  status: { type: 'integer', default: 3, 'x-i18n': label('Status') },
  origin: { type: 'string', 'x-fill': 'unknown', 'x-i18n': label('Origin') },
};
const V2_REQUIRED = { required: ['name', 'kind', 'price', 'status', 'origin'] };
/** V2, then `ref` no longer unique. */
const V2B = { ...V2, ref: { type: 'string', 'x-i18n': label('Ref') } };

let t: TestApp;
let n = 0;
const dir = join(root, '.tmp');
const files: string[] = [];
/** The migration from `before` to `schemas`, written and imported as codegen would (a name of its own). */
async function migrationFor(before: StorageSnapshot, schemas: ResourceSchema[], removeTables: string[] = []) {
  const after = storageSnapshot(resourceModels(schemas).values());
  const steps = diffStorage(before, after, evolutionHints(schemas, removeTables));
  const name = `20991231T${String(2300 + n++)}_evo`;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `evo-${process.pid}-${name}.ts`);
  files.push(file);
  writeFileSync(file, migrationSource(name, steps));
  return { name, module: (await import(file)) as Migration & { steps: string[] }, after };
}
const all = (s: ResourceSchema) => [...resourceSchemas(), s];
const repoOf = (s: ResourceSchema) => {
  const models = resourceModels(all(s));
  return new Repository<Record<string, unknown>>(models.get('evoItems')! as never, models, t.app.dialect);
};
const rows = async (table = 'evo_items') =>
  (await sql.raw<Record<string, unknown>>(`SELECT * FROM "${table}" ORDER BY id`).execute(t.app.db)).rows;

let list: Record<string, Migration> = { ...migrations };
let state: StorageSnapshot = snapshot;
const ids: number[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const v1 = evo(V1, { required: ['title', 'kind', 'price'] });
  const m = await migrationFor(snapshot, all(v1));
  list = { ...list, [m.name]: m.module };
  await migrateToLatest(t.app.db, list);
  state = m.after;
  const repo = repoOf(v1);
  const data = [
    { title: 'Short', kind: 'a', price: 10, note: 'kept 1', day: '2024-01-02' },
    { title: 'A much longer title', kind: 'c', price: 20, day: '2024-02-03' },
    { title: 'Ok', kind: 'b', price: 30, note: 'kept 3' },
    { title: 'Another long one', kind: 'z', price: 40 },
  ];
  for (const [i, d] of data.entries())
    ids.push((await repo.create(t.app.db, { ...d, code: `c${i}` }, actor)).id as number);
  await repo.update(t.app.db, { id: ids[0], title: 'Tiny' }, actor);
  await repo.update(t.app.db, { id: ids[1], parent: ids[0] }, actor);
});
afterAll(async () => {
  for (const f of files) rmSync(f, { force: true });
  await t?.close();
});

describe('a schema edit on a database with data', () => {
  it('is refused while rows break a tightened rule, naming them by id, and changes nothing', async () => {
    const v2 = evo(V2, { ...V2_REQUIRED, 'x-removed': ['note'] });
    const m = await migrationFor(state, all(v2));
    const before = await rows();
    const plans = await planMigrations(t.app.db, list, m);
    expect(plans.map((p) => p.name)).toEqual([m.name]);
    const broken = Object.fromEntries(
      plans[0].checks.filter((c) => c.ids.length).map((c) => [`${c.column} ${c.rule}`, c.ids]),
    );
    expect(broken).toEqual({
      'name maxLength': [ids[1], ids[3]],
      'kind enum': [ids[1], ids[3]],
      'origin required': ids,
    });
    expect(plans[0].refused).toMatch(/evo_items\.name maxLength 5: 2 row\(s\)/);
    expect(await rows()).toEqual(before); // the plan wrote nothing
    const refused = await migrateToLatest(t.app.db, { ...list, [m.name]: m.module }).catch((e: Error) => e);
    expect((refused as Error).message).toContain(`ids ${ids[1]}, ${ids[3]}`);
    expect(await rows()).toEqual(before);
  });

  it('with x-onBreak, keeps every value, the renamed field history, and archives the removed one', async () => {
    const v2 = evo(V2, {
      ...V2_REQUIRED,
      'x-removed': ['note'],
      'x-onBreak': { name: { truncate: true }, kind: { set: 'a' } },
    });
    const m = await migrationFor(state, all(v2));
    list = { ...list, [m.name]: m.module };
    await migrateToLatest(t.app.db, list);
    state = m.after;
    const repo = repoOf(v2);
    const got = await Promise.all(ids.map((id) => repo.getOne(t.app.db, id)));
    expect(got.map((r) => [r.name, r.kind, r.price, r.status, r.origin, r.day ?? null])).toEqual([
      ['Tiny', 'a', 10, 3, 'unknown', '2024-01-02T00:00:00Z'],
      ['A muc', 'a', 20, 3, 'unknown', '2024-02-03T00:00:00Z'],
      ['Ok', 'b', 30, 3, 'unknown', null],
      ['Anoth', 'a', 40, 3, 'unknown', null],
    ]);
    expect(got[0]).not.toHaveProperty('note');
    // price is a number now: a fraction is kept
    await repo.update(t.app.db, { id: ids[2], price: 30.5 }, actor);
    expect((await repo.getOne(t.app.db, ids[2])).price).toBe(30.5);
    const archived = (
      await sql<{
        recordId: number;
        value: string;
      }>`SELECT "recordId", value FROM removed_values WHERE "tableName" = 'evo_items' ORDER BY "recordId"`.execute(
        t.app.db,
      )
    ).rows;
    expect(archived.map((r) => [Number(r.recordId), r.value])).toEqual([
      [ids[0], 'kept 1'],
      [ids[2], 'kept 3'],
    ]);
    const history = await revisionsOf(t.app.db, repo as never, ids[0]);
    const update = history.find((r) => r.operation === 'update')!;
    // written before the rename: the field's name then is told (History: "then named title")
    expect(update.changes).toContainEqual({
      field: 'name',
      before: 'Short',
      after: 'Tiny',
      formerly: 'title',
    });
    expect(history.at(-1)!.state).toMatchObject({ name: 'Short' });

    // the renamed fields keep what they were: search, unique, reference
    expect(got.map((r) => [r.ref, r.up ?? null])).toEqual([
      ['c0', null],
      ['c1', ids[0]],
      ['c2', null],
      ['c3', null],
    ]);
    const found = async (q: string) => (await repo.list(t.app.db, { q })).list.map((r) => r.id);
    expect(await found('Tiny')).toEqual([ids[0]]);
    expect(await found('A muc')).toEqual([ids[1]]); // truncated by the migration, after the rename
    await repo.update(t.app.db, { id: ids[3], name: 'Zebra' }, actor);
    expect(await found('Zebr')).toEqual([ids[3]]);
    expect(await found('Anoth')).toEqual([]);
    await repo.update(t.app.db, { id: ids[3], name: 'Anoth' }, actor);
    expect(await found('Zebr')).toEqual([]);
    const raw = (text: string) => sql.raw(text).execute(t.app.db);
    await expect(raw(`UPDATE evo_items SET ref = 'c0' WHERE id = ${ids[1]}`)).rejects.toThrow();
    await expect(raw(`UPDATE evo_items SET up = 999999 WHERE id = ${ids[1]}`)).rejects.toThrow();

    // a later migration finds the renamed field's unique constraint under its new name
    const plain = await migrationFor(
      state,
      all(evo(V2B, { ...V2_REQUIRED, 'x-onBreak': { name: { truncate: true }, kind: { set: 'a' } } })),
    );
    list = { ...list, [plain.name]: plain.module };
    await migrateToLatest(t.app.db, list);
    state = plain.after;
    await raw(`UPDATE evo_items SET ref = 'c0' WHERE id = ${ids[1]}`);
    expect((await rows()).map((r) => r.ref)).toEqual(['c0', 'c0', 'c2', 'c3']);
  });

  it('renames a table keeping its rows, and removes one only when asked, keeping its rows', async () => {
    const v3 = evo(V2B, { ...V2_REQUIRED }, 'evo_things');
    (v3['x-storage'] as Record<string, unknown>).renamedFrom = 'evo_items';
    const m = await migrationFor(state, all(v3));
    list = { ...list, [m.name]: m.module };
    await migrateToLatest(t.app.db, list);
    state = m.after;
    expect((await rows('evo_things')).map((r) => r.name)).toEqual(['Tiny', 'A muc', 'Ok', 'Anoth']);
    const repo = repoOf(v3);
    const was = (await repo.getOne(t.app.db, ids[1])).revision as number;
    await repo.update(t.app.db, { id: ids[1], name: 'Renam' }, actor);
    expect((await repo.getOne(t.app.db, ids[1])).revision).toBe(was + 1); // the revision trigger follows

    expect(() => diffStorage(state, snapshot, evolutionHints(resourceSchemas()))).toThrow(
      /--remove-table evo_things/,
    );
    const gone = await migrationFor(state, resourceSchemas(), ['evo_things']);
    list = { ...list, [gone.name]: gone.module };
    await migrateToLatest(t.app.db, list);
    expect((await rows('removed_evo_things')).length).toBe(4);
  });
});

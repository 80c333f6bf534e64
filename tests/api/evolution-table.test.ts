/**
 * A table renamed by a schema edit (`x-storage.renamedFrom`, issue 33; README "Changing a schema"), on
 * SQLite and, with TEST_DATABASE_URL, on PostgreSQL: every object the storage codegen names after a table
 * follows the rename, so that the later migrations of the renamed table find them and leave no duplicate
 * and no orphan. The test resource `evtItems` (table `evt_items`: a unique field, a reference to itself, a
 * plain index, two searched fields, the revision trigger) and `evtNotes` (table `evt_notes`, whose search
 * reads the title of the item it references: triggers named after `evt_items`) get records with history;
 * then, each by the migration codegen writes, run by the real runner (server/db/migrator.ts):
 * - a field is removed (its values in `removed_values`), then the table is renamed `evt_things` and its
 *   searched subtitle `tagline` in one migration: no object keeps the old name (tests/support/introspect.ts `namedObjects`), each is there once under the new one;
 *   writes bump the revision, both searches find, unique and reference are still enforced, the History is
 *   kept, `removed_values` names the new table, and the ledger's edit audit undoes the removal made
 *   under the old name (server/ledger/editAudit.ts);
 * - then the renamed table's field is made non-unique, its reference dropped, two fields renamed (one
 *   searched, one indexed: on PostgreSQL the index is renamed, not made again), a searched field removed,
 *   a field added to the search, and last the table removed: after each, the objects are exactly those
 *   of the new schema.
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
import { storedRow } from '../../server/db/audit';
import { migrateToLatest } from '../../server/db/migrator';
import { migrations } from '../../server/db/migrations/index';
import { MigrationMemo, explainingMigration } from '../../server/ledger/editAudit';
import { namedObjects } from '../support/introspect';
import { landedSnapshot } from '../support/tateEvolution';
import { createTestApp, type TestApp } from './helpers';

const root = resolve(__dirname, '../..');
/** The storage snapshot the landed migrations produce. */
const snapshot = landedSnapshot();
const actor = { accountId: null, account: 'tester', call: 'POST /test' };
const label = (en: string) => ({ en, zh: en });
type Props = Record<string, object>;

/** A test resource's schema ($id of a registry schema without cross-field rules, as evolution.test.ts). */
function resource(name: string, props: Props, storage: object, extra: object = {}): ResourceSchema {
  return {
    $schema: './meta.schema.json',
    $id: 'artCategory',
    title: name,
    type: 'object',
    'x-roles': ['admin'],
    'x-resource': { name, recordRepresentation: 'id' },
    'x-i18n': label(`${name} |||| ${name}s`),
    'x-endpoints': {},
    'x-storage': storage,
    additionalProperties: false,
    properties: { id: { type: 'integer', readOnly: true, 'x-i18n': label('ID') }, ...props },
    ...extra,
  } as unknown as ResourceSchema;
}
const q = { 'x-ui': { filter: 'q' } };
const ITEMS: Props = {
  title: { type: 'string', ...q, 'x-i18n': label('Title') },
  subtitle: { type: ['string', 'null'], ...q, 'x-i18n': label('Subtitle') },
  code: { type: 'string', 'x-unique': true, 'x-i18n': label('Code') },
  parent: { type: ['integer', 'null'], 'x-references': { resource: 'evtItems' }, 'x-i18n': label('Parent') },
  kind: { type: 'string', 'x-i18n': label('Kind') },
  note: { type: ['string', 'null'], 'x-i18n': label('Note') },
};
/** The items' schema: `props` in table `table` (renamed from `from`), the searched title named `title`. */
const items = (props: Props, table: string, extra: object = {}, from?: string) =>
  resource(
    'evtItems',
    props,
    {
      table,
      search: { index: 'trigram' },
      indexes: [props.kind ? 'kind' : 'category'],
      ...(from ? { renamedFrom: from } : {}),
    },
    extra,
  );
const notes = (title = 'title') =>
  resource(
    'evtNotes',
    {
      text: { type: 'string', ...q, 'x-i18n': label('Text') },
      item: { type: ['integer', 'null'], 'x-references': { resource: 'evtItems' }, 'x-i18n': label('Item') },
    },
    { table: 'evt_notes', search: { index: 'trigram', references: { item: [title] } } },
  );

let t: TestApp;
let pg: boolean;
let n = 0;
const dir = join(root, '.tmp');
const files: string[] = [];
let list: Record<string, Migration> = { ...migrations };
let state: StorageSnapshot = snapshot;
let schemas: ResourceSchema[] = [];

/** Writes and runs codegen's migration from the last state to `next` (the test's resources). */
async function migrate(next: ResourceSchema[], removeTables: string[] = []): Promise<string> {
  const all = [...resourceSchemas(), ...next];
  const after = storageSnapshot(resourceModels(all).values());
  const steps = diffStorage(state, after, evolutionHints(all, removeTables));
  const name = `20991231T${String(2200 + n++)}_evt`;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `evt-${process.pid}-${name}.ts`);
  files.push(file);
  writeFileSync(file, migrationSource(name, steps));
  list = { ...list, [name]: (await import(file)) as Migration };
  await migrateToLatest(t.app.db, list);
  state = after;
  schemas = next;
  return name;
}
const repo = (name: 'evtItems' | 'evtNotes') => {
  const models = resourceModels([...resourceSchemas(), ...schemas]);
  return new Repository<Record<string, unknown>>(models.get(name)! as never, models, t.app.dialect);
};
const found = async (name: 'evtItems' | 'evtNotes', text: string) =>
  (await repo(name).list(t.app.db, { q: text })).list.map((r) => r.id);
const raw = (text: string) => sql.raw(text).execute(t.app.db);
const objects = (part: string) => namedObjects(t.app.db, t.app.dialect, part);
const statusOf = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e: { status?: number }) => e.status,
  );

/**
 * The objects named after the items' table `t` (not the notes' own), as the storage codegen makes them:
 * `unique` the column of the unique index, `fkey` the referencing column, `index` the plain one.
 */
function expected(tb: string, o: { unique?: string; fkey?: string; index: string }) {
  const fts = ['config', 'content', 'data', 'docsize', 'idx'].map((s) => `table ${tb}_fts_${s}`);
  const on = (trigger: string) => `trigger ${trigger} on ${tb}`;
  const lite = [
    `table ${tb}`,
    `table ${tb}_fts`,
    ...fts,
    `index ${tb}_${o.index}`,
    ...(o.unique ? [`index sqlite_autoindex_${tb}_1`] : []),
    on(`${tb}_revision`),
    ...['delete', 'insert', 'update'].map((x) => on(`${tb}_fts_${x}`)),
    on(`evt_notes_fts_${tb}`),
  ];
  const pgs = [
    `table ${tb}`,
    `index ${tb}_pkey`,
    `constraint ${tb}_pkey`,
    `sequence ${tb}_id_seq`,
    `index ${tb}_${o.index}`,
    ...(o.unique ? [`index ${tb}_${o.unique}_key`, `constraint ${tb}_${o.unique}_key`] : []),
    ...(o.fkey ? [`constraint ${tb}_${o.fkey}_fkey`] : []),
    `table ${tb}_search`,
    `index ${tb}_search_pkey`,
    `constraint ${tb}_search_pkey`,
    `index ${tb}_search_doc_id`,
    on(`${tb}_revision`),
    on(`${tb}_search_write`),
    `function ${tb}_search_write`,
    on(`evt_notes_search_${tb}`),
    `function evt_notes_search_${tb}`,
  ];
  return (pg ? pgs : lite).sort();
}

const ids: Record<'a' | 'b' | 'n', number> = { a: 0, b: 0, n: 0 };
let removedExtra = '';
/** PostgreSQL: the plain index of `kind` (an index renamed is the same relation; one made again is not). */
let kindIndex: number | undefined;
const oidOf = async (relation: string) =>
  pg
    ? Number(
        (await sql<{ oid: number }>`SELECT ${relation}::regclass::oid AS oid`.execute(t.app.db)).rows[0].oid,
      )
    : undefined;

beforeAll(async () => {
  t = await createTestApp();
  pg = t.app.dialect === 'postgres';
  const extra = { type: ['string', 'null'], 'x-i18n': label('Extra') };
  await migrate([items({ ...ITEMS, extra }, 'evt_items', { required: ['title', 'code', 'kind'] }), notes()]);
  const a = await repo('evtItems').create(
    t.app.db,
    { title: 'Alpha', subtitle: 'Sub alpha', code: 'c0', kind: 'k1', extra: 'x0' },
    actor,
  );
  const b = await repo('evtItems').create(
    t.app.db,
    { title: 'Beta', subtitle: 'Sub beta', code: 'c1', kind: 'k2', parent: a.id, extra: 'x1' },
    actor,
  );
  await repo('evtItems').update(t.app.db, { id: b.id as number, note: 'Remember' }, actor);
  const note = await repo('evtNotes').create(t.app.db, { text: 'first note', item: a.id }, actor);
  Object.assign(ids, { a: a.id, b: b.id, n: note.id });
  // a field removed before the rename: its values are kept under the table's name of the time
  removedExtra = await migrate([
    items(ITEMS, 'evt_items', { required: ['title', 'code', 'kind'], 'x-removed': ['extra'] }),
    notes(),
  ]);
  kindIndex = await oidOf('evt_items_kind');
});
afterAll(async () => {
  if (!process.env.KEEP) for (const f of files) rmSync(f, { force: true });
  await t?.close();
});

const REQUIRED = { required: ['title', 'code', 'kind'] };
/** The items after the rename: the searched subtitle renamed too, in the same migration. */
const { subtitle, ...others } = ITEMS;
const RENAMED: Props = { ...others, tagline: { ...subtitle, 'x-renamedFrom': 'subtitle' } };

describe('a table renamed by x-storage.renamedFrom', () => {
  it('renames every object named after it, and keeps writes, search, unique, reference and history', async () => {
    const renamed = await migrate([items(RENAMED, 'evt_things', REQUIRED, 'evt_items'), notes()]);
    expect(await objects('evt_items')).toEqual([]);
    expect(await objects('evt_things')).toEqual(
      expected('evt_things', { unique: 'code', fkey: 'parent', index: 'kind' }),
    );

    // writes bump the revision: through the API's repository and behind its back
    const items$ = repo('evtItems');
    const r0 = (await items$.getOne(t.app.db, ids.a)).revision as number;
    await items$.update(t.app.db, { id: ids.a, title: 'Alpine' }, actor);
    expect((await items$.getOne(t.app.db, ids.a)).revision).toBe(r0 + 1);
    await raw(`UPDATE evt_things SET note = 'raw' WHERE id = ${ids.a}`);
    expect((await items$.getOne(t.app.db, ids.a)).revision).toBe(r0 + 2);

    // both searches follow: the items' own, and the notes' reading the item's title
    expect(await found('evtItems', 'Alpin')).toEqual([ids.a]);
    expect(await found('evtItems', 'Sub beta')).toEqual([ids.b]);
    expect(await found('evtNotes', 'Alpin')).toEqual([ids.n]);
    expect(await found('evtNotes', 'Alpha')).toEqual([]);

    // unique and reference: refused by the API (409, 400) and by the database itself
    expect(await statusOf(items$.create(t.app.db, { title: 'C', code: 'c0', kind: 'k' }, actor))).toBe(409);
    await expect(raw(`UPDATE evt_things SET code = 'c0' WHERE id = ${ids.b}`)).rejects.toThrow();
    expect(
      await statusOf(items$.create(t.app.db, { title: 'C', code: 'c9', kind: 'k', parent: 999999 }, actor)),
    ).toBe(400);
    await expect(raw(`UPDATE evt_things SET parent = 999999 WHERE id = ${ids.b}`)).rejects.toThrow();

    // the History keeps the writes made before the rename
    const history = await revisionsOf(t.app.db, items$ as never, ids.a);
    expect(history.map((r) => r.operation)).toEqual(['update', 'create']);
    expect(history[0].changes).toContainEqual({ field: 'title', before: 'Alpha', after: 'Alpine' });
    expect(history[1].state).toMatchObject({ tagline: 'Sub alpha' });

    // removed_values names the table by its new name; the migration's audit row names the rename
    const kept = await sql<{ tableName: string; value: string }>`SELECT "tableName", value FROM removed_values
      WHERE migration = ${removedExtra} ORDER BY "recordId"`.execute(t.app.db);
    expect(kept.rows.map((r) => [r.tableName, r.value])).toEqual([
      ['evt_things', 'x0'],
      ['evt_things', 'x1'],
    ]);
    const audit = await sql<{ state: string }>`SELECT state FROM audit_log WHERE resource = 'database'
      AND "recordId" = ${renamed}`.execute(t.app.db);
    expect(JSON.parse(audit.rows[0].state).tables).toEqual({
      evt_things: {
        from: 'evt_items',
        renamed: { tagline: 'subtitle' },
        removed: {},
        added: [],
        converted: {},
      },
    });

    // the ledger's edit audit explains record b (no audited write since the removal) by the newest migration
    // that reshaped it: undoing it, then the removal made under the table's old name, gives its last write
    const latest = await sql<{ id: number; time: string; account: string; call: string; after: string }>`
      SELECT id, time, account, call, after FROM audit_log WHERE resource = 'evtItems' AND "recordId" = ${String(ids.b)}
      ORDER BY id DESC`.execute(t.app.db);
    const row = (await storedRow(t.app.db, 'evt_things', ids.b))!;
    const edit = await explainingMigration(new MigrationMemo(t.app.db), 'evt_things', row, latest.rows[0]);
    expect(edit?.call).toBe(`migration ${renamed}`);
  });

  it('lets later migrations of the renamed table find its objects, leaving no duplicate nor orphan', async () => {
    const after = async (o: Parameters<typeof expected>[1]) => {
      expect(await objects('evt_items')).toEqual([]);
      expect(await objects('evt_things')).toEqual(expected('evt_things', o));
    };
    // no longer unique
    let props: Props = { ...RENAMED, code: { type: 'string', 'x-i18n': label('Code') } };
    await migrate([items(props, 'evt_things', REQUIRED), notes()]);
    await after({ fkey: 'parent', index: 'kind' });
    await raw(`UPDATE evt_things SET code = 'c0' WHERE id = ${ids.b}`);

    // no longer a reference
    props = { ...props, parent: { type: ['integer', 'null'], 'x-i18n': label('Parent') } };
    await migrate([items(props, 'evt_things', REQUIRED), notes()]);
    await after({ index: 'kind' });
    await raw(`UPDATE evt_things SET parent = 999999 WHERE id = ${ids.b}`);

    // two fields renamed: the searched title (the notes' search reads it too) and the indexed kind
    const { title, kind, ...rest } = props;
    props = {
      ...rest,
      name: { ...title, 'x-renamedFrom': 'title' },
      category: { ...kind, 'x-renamedFrom': 'kind' },
    };
    const names = { required: ['name', 'code', 'category'] };
    await migrate([items(props, 'evt_things', names), notes('name')]);
    await after({ index: 'category' });
    expect(await oidOf('evt_things_category')).toBe(kindIndex); // PostgreSQL renamed it, twice
    expect(await found('evtItems', 'Alpin')).toEqual([ids.a]);
    expect(await found('evtNotes', 'Alpin')).toEqual([ids.n]);
    await repo('evtItems').update(t.app.db, { id: ids.a, name: 'Alps' }, actor);
    expect(await found('evtNotes', 'Alps')).toEqual([ids.n]);
    expect((await repo('evtItems').getOne(t.app.db, ids.b)).category).toBe('k2');

    // a searched field removed
    const { tagline: _s, ...fewer } = props;
    await migrate([items(fewer, 'evt_things', { ...names, 'x-removed': ['tagline'] }), notes('name')]);
    await after({ index: 'category' });
    expect(await found('evtItems', 'Sub beta')).toEqual([]);
    expect(await found('evtItems', 'Beta')).toEqual([ids.b]);

    // a field added to the search
    props = { ...fewer, note: { ...(fewer.note as object), ...q } };
    await migrate([items(props, 'evt_things', names), notes('name')]);
    await after({ index: 'category' });
    expect(await found('evtItems', 'Remember')).toEqual([ids.b]);
    await repo('evtItems').update(t.app.db, { id: ids.b, note: 'Forget' }, actor);
    expect(await found('evtItems', 'Remember')).toEqual([]);
    expect(await found('evtItems', 'Forget')).toEqual([ids.b]);
  });

  it('removes the renamed table under removed_<table>, freeing every name it had', async () => {
    await migrate([], ['evt_things', 'evt_notes']);
    const kept = /^\w+ (sqlite_autoindex_)?removed_evt_/;
    expect((await objects('evt_things')).filter((o) => !kept.test(o))).toEqual([]);
    expect((await objects('evt_notes')).filter((o) => !kept.test(o))).toEqual([]);
    const left = await sql<{ n: number }>`SELECT count(*) AS n FROM removed_evt_things`.execute(t.app.db);
    expect(Number(left.rows[0].n)).toBe(2);
  });
});

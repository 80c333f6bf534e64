/**
 * Storage from the schemas (scripts/codegen/storage.ts), on SQLite and, with TEST_DATABASE_URL, on
 * PostgreSQL:
 * - the committed snapshot equals the schemas' storage model, and equals what the migrations create
 *   (columns, types, null, defaults, unique, foreign keys, indexes, the free-text index);
 * - a schema with a new property (and a new resource) disagrees with the snapshot, so `codegen --check`
 *   fails; the migration codegen writes for it makes them agree, runs on the database, and the generic
 *   repository then stores, finds (free text) and refuses (unique, restrict) on the new storage.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceSchemas, type ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import {
  SNAPSHOT_PATH,
  diffStorage,
  migrationSource,
  storageFiles,
  storageSnapshot,
  type StorageSnapshot,
} from '../../scripts/codegen/storage';
import { resourceModels } from '../../kernel/server/model';
import { Repository } from '../../kernel/server/repository';
import { searchTable } from '../../kernel/server/searchIndex';
import { ApiError } from '../../server/errors';
import { introspect } from '../support/introspect';
import { createTestApp, type TestApp } from './helpers';

const root = resolve(__dirname, '../..');
const { $comment: _comment, ...snapshot } = JSON.parse(
  readFileSync(join(root, SNAPSHOT_PATH), 'utf8'),
) as StorageSnapshot & {
  $comment?: string;
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/** What a live database holds for the snapshot's tables, in the snapshot's shape (search compared apart). */
async function liveMatches(expected: StorageSnapshot) {
  const docTables = Object.entries(expected.tables)
    .filter(([, spec]) => spec.search?.pg === 'doc')
    .map(([table]) => searchTable(table));
  const live = await introspect(t.app.db, t.app.dialect, [
    ...Object.keys(expected.tables),
    ...(t.app.dialect === 'postgres' ? docTables : []),
  ]);
  for (const [table, spec] of Object.entries(expected.tables)) {
    expect(live.tables[table].columns, table).toEqual(spec.columns);
    expect(live.tables[table].indexes, table).toEqual(spec.indexes);
    const searchNames = spec.search
      ? [...spec.search.columns.map((c) => c.name), ...spec.search.references.map((r) => r.field)]
      : undefined;
    if (t.app.dialect === 'sqlite') {
      // the fields the FTS5 table is fed (a renamed column's label there keeps its old name)
      expect(live.tables[table].fts, table).toEqual(searchNames);
      expect(live.tables[table].ftsLabels?.length, table).toBe(searchNames?.length);
    } else {
      // PostgreSQL: one trigram index on `<table>_search.doc` (kernel/server/searchIndex.ts), or in the
      // first snapshots one per field.
      const want = spec.search?.pg
        ? [[searchTable(table), 'doc']]
        : spec.search
          ? [
              ...spec.search.columns.map((c) => [table, c.name]),
              ...spec.search.references.map((r) => [r.table, r.field]),
            ]
          : [];
      for (const pair of want) expect(live.trgm, table).toContainEqual(pair);
    }
  }
}

describe('the storage snapshot', () => {
  it('is what the schemas declare', () => {
    expect(storageSnapshot(resourceModels().values())).toEqual(snapshot);
  });

  it('is what the migrations create', async () => {
    await liveMatches(snapshot);
  });
});

/** The schemas with a change: companies get `legalPerson` (searchable) and a unique `taxNo`; a new
 *  resource `drugs` references companies (restrict) and has a free-text index. */
function changedSchemas(): ResourceSchema[] {
  const list = structuredClone(resourceSchemas());
  const company = list.find((s) => s.$id === 'company')!;
  company.properties.legalPerson = { type: ['string', 'null'], 'x-plainText': true, 'x-ui': { filter: 'q' } };
  company.properties.taxNo = { type: ['string', 'null'], 'x-unique': true };
  company['x-storage'].indexes = ['companyName', 'legalPerson'];
  list.push({
    $id: 'drug',
    type: 'object',
    'x-resource': { name: 'drugs', recordRepresentation: 'drugName' },
    'x-i18n': { en: 'Drug |||| Drugs', zh: '药品 |||| 药品' },
    'x-storage': { table: 'drugs', search: { index: 'trigram', references: { company: ['companyName'] } } },
    properties: {
      id: { type: 'integer', readOnly: true },
      drugName: { type: 'string', 'x-plainText': true, 'x-ui': { filter: 'q' } },
      approvalNo: { type: 'string', 'x-unique': true },
      company: { type: 'integer', 'x-references': { resource: 'companies', onDelete: 'restrict' } },
      stock: { type: 'integer', default: 0 },
      details: { type: 'object' },
    },
    required: ['drugName', 'approvalNo', 'company'],
  });
  return list;
}

describe('a schema change', () => {
  const schemas = changedSchemas();
  const models = resourceModels(schemas);
  const after = storageSnapshot(models.values());

  it('makes `codegen --check` fail until codegen wrote its migration, then pass', async () => {
    const disk = (path: string) => {
      try {
        return readFileSync(join(root, path), 'utf8');
      } catch {
        return undefined;
      }
    };
    const opts = {
      schemas,
      format: async (s: string) => s,
      formatJson: async (s: string) => `${JSON.stringify(JSON.parse(s), null, 2)}\n`,
      banner: '// GENERATED\n',
      now: new Date('2030-01-02T03:04:00Z'),
    };
    const first = await storageFiles({ ...opts, read: disk });
    const migration = Object.keys(first).find((p) => p.includes('/migrations/2030'));
    expect(migration).toBe('server/db/migrations/20300102T0304_storage_companies_drugs.ts');
    expect(first['server/db/migrations/index.ts']).toContain("'20300102T0304_storage_companies_drugs'");
    expect(first[SNAPSHOT_PATH]).not.toBe(disk(SNAPSHOT_PATH)); // --check: stale
    // Once written, the next run finds nothing to do.
    const written = { ...first };
    const again = await storageFiles({ ...opts, read: (p) => written[p] ?? disk(p) });
    expect(Object.keys(again).some((p) => p.includes('/migrations/2030'))).toBe(false);
    expect(again[SNAPSHOT_PATH]).toBe(written[SNAPSHOT_PATH]);
  });

  it('adds a required column without a default nullable, checks its rows at up(), then makes it NOT NULL', () => {
    const bad = structuredClone(after);
    bad.tables.companies.columns.licenceKind = { type: 'text', notNull: true };
    const steps = diffStorage(snapshot, bad).filter(
      (s) => (s.kind === 'check' ? s.check.column : 'column' in s ? s.column : '') === 'licenceKind',
    );
    expect(steps.map((s) => s.kind)).toEqual(['addColumn', 'check', 'changeColumn']);
    expect(steps[1]).toMatchObject({ check: { rule: 'required', where: '"licenceKind" IS NULL' } });
  });

  it('runs the generated migration; the generic repository works on the new storage', async () => {
    const steps = diffStorage(snapshot, after);
    const dir = join(root, '.tmp');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `migration-${process.pid}-${Date.now()}.ts`);
    writeFileSync(file, migrationSource('20300102T0304_storage_companies_drugs', steps));
    try {
      const m = await import(file);
      await m.up(t.app.db);
      await liveMatches(after);

      const repo = (name: string) => new Repository(models.get(name)!, models, t.app.dialect);
      const company = await repo('companies').create(t.app.db, {
        companyName: '示例药业',
        creditCode: '91110105MA01ABCD1X',
        licenseNo: '京20150001',
        adminAccount: 'admin.a',
        backupAdminAccount: 'admin.b',
        legalPerson: '  张三 ',
        taxNo: 'T-1',
      });
      expect(company).toMatchObject({ legalPerson: '张三', taxNo: 'T-1', status: 1 });
      const drugs = repo('drugs');
      const drug = await drugs.create(t.app.db, {
        drugName: '阿莫西林胶囊',
        approvalNo: 'H20000001',
        company: company.id,
        details: { form: 'capsule' },
      });
      expect(drug).toMatchObject({ stock: 0, details: { form: 'capsule' } });
      // Free text: own column (3+ characters: the FTS table on SQLite) and the company's name.
      expect((await drugs.list(t.app.db, { q: '西林胶' })).list.map((d) => d.id)).toEqual([drug.id]);
      expect((await drugs.list(t.app.db, { q: '示例药' })).list.map((d) => d.id)).toEqual([drug.id]);
      // The FTS table follows a renamed company (trigger on the referenced table).
      await repo('companies').update(t.app.db, { id: company.id as number, companyName: '新名药业' });
      expect((await drugs.list(t.app.db, { q: '新名药' })).total).toBe(1);
      expect((await drugs.list(t.app.db, { q: '示例药' })).total).toBe(0);
      await expect(
        drugs.create(t.app.db, { drugName: 'x', approvalNo: 'H20000001', company: company.id }),
      ).rejects.toMatchObject({
        status: 409,
        data: { errors: [{ field: 'approvalNo', keyword: 'unique' }] },
      });
      const refused = await repo('companies')
        .deleteMany(t.app.db, [company.id as number])
        .catch((e: ApiError) => e);
      expect(refused).toMatchObject({ status: 409 });
      expect((refused as ApiError).message).toMatch(/示例药业|新名药业/);

      await drugs.deleteMany(t.app.db, [drug.id as number]);
      await repo('companies').deleteMany(t.app.db, [company.id as number]);
      await m.down(t.app.db);
      await liveMatches(snapshot);
    } finally {
      rmSync(file, { force: true });
    }
  });
});

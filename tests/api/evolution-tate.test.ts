/**
 * Schema evolution on real Tate data (issue 33, "Must show"), on SQLite and, with TEST_DATABASE_URL, on
 * PostgreSQL: the shipped Tate sample (server/db/seed, 1,826 artworks stored; the full import of 51,840 is
 * `npm run bench -- --evolution`, bench/evolution.ts, with the same edits) gets the eight edits of
 * tests/support/tateEvolution.ts, each followed by codegen's migration only (its own code path, in this
 * process) run as the server runs it. For each edit:
 * - the plan (as `codegen --plan` runs it) names exactly the rows an independent SQL query finds breaking
 *   the tightened rule (none for the others), and refuses the migration until the schema says what to do;
 * - every other value of every row is kept (a digest of each row, the edited column left out; a renamed
 *   column compared under its new name), and the edited column is kept outside the breaking rows;
 * - the generic repository behind every resource call (kernel/server/repository.ts) works on the migrated
 *   table with the edited schema: list (total = rows), getOne, update, History;
 * - the history of the renamed field survives: an edit of `texture` made before the rename is listed
 *   under `medium`;
 * - the removed field's values are in `removed_values`, one row per non-null value.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { revisionsOf } from '../../kernel/server/history';
import { resourceModels } from '../../kernel/server/model';
import { Repository } from '../../kernel/server/repository';
import { importTate } from '../../server/import/importer';
import { SEED_FILES } from '../../server/import/seed';
import { connect } from '../../server/db/connect';
import { EDITS, evolution, rowDigests, type Edit, type EditResult } from '../support/tateEvolution';
import { createTestApp, type TestApp } from './helpers';

const actor = { accountId: null, account: 'tester', call: 'POST /test' };
/** Columns the edits add: left out of the before/after digests. */
const ADDED = ['provenance', 'inventoryChecked'];

let t: TestApp;
let evo: ReturnType<typeof evolution>;
let total = 0;
/** An artwork whose texture is edited before the rename: its history must survive. */
let edited = 0;
const results: EditResult[] = [];
const started = performance.now();

const repo = () => {
  const models = resourceModels(evo.schemas() as ResourceSchema[]);
  return new Repository<Record<string, any>>(models.get('artworks')! as never, models, t.app.dialect);
};
const column = async (name: string) =>
  new Map(
    (
      await sql.raw<{ id: number; v: unknown }>(`SELECT id, "${name}" AS v FROM artworks`).execute(t.app.db)
    ).rows.map((r) => [Number(r.id), r.v]),
  );

beforeAll(async () => {
  t = await createTestApp();
  const summary = await importTate(t.app.db as never, {
    artistsFile: SEED_FILES.artists,
    artworksFile: SEED_FILES.artworks,
    worker: false,
  });
  total = summary.artworks.imported;
  evo = evolution(t.app.db, `evo-tate-${process.pid}`);
  edited = Number(
    (await sql<{ id: number }>`SELECT min(id) AS id FROM artworks`.execute(t.app.db)).rows[0].id,
  );
  await repo().update(t.app.db, { id: edited, texture: 'Oil paint on canvas, relined' }, actor);
}, 120_000);
afterAll(async () => {
  evo?.cleanup();
  await t?.close();
  console.log(
    `evolution-tate (${t?.app.dialect}, ${total} artworks): ${Math.round((performance.now() - started) / 1000)} s; ` +
      results.map((r) => `${r.edit.title.split(' ')[0]}: ${r.ms.migrate} ms`).join(', '),
  );
});

describe.each(EDITS.map((edit, i) => ({ edit, i })))('edit $edit.title', ({ edit }) => {
  it('names exactly the breaking rows, keeps every other value, and the API works after it', async () => {
    const skip = [...edit.changed, ...ADDED];
    const rename = edit.renamed ? { [edit.renamed[1]]: edit.renamed[0] } : {};
    // the rows the rule breaks, by a query of their own (the data alone tells, before the migration)
    const breaking = await evo.breaking(edit);
    const before = await rowDigests(t.app.db, skip, {}, breaking);
    const revisions = await column('revision');
    const changedBefore = await Promise.all(edit.changed.map(column));

    const r = await evo.step(edit);
    results.push(r);

    // the plan names the rows the query finds, per rule; the migration was refused until the fix
    const broken = Object.fromEntries(
      r.plan.checks.filter((c) => c.ids.length).map((c) => [`${c.column} ${c.rule}`, c.ids]),
    );
    expect(broken).toEqual(r.expected.length ? { [edit.breaks!.rule]: r.expected } : {});
    expect(!!r.plan.refused).toBe(r.expected.length > 0);
    if (edit.fix) expect(r.expected.length).toBeGreaterThan(0); // the sample has rows that break it

    // every other value kept: per row, every column but the edited ones
    expect(r.expected).toEqual(breaking);
    expect(await rowDigests(t.app.db, skip, rename, breaking)).toEqual(before);
    // a row the migration fixed has a new revision (a stale copy of it is refused), no other row has
    const bumped = [...(await column('revision'))]
      .filter(([id, v]) => v !== revisions.get(id))
      .map(([id]) => id);
    expect(bumped.sort((a, b) => a - b)).toEqual(edit.fix ? r.expected : []);
    // the edited column: kept outside the breaking rows, fixed as the schema says in them
    for (const [k, name] of edit.changed.entries()) {
      if (name === 'possessor') continue; // removed: see below
      const after = await column(name);
      for (const [id, v] of changedBefore[k]) {
        if (!r.expected.includes(id)) expect(after.get(id)).toBe(v);
        else if (name === 'artWorkName') expect(after.get(id)).toBe([...(v as string)].slice(0, 50).join(''));
        else expect(after.get(id)).toBe('sculpture');
      }
    }
    if (edit.changed.includes('possessor')) {
      const archived = (
        await sql<{
          recordId: number;
          value: string;
        }>`SELECT "recordId", value FROM removed_values WHERE "tableName" = 'artworks' AND field = 'possessor'`.execute(
          t.app.db,
        )
      ).rows;
      const kept = new Map([...changedBefore[0]].filter(([, v]) => v !== null));
      expect(new Map(archived.map((a) => [Number(a.recordId), a.value]))).toEqual(kept);
      expect(kept.size).toBeGreaterThan(0);
    }

    // the generic repository on the migrated table, with the edited schema, on a new connection as a
    // server started on the migrated database has (PostgreSQL: this process' prepared statements of
    // `SELECT *` are planned for the table as it was; a server runs its migrations before preparing any)
    const { db } = connect({
      dataDir: t.dataDir,
      databaseUrl: t.app.config.databaseUrl,
      sqliteFile: t.app.config.sqliteFile,
    });
    try {
      await apiWorks(db, edit, [...before.keys()].slice(0, 5));
    } finally {
      await db.destroy();
    }
  }, 60_000);
});

/** list, getOne, update and the History of the renamed field, through the generic repository on `db`. */
async function apiWorks(db: Kysely<any>, edit: Edit, firstIds: number[]) {
  const artworks = repo();
  const page = await artworks.list(db, { page: 1, pageSize: 5, sort: 'id', order: 'ASC' });
  expect(page.total).toBe(total);
  expect(page.list.map((a) => a.id)).toEqual(firstIds);
  const id = page.list[1].id as number;
  const one = await artworks.getOne(db, id);
  expect(one).toMatchObject({ id, provenance: null });
  if (edit.changed.includes('possessor')) expect(one).not.toHaveProperty('possessor');
  const updated = await artworks.update(db, { id, provenance: `after ${edit.title}` }, actor);
  expect(updated.provenance).toBe(`after ${edit.title}`);
  await artworks.update(db, { id, provenance: null }, actor);

  // the renamed field's history survives (an edit made before the rename, now under the new name)
  if (results.some((x) => x.edit.renamed)) {
    const history = await revisionsOf(db, artworks as never, edited);
    const change = history.flatMap((h) => h.changes).find((c) => c.field === 'medium');
    expect(change).toMatchObject({ field: 'medium', after: 'Oil paint on canvas, relined' });
    expect(history.flatMap((h) => h.changes).some((c) => c.field === 'texture')).toBe(false);
  }
}

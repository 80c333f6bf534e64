/**
 * Eight edits of `schemas/artwork.schema.json` run on a database holding the Tate import (issue 33, "Must
 * show"), shared by tests/api/evolution-tate.test.ts (the shipped Tate sample, in CI) and
 * bench/evolution.ts (the full Tate import, 51,840 artworks, timed).
 *
 * Each edit goes through codegen's own path, in this process (a spawned `npm run codegen` costs ~14 s an
 * edit): the edited schemas checked by the dialect (scripts/codegen/dialect.ts `dialectErrors`, as
 * `checkedSchemas` does), the migration planned from the previous edit's snapshot (scripts/codegen/storage.ts
 * `plannedMigration`, which `storageFiles` calls for `npm run codegen`), its source written by
 * `migrationSource` into `.tmp/` (ignored by git; it imports kysely from node_modules), then planned
 * (server/db/migrator.ts `planMigrations`, as `codegen --plan` runs it) and run (`migrateToLatest`, as the
 * server does at start). Nothing tracked is written: the edited schemas are objects in memory.
 *
 * The edits (cumulative): 1 add an optional field (`provenance`); 2 add a required field with a default
 * (`inventoryChecked`); 3 rename `texture` to `medium` (`x-renamedFrom`); 4 retype `classify` from string
 * to an enum of its values; 5 tighten `artWorkName` to `maxLength` 50 (refused, then `x-onBreak`
 * truncate); 6 add the enum value `video`; 7 remove the enum value `relief` (refused, then `x-onBreak` set
 * `sculpture`); 8 remove `possessor` (`x-removed`; its values archived in `removed_values`).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sql, type Kysely, type Migration } from 'kysely';
import { dialectErrors, formatDialectError } from '../../scripts/codegen/dialect';
import {
  SNAPSHOT_PATH,
  migrationSource,
  plannedMigration,
  type StorageSnapshot,
} from '../../scripts/codegen/storage';
import { META_SCHEMA_FILE } from '../../scripts/codegen/metaSchema';
import { migrateToLatest, planMigrations, type MigrationPlan } from '../../server/db/migrator';
import { migrations } from '../../server/db/migrations/index';

type Json = Record<string, any>;
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** What the edits read from the imported data: the classifications (`classify` values) found there. */
export interface EditContext {
  classify: string[];
}

/** `'a', 'b'` for an SQL `IN` list. */
const sqlList = (values: string[]) => values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ');

/** One edit: what it does to the artwork schema, the columns it changes, and the rows it should break. */
export interface Edit {
  title: string;
  /** Edits the artwork schema in place (cumulative over the earlier edits). */
  apply(schema: Json, ctx: EditContext): void;
  /** The columns whose values the edit may change (left out of the digest); a new column is left out anyway. */
  changed: string[];
  /** The rule a tightening checks, `<column> <rule>`, and the independent SQL query of the rows breaking it. */
  breaks?: { rule: string; query(ctx: EditContext): string };
  /** The `x-onBreak` (or other schema edit) that lets the refused migration through. */
  fix?(schema: Json): void;
  /** A column renamed by the edit: `[from, to]` (its values compared under the new name). */
  renamed?: [string, string];
}

const label = (en: string, zh: string) => ({ en, zh });

/** The eight edits of issue 33, in order. */
export const EDITS: Edit[] = [
  {
    title: '1 add an optional field',
    apply: (s) => {
      s.properties.provenance = {
        type: ['string', 'null'],
        maxLength: 500,
        'x-plainText': true,
        'x-i18n': label('Provenance', '来源'),
        'x-ui': { order: 13 },
      };
    },
    changed: [],
  },
  {
    title: '2 add a required field with a default',
    apply: (s) => {
      s.properties.inventoryChecked = {
        type: 'integer',
        minimum: 0,
        default: 0,
        'x-i18n': label('Inventory checked', '已盘点'),
        'x-ui': { order: 14 },
      };
      s.required.push('inventoryChecked');
    },
    changed: [],
  },
  {
    title: '3 rename a field (texture → medium)',
    apply: (s) => {
      const { texture, ...rest } = s.properties;
      s.properties = {
        ...rest,
        medium: { ...texture, 'x-renamedFrom': 'texture', 'x-i18n': label('Medium', '媒介') },
      };
      s.required = s.required.map((r: string) => (r === 'texture' ? 'medium' : r));
    },
    changed: [],
    renamed: ['texture', 'medium'],
  },
  {
    title: '4 retype a field (classify: string → enum)',
    apply: (s, ctx) => {
      s.properties.classify = {
        ...s.properties.classify,
        enum: [...ctx.classify],
        'x-enumLabels': Object.fromEntries(ctx.classify.map((c) => [c, label(c, c)])),
      };
    },
    changed: [],
    breaks: {
      rule: 'classify enum',
      query: (ctx) => `SELECT id FROM artworks WHERE classify NOT IN (${sqlList(ctx.classify)}) ORDER BY id`,
    },
  },
  {
    title: '5 tighten maxLength (artWorkName ≤ 50)',
    apply: (s) => {
      s.properties.artWorkName = { ...s.properties.artWorkName, maxLength: 50 };
    },
    changed: ['artWorkName'],
    breaks: {
      rule: 'artWorkName maxLength',
      query: () => `SELECT id FROM artworks WHERE length("artWorkName") > 50 ORDER BY id`,
    },
    fix: (s) => {
      s['x-onBreak'] = { ...s['x-onBreak'], artWorkName: { truncate: true } };
    },
  },
  {
    title: '6 add an enum value (classify: video)',
    apply: (s) => {
      s.properties.classify.enum = [...s.properties.classify.enum, 'video'];
      s.properties.classify['x-enumLabels'].video = label('Video', '影像');
    },
    changed: [],
  },
  {
    title: '7 remove an enum value some rows use (classify: relief)',
    apply: (s) => {
      s.properties.classify.enum = s.properties.classify.enum.filter((v: string) => v !== 'relief');
      delete s.properties.classify['x-enumLabels'].relief;
    },
    changed: ['classify'],
    breaks: {
      rule: 'classify enum',
      query: (ctx) =>
        `SELECT id FROM artworks WHERE classify NOT IN (${sqlList([...ctx.classify.filter((c) => c !== 'relief'), 'video'])}) ORDER BY id`,
    },
    fix: (s) => {
      s['x-onBreak'] = { ...s['x-onBreak'], classify: { set: 'sculpture' } };
    },
  },
  {
    title: '8 remove a field (possessor)',
    apply: (s) => {
      const { possessor: _p, ...rest } = s.properties;
      s.properties = rest;
      s['x-removed'] = [...(s['x-removed'] ?? []), 'possessor'];
      const search = s['x-storage'].search;
      search.fields = search.fields.filter((f: string) => f !== 'possessor');
    },
    changed: ['possessor'],
  },
];

/** Every schema file of schemas/ (not the meta-schema), parsed, as codegen's `loadSchemas` reads them. */
export function repositorySchemas(): { file: string; schema: Json }[] {
  const dir = join(ROOT, 'schemas');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.schema.json') && f !== META_SCHEMA_FILE)
    .sort()
    .map((file) => ({ file, schema: JSON.parse(readFileSync(join(dir, file), 'utf8')) as Json }));
}

/** The storage snapshot the landed migrations produce (server/db/migrations/storage.snapshot.json). */
export function landedSnapshot(): StorageSnapshot {
  const { $comment: _c, ...snapshot } = JSON.parse(readFileSync(join(ROOT, SNAPSHOT_PATH), 'utf8')) as Json;
  return snapshot as StorageSnapshot;
}

/** One migration codegen wrote for an edit, its plan and its run. */
export interface EditResult {
  edit: Edit;
  /** The plan before the fix (the refused one, for an edit that breaks rows), else the plan of the run. */
  plan: MigrationPlan;
  /** The rows the independent query finds breaking the rule, before the migration. */
  expected: number[];
  /** Milliseconds: codegen's part in this process (dialect check, diff, source), the plan, the migration. */
  ms: { codegen: number; plan: number; migrate: number };
  steps: string[];
}

const ms = (t0: number) => Math.round(performance.now() - t0);

/**
 * Runs the edits in order on `db` (migrated to the landed migrations, holding the import): the evolving
 * schemas (`schemas`, the artwork schema edited in place), the migrations list and snapshot. `step`
 * runs one edit; `artwork` answers the artwork schema as it is now, `migrations` the migrations so far.
 */
export function evolution(db: Kysely<any>, tmpName: string) {
  const list = repositorySchemas();
  const artwork = list.find((l) => l.schema.$id === 'artwork')!.schema;
  let migrationList: Record<string, Migration> = { ...migrations };
  let snapshot = landedSnapshot();
  const dir = join(ROOT, '.tmp', tmpName);
  mkdirSync(dir, { recursive: true });
  let n = 0;
  let files = 0;

  /**
   * Codegen's migration for the schemas now (dialect-checked), written and imported; `module` null when
   * the edit needs none (e.g. an enum value added: codegen then writes the new snapshot only).
   */
  async function codegen() {
    const errors = dialectErrors(list.map(({ file, schema }) => ({ file: `schemas/${file}`, schema })));
    if (errors.length) throw new Error(errors.map(formatDialectError).join('\n'));
    const planned = plannedMigration({
      schemas: list.map((l) => l.schema),
      read: (path) => (path === SNAPSHOT_PATH ? JSON.stringify(snapshot) : undefined),
      now: new Date(Date.UTC(2099, 0, 1, 0, n)),
    });
    if (!planned.steps.length) return { name: '', module: null, current: planned.current };
    // a file of its own per write: an import of the same path answers the module imported before
    const file = join(dir, `${planned.name}-${files++}.ts`);
    writeFileSync(file, migrationSource(planned.name, planned.steps));
    const module = (await import(pathToFileURL(file).href)) as Migration & { steps: string[] };
    return { name: planned.name, module, current: planned.current };
  }

  let context: EditContext | undefined;
  /** The classifications of the imported artworks (read once, before the first edit). */
  async function contextOf(): Promise<EditContext> {
    context ??= {
      classify: (
        await sql<{ classify: string }>`SELECT DISTINCT classify FROM artworks ORDER BY classify`.execute(db)
      ).rows.map((r) => r.classify),
    };
    return context;
  }

  /** The ids of the rows `edit` breaks, by its own SQL query (none for an edit that tightens nothing). */
  async function breaking(edit: Edit): Promise<number[]> {
    if (!edit.breaks) return [];
    const text = edit.breaks.query(await contextOf());
    return (await sql.raw<{ id: number }>(text).execute(db)).rows.map((r) => Number(r.id));
  }

  /** Applies `edit`, runs codegen's part, plans and runs the migration (see the module doc). */
  async function step(edit: Edit): Promise<EditResult> {
    edit.apply(artwork, await contextOf());
    const expected = await breaking(edit);
    let t0 = performance.now();
    let m = await codegen();
    let codegenMs = ms(t0);
    t0 = performance.now();
    const none: MigrationPlan = { name: '', written: false, steps: [], checks: [], refused: null };
    const [plan] = m.module
      ? await planMigrations(db, migrationList, { name: m.name, module: m.module })
      : [none];
    const planMs = ms(t0);
    if (plan.refused && edit.fix) {
      // the developer's answer to the refusal: x-onBreak, then codegen again
      edit.fix(artwork);
      t0 = performance.now();
      m = await codegen();
      codegenMs += ms(t0);
    }
    t0 = performance.now();
    if (m.module) {
      migrationList = { ...migrationList, [m.name]: m.module };
      await migrateToLatest(db, migrationList);
      n++;
    }
    snapshot = m.current;
    return {
      edit,
      plan,
      expected,
      ms: { codegen: codegenMs, plan: planMs, migrate: ms(t0) },
      steps: m.module?.steps ?? [],
    };
  }

  return {
    step,
    breaking,
    schemas: () => list.map((l) => l.schema),
    artwork: () => artwork,
    /** The landed migrations and those of the edits run so far, by name (what a server started now runs). */
    migrations: () => migrationList,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A digest of every row of `table` (id → sha256 of its values in column order), leaving out `skip`,
 * with `rename`d columns read under their old names (new → old), and leaving out `revision` too in the
 * rows `fixed` (a migration's write bumps it, as every write does).
 */
export async function rowDigests(
  db: Kysely<any>,
  skip: string[],
  rename: Record<string, string> = {},
  fixed: number[] = [],
  table = 'artworks',
): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const loose = new Set(fixed);
  const rows = (await sql.raw<Json>(`SELECT * FROM "${table}" ORDER BY id`).execute(db)).rows;
  // the columns compared, under their compared names, in one order (worked out once, not per row)
  const order = (left: string[]) =>
    Object.keys(rows[0] ?? {})
      .map((k): [string, string] => [rename[k] ?? k, k])
      .filter(([name]) => !left.includes(name))
      .sort(([a], [b]) => a.localeCompare(b));
  const plain = order(skip);
  const fixedOrder = order([...skip, 'revision']);
  for (const row of rows) {
    const cols = loose.has(Number(row.id)) ? fixedOrder : plain;
    const values = cols.map(([name, k]) => [name, row[k]]);
    out.set(Number(row.id), createHash('sha256').update(JSON.stringify(values)).digest('hex'));
  }
  return out;
}

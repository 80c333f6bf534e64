/**
 * Storage codegen: the resource tables as the schemas declare them (kernel/server/model.ts), kept in step
 * with the migrations (README "Changing a schema").
 *
 * - `storageSnapshot(models)` (storage/diff.ts): the storage model of the resource tables (columns, plain
 *   indexes, the free-text index, the resource name and the value rules). `server/db/migrations/
 *   storage.snapshot.json` holds the model the migrations produce (checked by tests/api/storage.test.ts
 *   against a migrated database).
 * - `diffStorage(before, after, hints)` (storage/diff.ts): the steps from one model to the other: add,
 *   rename (`x-renamedFrom`) or remove (`x-removed`) a column, change a column where a conversion is
 *   defined, check a tightened rule, add or rename a table (`x-storage.renamedFrom`), remove one
 *   (`--remove-table`), indexes and the free-text index. Throws, naming it, on a change it has no step for.
 * - `migrationSource(name, steps)` (storage/emit.ts): a self-contained migration file (SQLite and
 *   PostgreSQL) doing the steps in one transaction, refusing at `up()` when live rows break a tightened
 *   rule; frozen once landed like every migration.
 * - `tablesSource(models)`: `server/db/generated/tables.ts`, the Kysely table interfaces of the resources.
 * - `storageFiles(...)`: what `npm run codegen` writes: the table types and, when the schemas' model
 *   differs from the snapshot, a new dated migration, the generated migrations/index.ts listing it and the new
 *   snapshot. `codegen --check` therefore fails when a schema and the migrations disagree.
 */
import type { ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { REVISION, resourceModels, type ColumnModel, type ResourceModel } from '../../kernel/server/model';
import {
  describeSteps,
  diffStorage,
  evolutionHints,
  storageSnapshot,
  type StorageSnapshot,
  type Step,
} from './storage/diff';
import { migrationSource } from './storage/emit';

export {
  additiveOnly,
  describeSteps,
  diffStorage,
  evolutionHints,
  storageSnapshot,
  type EvolutionHints,
  type SearchSnapshot,
  type Step,
  type StorageSnapshot,
  type TableSnapshot,
} from './storage/diff';
export { migrationSource } from './storage/emit';
export { REVISION_FUNCTION, revisionStatements } from './storage/sql';

type ResourceSchemaLike = Record<string, any>;

const pascal = (s: string) => s.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

function tsType(c: ColumnModel, json: boolean): string {
  const base = c.type === 'text' ? 'string' : 'number';
  const t = c.notNull ? base : `${base} | null`;
  if (c.primaryKey) return 'Generated<number>';
  if (json) return c.notNull ? 'JsonText' : 'string | null';
  return c.default !== undefined ? `Generated<${t}>` : t;
}

/** `server/db/generated/tables.ts`: the Kysely table interfaces of the resources (see the module doc). */
export function tablesSource(models: Iterable<ResourceModel>, banner: string): string {
  const list = [...models].sort((a, b) => a.table.localeCompare(b.table));
  const interfaces = list.map((m) => {
    const lines = Object.entries(m.columns).map(([n, c]) => `  ${n}: ${tsType(c, m.json[n] !== undefined)};`);
    return `/** Table \`${m.table}\` of the ${m.name} resource (schemas/${m.schemaId}.schema.json). */\nexport interface ${pascal(m.table)}Table {\n${lines.join('\n')}\n}`;
  });
  const types = [...new Set(list.map((m) => m.typeName))].sort().join(', ');
  return `${banner}import type { ColumnType, Generated } from 'kysely';
import type { ${types} } from '../../../common/generated/types';

/** A JSON text column with a database default ('{}' or '[]'): optional on insert. */
export type JsonText = ColumnType<string, string | undefined, string>;

${interfaces.join('\n\n')}

/** The resource tables, by table name (merged into server/db/database.ts \`Database\`). */
export interface ResourceTables {
${list.map((m) => `  ${m.table}: ${pascal(m.table)}Table;`).join('\n')}
}

/** The records the API answers, by resource name: the schema's type plus its revision and display fields. */
export interface ResourceRecords {
${list
  .map((m) => {
    const extra = [`${REVISION}: number`, ...m.display.map((d) => `${d.name}: string | null`)].join('; ');
    return `  ${m.name}: ${m.typeName} & { ${extra} };`;
  })
  .join('\n')}
}
`;
}

/** `YYYYMMDDTHHMM` in UTC, the migrations' name prefix. */
export const migrationStamp = (d = new Date()) => d.toISOString().slice(0, 16).replace(/[-:]/g, '');

/** A migration's file name without `.ts`: `YYYYMMDDTHHMM_words`. */
export const MIGRATION_NAME = /^\d{8}T\d{4}_[A-Za-z0-9_]+$/;

/** The longest migration name `migrationName` gives (far below a file name's 255 bytes, with `.ts`). */
export const MIGRATION_NAME_MAX = 80;

/**
 * A storage migration's name: `<stamp>_storage_<tables joined by _>`, or, when that would be longer than
 * `MIGRATION_NAME_MAX` characters (many tables: the ENAMETOOLONG schema fuzzing found), the first
 * tables that fit and `_and_<n>_more`. Matches `MIGRATION_NAME`.
 */
export function migrationName(stamp: string, tables: string[]): string {
  const unique = [...new Set(tables)];
  const full = `${stamp}_storage_${unique.join('_')}`;
  if (full.length <= MIGRATION_NAME_MAX) return full;
  let name = `${stamp}_storage`;
  for (const [i, t] of unique.entries()) {
    const tail = `_and_${unique.length - i - 1}_more`;
    if (`${name}_${t}${tail}`.length > MIGRATION_NAME_MAX) return `${name}_and_${unique.length - i}_more`;
    name = `${name}_${t}`;
  }
  return name;
}

/**
 * The source of migrations/index.ts (a generated file): the migrations `known` (the files of the folder,
 * or when not given the names listed in `indexSource`), plus `added` when given, in name order.
 */
export function migrationsIndexSource(
  indexSource: string,
  banner: string,
  added?: string,
  known?: string[],
): string {
  const listed = [...indexSource.matchAll(/'(\d{8}T\d{4}_[A-Za-z0-9_]+)'/g)].map((m) => m[1]);
  const names = [...new Set([...(known ?? listed), ...(added ? [added] : [])])].sort();
  const ident = (name: string) => `m${name.replace(/[^A-Za-z0-9]/g, '_')}`;
  return `${banner}/**
 * Every migration, in order. Kysely runs them by name (the date prefix keeps the order); a migration is
 * frozen once it lands. \`npm run codegen\` lists every \`YYYYMMDDTHHMM_name.ts\` file of this folder here,
 * and writes a new one when a schema's storage changes (scripts/codegen/storage.ts); after a hand-written
 * one, run \`npm run codegen -- --accept-storage\`.
 */
import type { Migration } from 'kysely';
${names.map((n) => `import * as ${ident(n)} from './${n}';`).join('\n')}

export const migrations: Record<string, Migration> = {
${names.map((n) => `  '${n}': ${ident(n)},`).join('\n')}
};
`;
}

/** Where the snapshot and the migrations live, relative to the project root. */
export const SNAPSHOT_PATH = 'server/db/migrations/storage.snapshot.json';
export const MIGRATIONS_INDEX = 'server/db/migrations/index.ts';
export const TABLES_PATH = 'server/db/generated/tables.ts';

/**
 * The migration the schemas need beyond the snapshot: its name, steps (storage/diff.ts) and the models'
 * snapshot, or `steps: []` when none (or no snapshot yet). Writes nothing (`codegen --plan` uses it too).
 * @throws an Error naming the table or column of an edit with no defined step
 */
export function plannedMigration(opts: {
  schemas: ResourceSchemaLike[];
  read: (path: string) => string | undefined;
  now?: Date;
  removeTables?: string[];
}): { name: string; steps: Step[]; current: StorageSnapshot; summary: string[] } {
  const schemas = opts.schemas as ResourceSchema[];
  const current = storageSnapshot(resourceModels(schemas).values());
  const text = opts.read(SNAPSHOT_PATH);
  if (text === undefined) return { name: '', steps: [], current, summary: [] };
  const { $comment: _comment, ...stored } = JSON.parse(text) as StorageSnapshot & { $comment?: string };
  const steps = diffStorage(stored, current, evolutionHints(schemas, opts.removeTables));
  const name = steps.length
    ? migrationName(
        migrationStamp(opts.now),
        steps.map((s) => s.table),
      )
    : '';
  return { name, steps, current, summary: describeSteps(steps) };
}

/**
 * The files `npm run codegen` writes for storage (path relative to `root` → content): the table types,
 * and, when `schemas` give a storage model other than the snapshot's, a new migration, the migrations
 * index with it, and the new snapshot. With `--accept-storage` on the command line, only the snapshot
 * (for a change written by hand as a migration). Without a snapshot yet, the first one is the current
 * model (it equals what the hand-written migrations create).
 * @param read reads a file relative to the root, or undefined when absent
 * @param format formats TypeScript source (prettier), `formatJson` JSON
 */
export async function storageFiles(opts: {
  schemas: ResourceSchemaLike[];
  read: (path: string) => string | undefined;
  format: (src: string) => Promise<string>;
  formatJson: (src: string) => Promise<string>;
  banner: string;
  now?: Date;
  accept?: boolean;
  /** The migration names in server/db/migrations/ (file names without `.ts`); default: the index's. */
  migrations?: string[];
  /** Tables to remove (`--remove-table`): their rows are kept in `removed_<table>`. */
  removeTables?: string[];
}): Promise<Record<string, string>> {
  const models = resourceModels(opts.schemas as ResourceSchema[]);
  const out: Record<string, string> = {
    [TABLES_PATH]: await opts.format(tablesSource(models.values(), opts.banner)),
    [MIGRATIONS_INDEX]: await opts.format(
      migrationsIndexSource(opts.read(MIGRATIONS_INDEX) ?? '', opts.banner, undefined, opts.migrations),
    ),
  };
  const planned = opts.accept
    ? { name: '', steps: [], current: storageSnapshot(models.values()) }
    : plannedMigration(opts);
  out[SNAPSHOT_PATH] = await opts.formatJson(
    JSON.stringify({
      $comment:
        'GENERATED by scripts/codegen.ts (scripts/codegen/storage.ts): the storage model the migrations produce. DO NOT EDIT: run `npm run codegen`.',
      ...planned.current,
    }),
  );
  if (!planned.steps.length) return out;
  out[`server/db/migrations/${planned.name}.ts`] = await opts.format(
    migrationSource(planned.name, planned.steps),
  );
  out[MIGRATIONS_INDEX] = await opts.format(
    migrationsIndexSource(opts.read(MIGRATIONS_INDEX) ?? '', opts.banner, planned.name, opts.migrations),
  );
  return out;
}

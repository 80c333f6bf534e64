/**
 * Storage codegen: the resource tables as the schemas declare them (kernel/server/model.ts), kept in step
 * with the migrations.
 *
 * - `storageSnapshot(models)`: the storage model of the resource tables (columns, plain indexes, the
 *   free-text index). `server/db/migrations/storage.snapshot.json` holds the model the migrations produce;
 *   its first version equals what the hand-written migrations 20261122T0001..0300 create (checked by
 *   tests/unit/storage.test.ts against a migrated database).
 * - `diffStorage(before, after)`: the steps from one model to the other: add table, add column, add
 *   index, (re)build the free-text index. A change it cannot make safely (a removed or changed column, a
 *   required column added to a table without a default) throws, naming it: write that migration by hand
 *   and accept the model with `npm run codegen -- --accept-storage`.
 * - `migrationSource(name, steps)`: a self-contained migration file (SQLite and PostgreSQL) doing the
 *   steps; frozen once landed like every migration.
 * - `tablesSource(models)`: `server/db/generated/tables.ts`, the Kysely table interfaces of the resources.
 * - `storageFiles(...)`: what `npm run codegen` writes: the table types and, when the schemas' model
 *   differs from the snapshot, a new dated migration, the generated migrations/index.ts listing it and the new
 *   snapshot. `codegen --check` therefore fails when a schema and the migrations disagree.
 */
import type { ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { REVISION, resourceModels, type ColumnModel, type ResourceModel } from '../../kernel/server/model';
import { pgSearchBuild, pgSearchDrop } from '../../kernel/server/searchIndex';

type ResourceSchemaLike = Record<string, any>;

export interface SearchSnapshot {
  index: 'trigram';
  columns: { name: string; nullable: boolean }[];
  references: { column: string; table: string; field: string }[];
  /**
   * PostgreSQL: `'doc'`, the `<table>_search` table (kernel/server/searchIndex.ts); absent in the first
   * snapshots, whose migrations made one pg_trgm index per field instead.
   */
  pg?: 'doc';
}

export interface TableSnapshot {
  columns: Record<string, ColumnModel>;
  /** Plain indexes by name: `<table>_<column>`. */
  indexes: Record<string, string[]>;
  search?: SearchSnapshot;
}

export interface StorageSnapshot {
  tables: Record<string, TableSnapshot>;
}

/** The storage model of `models` (sorted by table, so equal models give equal JSON). */
export function storageSnapshot(models: Iterable<ResourceModel>): StorageSnapshot {
  const tables: Record<string, TableSnapshot> = {};
  for (const m of [...models].sort((a, b) => a.table.localeCompare(b.table))) {
    const t: TableSnapshot = {
      columns: m.columns,
      indexes: Object.fromEntries(m.indexes.map((c) => [`${m.table}_${c}`, [c]])),
    };
    if (m.search.index === 'trigram')
      t.search = {
        index: 'trigram',
        columns: m.search.columns.map((name) => ({ name, nullable: !m.columns[name]?.notNull })),
        references: m.search.references,
        pg: 'doc',
      };
    tables[m.table] = t;
  }
  return JSON.parse(JSON.stringify({ tables })) as StorageSnapshot;
}

export type Step =
  | { kind: 'addTable'; table: string; spec: TableSnapshot }
  | { kind: 'addColumn'; table: string; column: string; spec: ColumnModel }
  | { kind: 'addIndex'; table: string; name: string; columns: string[] }
  | { kind: 'search'; table: string; before?: SearchSnapshot; after?: SearchSnapshot };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The steps from `before` to `after` (see the module doc); throws on a change it cannot make. */
export function diffStorage(before: StorageSnapshot, after: StorageSnapshot): Step[] {
  const steps: Step[] = [];
  for (const name of Object.keys(before.tables))
    if (!after.tables[name])
      throw new Error(
        `storage: table "${name}" is no longer declared; dropping it is a hand-written migration`,
      );
  for (const [table, spec] of Object.entries(after.tables)) {
    const old = before.tables[table];
    if (!old) {
      steps.push({ kind: 'addTable', table, spec });
      continue;
    }
    for (const column of Object.keys(old.columns))
      if (!spec.columns[column])
        throw new Error(
          `storage: column "${table}.${column}" is no longer declared; that is a hand-written migration`,
        );
    for (const [column, c] of Object.entries(spec.columns)) {
      const was = old.columns[column];
      if (was) {
        if (!same(was, c))
          throw new Error(
            `storage: column "${table}.${column}" changed (${JSON.stringify(was)} -> ${JSON.stringify(c)}); that is a hand-written migration`,
          );
        continue;
      }
      if (c.primaryKey) throw new Error(`storage: "${table}" cannot get a new primary key`);
      if (c.notNull && c.default === undefined)
        throw new Error(
          `storage: new column "${table}.${column}" is required and has no default; existing rows need one (give it a "default" or make it nullable)`,
        );
      steps.push({ kind: 'addColumn', table, column, spec: c });
    }
    for (const [name, columns] of Object.entries(spec.indexes)) {
      if (old.indexes[name] && !same(old.indexes[name], columns))
        throw new Error(`storage: index "${name}" changed; that is a hand-written migration`);
      if (!old.indexes[name]) steps.push({ kind: 'addIndex', table, name, columns });
    }
    if (!same(old.search, spec.search))
      steps.push({ kind: 'search', table, before: old.search, after: spec.search });
  }
  return steps;
}

const q = (id: string) => JSON.stringify(id);
/** An SQL literal of a column default (model.ts gives booleans as 1/0); throws on any other value. */
function lit(v: unknown): string {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'string') return `'${v.replace(/'/g, "''")}'`;
  throw new Error(`storage: a column default must be a string or a number, got ${JSON.stringify(v)}`);
}

/** The Kysely column builder of `c`, as source text (`(c) => c.notNull()...`). */
function builder(c: ColumnModel, addingToExisting: boolean): string {
  let out = 'c';
  if (c.notNull) out += '.notNull()';
  if (c.default !== undefined) out += `.defaultTo(${lit(c.default)})`;
  // SQLite cannot add a UNIQUE column to an existing table: a unique index does it (see uniqueIndexes).
  if (c.unique && !addingToExisting) out += '.unique()';
  if (c.references) out += `.references(${q(c.references)})`;
  return out === 'c' ? '' : `, (c) => ${out}`;
}

function columnLine(name: string, c: ColumnModel, addingToExisting: boolean): string {
  if (c.primaryKey) return `.addColumn(${q(name)}, idType, idCol)`;
  // A number is a double on both: SQLite's REAL is 8 bytes, PostgreSQL's `real` only 4 (float4).
  const type = c.type === 'real' ? 'realType' : q(c.type);
  return `.addColumn(${q(name)}, ${type}${builder(c, addingToExisting)})`;
}

/** SQL statements (SQLite) that build the FTS5 trigram table of `table` and the triggers keeping it. */
function ftsBuild(table: string, s: SearchSnapshot): string[] {
  const fts = `${table}_fts`;
  const names = [...s.columns.map((c) => c.name), ...s.references.map((r) => r.field)];
  const cols = names.map(q).join(', ');
  const row = (a: string) =>
    [
      `${a}.id`,
      ...s.columns.map((c) => (c.nullable ? `coalesce(${a}.${q(c.name)}, '')` : `${a}.${q(c.name)}`)),
      ...s.references.map(
        (r) =>
          `coalesce((select ${q(r.field)} from ${q(r.table)} where ${q(r.table)}.id = ${a}.${q(r.column)}), '')`,
      ),
    ].join(', ');
  const insert = `INSERT INTO ${q(fts)}(rowid, ${cols})`;
  const watched = [...s.columns.map((c) => c.name), ...new Set(s.references.map((r) => r.column))]
    .map(q)
    .join(', ');
  const out = [
    `CREATE VIRTUAL TABLE ${q(fts)} USING fts5(${cols}, tokenize='trigram')`,
    `${insert} SELECT ${row('a')} FROM ${q(table)} a`,
    `CREATE TRIGGER ${q(`${fts}_insert`)} AFTER INSERT ON ${q(table)} BEGIN ${insert} SELECT ${row('new')}; END`,
    `CREATE TRIGGER ${q(`${fts}_delete`)} AFTER DELETE ON ${q(table)} BEGIN DELETE FROM ${q(fts)} WHERE rowid = old.id; END`,
    `CREATE TRIGGER ${q(`${fts}_update`)} AFTER UPDATE OF ${watched} ON ${q(table)} BEGIN DELETE FROM ${q(fts)} WHERE rowid = old.id; ${insert} SELECT ${row('new')}; END`,
  ];
  const byTable = new Map<string, { fields: string[]; column: string }>();
  for (const r of s.references) {
    const e = byTable.get(r.table) ?? { fields: [], column: r.column };
    e.fields.push(r.field);
    byTable.set(r.table, e);
  }
  for (const [ref, { fields, column }] of byTable)
    out.push(
      `CREATE TRIGGER ${q(`${fts}_${ref}`)} AFTER UPDATE OF ${fields.map(q).join(', ')} ON ${q(ref)} BEGIN DELETE FROM ${q(fts)} WHERE rowid IN (SELECT id FROM ${q(table)} WHERE ${q(column)} = new.id); ${insert} SELECT ${row('a')} FROM ${q(table)} a WHERE a.${q(column)} = new.id; END`,
    );
  return out;
}

/** SQL statements (SQLite) that drop the FTS table of `table` and its triggers (the hand-written names too). */
function ftsDrop(table: string, s: SearchSnapshot): string[] {
  const fts = `${table}_fts`;
  const triggers = ['insert', 'delete', 'update', ...new Set(s.references.map((r) => r.table))];
  // The hand-written search migration named the authors trigger `artworks_fts_author`.
  if (table === 'artworks') triggers.push('author');
  return [
    ...triggers.map((t) => `DROP TRIGGER IF EXISTS ${q(`${fts}_${t}`)}`),
    `DROP TABLE IF EXISTS ${q(fts)}`,
  ];
}

/** PostgreSQL pg_trgm indexes of a search: `[table, column]` pairs. */
function trgmIndexes(table: string, s: SearchSnapshot | undefined): [string, string][] {
  if (!s || s.pg === 'doc') return [];
  return [
    ...s.columns.map((c) => [table, c.name] as [string, string]),
    ...s.references.map((r) => [r.table, r.field] as [string, string]),
  ];
}

const trgmName = ([table, column]: [string, string]) => `${table}_${column}_trgm`;

/** The fields a search covers, without the PostgreSQL layout (what both databases index). */
const fieldsOf = (s: SearchSnapshot | undefined) => s && { columns: s.columns, references: s.references };

/**
 * The statements of a free-text index change, both ways, on each database: SQLite rebuilds its FTS5
 * table only when the fields change; PostgreSQL drops the per-field pg_trgm indexes of the first
 * snapshots (under their quoted name and the lower-case name the hand-written migration gave them) and
 * (re)builds `<table>_search` (kernel/server/searchIndex.ts) when the fields or the layout change.
 */
function searchStatements(table: string, before?: SearchSnapshot, after?: SearchSnapshot) {
  const fieldsChanged = !same(fieldsOf(before), fieldsOf(after));
  const liteUp = fieldsChanged
    ? [...(before ? ftsDrop(table, before) : []), ...(after ? ftsBuild(table, after) : [])]
    : [];
  const liteDown = fieldsChanged
    ? [...(after ? ftsDrop(table, after) : []), ...(before ? ftsBuild(table, before) : [])]
    : [];
  const trgmUp = (from?: SearchSnapshot, to?: SearchSnapshot) => {
    const old = trgmIndexes(table, from).map(trgmName);
    const next = trgmIndexes(table, to);
    const names = next.map(trgmName);
    return [
      ...(next.length ? ['CREATE EXTENSION IF NOT EXISTS pg_trgm'] : []),
      ...old
        .filter((n) => !names.includes(n))
        .flatMap((n) => [...new Set([n, n.toLowerCase()])].map((x) => `DROP INDEX IF EXISTS ${q(x)}`)),
      ...next
        .filter((x) => !old.includes(trgmName(x)))
        .map((x) => `CREATE INDEX ${q(trgmName(x))} ON ${q(x[0])} USING gin (${q(x[1])} gin_trgm_ops)`),
    ];
  };
  const docUp = (from?: SearchSnapshot, to?: SearchSnapshot) => {
    if (same(from?.pg === 'doc' && fieldsOf(from), to?.pg === 'doc' && fieldsOf(to))) return [];
    return [
      ...(from?.pg === 'doc' ? pgSearchDrop(table, from) : []),
      ...(to?.pg === 'doc' ? pgSearchBuild(table, to) : []),
    ];
  };
  return {
    pgUp: [...trgmUp(before, after), ...docUp(before, after)],
    pgDown: [...docUp(after, before), ...trgmUp(after, before)],
    liteUp,
    liteDown,
  };
}

/** The PostgreSQL function the revision triggers call (one for every table; made by each migration that needs it). */
export const REVISION_FUNCTION = 'baas_bump_revision';

/**
 * The statements keeping `<table>.revision` (kernel/server/model.ts `REVISION`) one more at every update
 * of a row, whatever writes it: PostgreSQL a BEFORE UPDATE row trigger setting NEW.revision; SQLite, whose
 * triggers cannot change NEW, an AFTER UPDATE row trigger updating the row's revision again (its WHEN
 * stops it from firing on its own update, even with `recursive_triggers` on). An update that sets the
 * revision itself keeps its value on both.
 */
export function revisionStatements(table: string) {
  const trigger = q(`${table}_${REVISION}`);
  const r = q(REVISION);
  return {
    pgUp: [
      `CREATE OR REPLACE FUNCTION ${REVISION_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.${r} = OLD.${r} THEN NEW.${r} := OLD.${r} + 1; END IF; RETURN NEW; END $$`,
      `CREATE TRIGGER ${trigger} BEFORE UPDATE ON ${q(table)} FOR EACH ROW EXECUTE FUNCTION ${REVISION_FUNCTION}()`,
    ],
    pgDown: [`DROP TRIGGER IF EXISTS ${trigger} ON ${q(table)}`],
    liteUp: [
      `CREATE TRIGGER ${trigger} AFTER UPDATE ON ${q(table)} FOR EACH ROW WHEN NEW.${r} = OLD.${r} BEGIN UPDATE ${q(table)} SET ${r} = OLD.${r} + 1 WHERE rowid = NEW.rowid; END`,
    ],
    liteDown: [`DROP TRIGGER IF EXISTS ${trigger}`],
  };
}

/** A one-line summary of the steps (for the migration's doc comment and codegen's output). */
export function describeSteps(steps: Step[]): string[] {
  return steps.map((s) => {
    if (s.kind === 'addTable') return `add table ${s.table}`;
    if (s.kind === 'addColumn') return `add column ${s.table}.${s.column}`;
    if (s.kind === 'addIndex') return `add index ${s.name}`;
    return `rebuild the free-text index of ${s.table}`;
  });
}

/** The source of a migration doing `steps` on SQLite and PostgreSQL (see the module doc). */
export function migrationSource(name: string, steps: Step[]): string {
  const up: string[] = [];
  const down: string[] = [];
  const run = (statements: string[]) => statements.map((st) => `    await sql.raw(${q(st)}).execute(db);`);
  const branch = (pg: string[], lite: string[]) =>
    `  if (pg) {\n${run(pg).join('\n') || '    // nothing to do on PostgreSQL'}\n  } else {\n${run(lite).join('\n') || '    // nothing to do on SQLite'}\n  }`;
  /** The revision trigger of `table`, after its column is made (and dropped before it). */
  const revision = (table: string) => {
    const { pgUp, pgDown, liteUp, liteDown } = revisionStatements(table);
    up.push(branch(pgUp, liteUp));
    down.unshift(branch(pgDown, liteDown));
  };
  for (const s of steps) {
    if (s.kind === 'addTable') {
      up.push(
        `  await db.schema\n    .createTable(${q(s.table)})\n${Object.entries(s.spec.columns)
          .map(([n, c]) => `    ${columnLine(n, c, false)}`)
          .join('\n')}\n    .execute();`,
      );
      for (const [idx, cols] of Object.entries(s.spec.indexes))
        up.push(
          `  await db.schema.createIndex(${q(idx)}).on(${q(s.table)}).columns(${JSON.stringify(cols)}).execute();`,
        );
      down.unshift(`  await db.schema.dropTable(${q(s.table)}).ifExists().execute();`);
      if (s.spec.columns[REVISION]) revision(s.table);
      if (s.spec.search) steps.push({ kind: 'search', table: s.table, after: s.spec.search });
    } else if (s.kind === 'addColumn') {
      up.push(`  await db.schema.alterTable(${q(s.table)})${columnLine(s.column, s.spec, true)}.execute();`);
      if (s.spec.unique)
        up.push(
          `  await db.schema.createIndex(${q(`${s.table}_${s.column}_key`)}).on(${q(s.table)}).column(${q(s.column)}).unique().execute();`,
        );
      down.unshift(`  await db.schema.alterTable(${q(s.table)}).dropColumn(${q(s.column)}).execute();`);
      if (s.spec.unique)
        down.unshift(`  await db.schema.dropIndex(${q(`${s.table}_${s.column}_key`)}).ifExists().execute();`);
      if (s.column === REVISION) revision(s.table);
    } else if (s.kind === 'addIndex') {
      up.push(
        `  await db.schema.createIndex(${q(s.name)}).on(${q(s.table)}).columns(${JSON.stringify(s.columns)}).execute();`,
      );
      down.unshift(`  await db.schema.dropIndex(${q(s.name)}).ifExists().execute();`);
    } else {
      const { pgUp, pgDown, liteUp, liteDown } = searchStatements(s.table, s.before, s.after);
      up.push(branch(pgUp, liteUp));
      down.unshift(branch(pgDown, liteDown));
    }
  }
  const body = [...up, ...down].join('\n');
  const usesSql = body.includes('sql.raw');
  const usesPg = body.includes('if (pg)');
  const usesId = up.some((l) => l.includes('idType'));
  const usesReal = up.some((l) => l.includes('realType'));
  const imports = [
    ...(usesSql ? ['sql'] : []),
    ...(usesId ? ['type ColumnDefinitionBuilder'] : []),
    'type Kysely',
  ];
  const upPrelude = [
    ...(usesPg || usesId || usesReal ? ['  const pg = isPostgres(db);'] : []),
    ...(usesReal ? ["  const realType = pg ? 'double precision' : 'real';"] : []),
    ...(usesId
      ? [
          "  const idType = pg ? 'serial' : 'integer';",
          '  const idCol = (c: ColumnDefinitionBuilder) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());',
        ]
      : []),
  ];
  const downPrelude = down.some((l) => l.includes('if (pg)')) ? ['  const pg = isPostgres(db);'] : [];
  return `// GENERATED by scripts/codegen.ts (scripts/codegen/storage.ts) from schemas/*.schema.json. DO NOT EDIT: frozen once landed.
/**
 * Migration ${name}: ${describeSteps(steps).join('; ')}.
 * Written by \`npm run codegen\` when the schemas' storage model (x-storage, properties) differed from
 * server/db/migrations/storage.snapshot.json. Frozen: never edit after it lands; change a schema instead.
 * Works on SQLite and PostgreSQL (identity columns and the free-text index differ).
 */
import { ${imports.join(', ')} } from 'kysely';
${
  usesPg || usesId || usesReal
    ? `
function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}
`
    : ''
}
export async function up(db: Kysely<any>): Promise<void> {
${[...upPrelude, ...up].join('\n')}
}

export async function down(db: Kysely<any>): Promise<void> {
${[...downPrelude, ...down].join('\n')}
}
`;
}

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
}): Promise<Record<string, string>> {
  const models = resourceModels(opts.schemas as ResourceSchema[]);
  const current = storageSnapshot(models.values());
  const out: Record<string, string> = {
    [TABLES_PATH]: await opts.format(tablesSource(models.values(), opts.banner)),
    [MIGRATIONS_INDEX]: await opts.format(
      migrationsIndexSource(opts.read(MIGRATIONS_INDEX) ?? '', opts.banner, undefined, opts.migrations),
    ),
  };
  const text = opts.read(SNAPSHOT_PATH);
  const snapshotText = await opts.formatJson(
    JSON.stringify({
      $comment:
        'GENERATED by scripts/codegen.ts (scripts/codegen/storage.ts): the storage model the migrations produce. DO NOT EDIT: run `npm run codegen`.',
      ...current,
    }),
  );
  if (text === undefined || opts.accept) {
    out[SNAPSHOT_PATH] = snapshotText;
    return out;
  }
  const { $comment: _comment, ...stored } = JSON.parse(text) as StorageSnapshot & { $comment?: string };
  const steps = diffStorage(stored, current);
  if (!steps.length) {
    out[SNAPSHOT_PATH] = snapshotText;
    return out;
  }
  const name = migrationName(
    migrationStamp(opts.now),
    steps.map((s) => s.table),
  );
  out[`server/db/migrations/${name}.ts`] = await opts.format(migrationSource(name, steps));
  out[MIGRATIONS_INDEX] = await opts.format(
    migrationsIndexSource(opts.read(MIGRATIONS_INDEX) ?? '', opts.banner, name, opts.migrations),
  );
  out[SNAPSHOT_PATH] = snapshotText;
  return out;
}

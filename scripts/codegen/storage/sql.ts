/**
 * SQL text the storage migrations run (scripts/codegen/storage/emit.ts): column builders, the free-text
 * index (FTS5 on SQLite, pg_trgm on PostgreSQL) and the revision triggers. Pure: strings only.
 */
import type { ColumnModel } from '../../../kernel/server/model';
import { REVISION } from '../../../kernel/server/model';
import { pgSearchBuild, pgSearchDrop } from '../../../kernel/server/searchIndex';
import type { SearchSnapshot } from './diff';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A quoted SQL identifier. */
export const q = (id: string) => JSON.stringify(id);
/** An SQL literal of a column default (model.ts gives booleans as 1/0); throws on any other value. */
export function lit(v: unknown): string {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'string') return `'${v.replace(/'/g, "''")}'`;
  throw new Error(`storage: a column default must be a string or a number, got ${JSON.stringify(v)}`);
}

/** The Kysely column builder of `c`, as source text (`(c) => c.notNull()...`). */
export function builder(c: ColumnModel, addingToExisting: boolean): string {
  let out = 'c';
  if (c.notNull) out += '.notNull()';
  if (c.default !== undefined) out += `.defaultTo(${lit(c.default)})`;
  // SQLite cannot add a UNIQUE column to an existing table: a unique index does it (see uniqueIndexes).
  if (c.unique && !addingToExisting) out += '.unique()';
  if (c.references) out += `.references(${q(c.references)})`;
  return out === 'c' ? '' : `, (c) => ${out}`;
}

export function columnLine(name: string, c: ColumnModel, addingToExisting: boolean): string {
  if (c.primaryKey) return `.addColumn(${q(name)}, idType, idCol)`;
  // A number is a double on both: SQLite's REAL is 8 bytes, PostgreSQL's `real` only 4 (float4).
  const type = c.type === 'real' ? 'realType' : q(c.type);
  return `.addColumn(${q(name)}, ${type}${builder(c, addingToExisting)})`;
}

/** The SQLite FTS5 insert of `table`'s search `s`: its columns, and the values of row `a`. */
function ftsRow(table: string, s: SearchSnapshot) {
  const names = [...s.columns.map((c) => c.name), ...s.references.map((r) => r.field)];
  const row = (a: string) =>
    [
      `${a}.id`,
      ...s.columns.map((c) => (c.nullable ? `coalesce(${a}.${q(c.name)}, '')` : `${a}.${q(c.name)}`)),
      ...s.references.map(
        (r) =>
          `coalesce((select ${q(r.field)} from ${q(r.table)} where ${q(r.table)}.id = ${a}.${q(r.column)}), '')`,
      ),
    ].join(', ');
  const cols = names.map(q).join(', ');
  return { cols, insert: `INSERT INTO ${q(`${table}_fts`)}(rowid, ${cols})`, row };
}

/** SQL statements (SQLite) that build the FTS5 trigram table of `table` and the triggers keeping it. */
export function ftsBuild(table: string, s: SearchSnapshot): string[] {
  const { cols, insert, row } = ftsRow(table, s);
  return [
    `CREATE VIRTUAL TABLE ${q(`${table}_fts`)} USING fts5(${cols}, tokenize='trigram')`,
    `${insert} SELECT ${row('a')} FROM ${q(table)} a`,
    ...ftsTriggers(table, s),
  ];
}

/** SQL statements (SQLite) that make the triggers keeping the FTS table of `table` (part of {@link ftsBuild}). */
function ftsTriggers(table: string, s: SearchSnapshot): string[] {
  const fts = `${table}_fts`;
  const { insert, row } = ftsRow(table, s);
  const watched = [...s.columns.map((c) => c.name), ...new Set(s.references.map((r) => r.column))]
    .map(q)
    .join(', ');
  const out = [
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
export function ftsDrop(table: string, s: SearchSnapshot): string[] {
  return [...ftsTriggersDrop(table, s), `DROP TABLE IF EXISTS ${q(`${table}_fts`)}`];
}

/** The names of the triggers {@link ftsTriggers} makes, in its order. */
export const ftsTriggerNames = (table: string, s: SearchSnapshot): string[] =>
  ['insert', 'delete', 'update', ...new Set(s.references.map((r) => r.table))].map(
    (t) => `${table}_fts_${t}`,
  );

/** SQL statements (SQLite) that drop the triggers of the FTS table of `table` (the hand-written names too). */
export function ftsTriggersDrop(table: string, s: SearchSnapshot): string[] {
  const triggers = ftsTriggerNames(table, s);
  // The hand-written search migration named the authors trigger `artworks_fts_author`.
  if (table === 'artworks') triggers.push('artworks_fts_author');
  return triggers.map((t) => `DROP TRIGGER IF EXISTS ${q(t)}`);
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
export function searchStatements(table: string, before?: SearchSnapshot, after?: SearchSnapshot) {
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

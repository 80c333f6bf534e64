/**
 * The storage snapshot (what the migrations produce) and the diff of two snapshots into migration steps
 * (README "Changing a schema"). The emitter is scripts/codegen/storage/emit.ts.
 *
 * - `storageSnapshot(models)`: per table its columns, plain indexes, free-text index, its resource name
 *   and the value rules of its stored properties (scripts/codegen/storage/rules.ts). A snapshot written
 *   before `resource` and `rules` existed lacks them: nothing is checked against unknown rules.
 * - `evolutionHints(schemas, removeTables)`: what the schemas say about an edit beyond the new model:
 *   `x-renamedFrom` (property), `x-removed` (root), `x-fill` (property), `x-onBreak` (root),
 *   `x-storage.renamedFrom` (table), and the tables removed on the command line (`--remove-table`).
 * - `diffStorage(before, after, hints)`: the steps. Throws, naming the table or column, on an edit it has
 *   no safe step for: a table or column gone without being named removed or renamed, a type change with
 *   no defined conversion (kernel/dialect/keywords.ts lists them), a new primary key. A renamed table is
 *   one step (its objects follow it: rename.ts); the snapshot it is compared with is the old one under
 *   the new names, so are the references and searches of every table reading it: none of them changes
 *   for the rename alone.
 */
import type { ResourceSchema } from '../../../kernel/dialect/schemaRegistry';
import { auditTarget, type AuditTarget } from './audit';
import type { ColumnModel, ResourceModel } from '../../../kernel/server/model';
import {
  columnRules,
  conversion,
  requiredCheck,
  tightenedChecks,
  uniqueCheck,
  type Check,
  type Fix,
  type Rule,
} from './rules';

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
  /** The resource stored here (audit_log.resource names it); absent in snapshots before schema evolution. */
  resource?: string;
  columns: Record<string, ColumnModel>;
  /** Plain indexes by name: `<table>_<column>`. */
  indexes: Record<string, string[]>;
  search?: SearchSnapshot;
  /** The value rules of the stored properties (rules.ts); absent in snapshots before schema evolution. */
  rules?: Record<string, Rule>;
}

export interface StorageSnapshot {
  tables: Record<string, TableSnapshot>;
}

/** The storage model of `models` (sorted by table, so equal models give equal JSON). */
export function storageSnapshot(models: Iterable<ResourceModel>): StorageSnapshot {
  const tables: Record<string, TableSnapshot> = {};
  for (const m of [...models].sort((a, b) => a.table.localeCompare(b.table))) {
    const t: TableSnapshot = {
      resource: m.name,
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
    const rules = columnRules(m.schema);
    t.rules = Object.fromEntries(Object.entries(rules).filter(([c]) => m.columns[c]));
    tables[m.table] = t;
  }
  return JSON.parse(JSON.stringify({ tables })) as StorageSnapshot;
}

/** What one table's schema says about its evolution (see the module doc). */
export interface TableHints {
  /** `x-storage.renamedFrom`: the table's previous name. */
  renamedFrom?: string;
  /** `x-renamedFrom` of properties: new column name → previous name. */
  renamed: Record<string, string>;
  /** `x-removed`: columns removed on purpose (their values are archived, README "Changing a schema"). */
  removed: string[];
  /** `x-onBreak`, with `x-fill` as the fix of `required`: per column, what to write into breaking rows. */
  onBreak: Record<string, Fix>;
  fill: Record<string, Fix>;
}

export interface EvolutionHints {
  tables: Record<string, TableHints>;
  /** Tables to remove (`codegen --remove-table <table>`); their rows are kept in `removed_<table>`. */
  removeTables: string[];
}

export const NO_HINTS: EvolutionHints = { tables: {}, removeTables: [] };

/** The hints of `schemas` (see the module doc); `removeTables` from the command line. */
export function evolutionHints(schemas: ResourceSchema[], removeTables: string[] = []): EvolutionHints {
  const tables: Record<string, TableHints> = {};
  for (const s of schemas) {
    const table = s['x-storage']?.table as string | undefined;
    if (!table) continue;
    const renamed: Record<string, string> = {};
    const fill: Record<string, Fix> = {};
    for (const [name, p] of Object.entries(s.properties)) {
      if (typeof p['x-renamedFrom'] === 'string') renamed[name] = p['x-renamedFrom'] as string;
      if (p['x-fill'] !== undefined) fill[name] = { set: p['x-fill'] as string | number | boolean | null };
    }
    const removed = ((s as Record<string, unknown>)['x-removed'] as string[] | undefined) ?? [];
    for (const r of removed)
      if (s.properties[r])
        throw new Error(`storage: ${s.$id}: x-removed names "${r}", which is still a property; remove one`);
    tables[table] = {
      renamedFrom: s['x-storage']?.renamedFrom as string | undefined,
      renamed,
      removed,
      onBreak: ((s as Record<string, unknown>)['x-onBreak'] as Record<string, Fix> | undefined) ?? {},
      fill,
    };
  }
  return { tables, removeTables };
}

/** A free-text index whose triggers follow a table rename (see the `renameTable` step). */
export interface RenamedSearch {
  /** The searching table's name before and after the migration. */
  from: string;
  table: string;
  before: SearchSnapshot;
  after: SearchSnapshot;
}

export type Step =
  | { kind: 'addTable'; table: string; spec: TableSnapshot }
  | {
      kind: 'renameTable';
      table: string;
      from: string;
      before: TableSnapshot;
      /**
       * The free-text indexes whose triggers are named after the table or read it, as they were and under
       * the new names: its own (`from` → `table`) and those of the tables that search a field of its
       * records (their names unchanged, unless they are renamed too).
       */
      searches: RenamedSearch[];
    }
  | { kind: 'removeTable'; table: string; before: TableSnapshot }
  | { kind: 'renameResource'; table: string; from: string; to: string }
  | { kind: 'addColumn'; table: string; column: string; spec: ColumnModel }
  | {
      kind: 'renameColumn';
      table: string;
      column: string;
      from: string;
      resource?: string;
      /** The column (its unique index and foreign key are named after it). */
      spec: ColumnModel;
      /** The table's free-text index, under the new names, when the column is one of its fields. */
      search?: SearchSnapshot;
      /** The column's plain index `<table>_<from>`, renamed `<table>_<column>` (`to`), when it has one. */
      index?: { from: string; to: string; columns: string[] };
    }
  | { kind: 'removeColumn'; table: string; column: string; spec: ColumnModel; after: TableSnapshot }
  | {
      kind: 'changeColumn';
      table: string;
      column: string;
      before: ColumnModel;
      spec: ColumnModel;
      after: TableSnapshot;
      convert?: 'toDateTime';
    }
  | { kind: 'check'; table: string; check: Check; audit?: AuditTarget }
  | { kind: 'addIndex'; table: string; name: string; columns: string[] }
  | { kind: 'dropIndex'; table: string; name: string }
  | { kind: 'search'; table: string; before?: SearchSnapshot; after?: SearchSnapshot };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const EMPTY_HINTS: TableHints = { renamed: {}, removed: [], onBreak: {}, fill: {} };

/**
 * `t` (table `table`) with column `from` named `to`: its rules, plain indexes and the free-text index's
 * fields follow (a rename changes no value, so the index's text stays: emit.ts makes only its triggers read
 * the new name); its plain index `<table>_<from>` is named `<table>_<to>` (emit.ts renames it).
 */
function renamedIn(t: TableSnapshot, table: string, from: string, to: string): TableSnapshot {
  const rename = (k: string) => (k === from ? to : k);
  const columns = Object.fromEntries(Object.entries(t.columns).map(([k, v]) => [rename(k), v]));
  const rules = t.rules && Object.fromEntries(Object.entries(t.rules).map(([k, v]) => [rename(k), v]));
  const indexes = Object.fromEntries(
    Object.entries(t.indexes).map(([k, v]) => [
      k === `${table}_${from}` ? `${table}_${to}` : k,
      v.map(rename),
    ]),
  );
  const search = t.search && {
    ...t.search,
    columns: t.search.columns.map((c) => ({ ...c, name: rename(c.name) })),
    references: t.search.references.map((r) => ({ ...r, column: rename(r.column) })),
  };
  return { ...t, columns, indexes, ...(rules ? { rules } : {}), ...(search ? { search } : {}) };
}

/**
 * `t`, once stored as `table` (formerly `from`), after the migration's table renames `names` (old → new):
 * its plain indexes named after `from` are named after `table`, and its references and the tables its
 * free-text index reads follow the renamed tables (emit.ts renames the objects; a foreign key follows a
 * renamed table on both databases by itself).
 */
function retargeted(
  t: TableSnapshot,
  from: string,
  table: string,
  names: Map<string, string>,
): TableSnapshot {
  const tableOf = (x: string) => names.get(x) ?? x;
  const columns = Object.fromEntries(
    Object.entries(t.columns).map(([k, c]) => {
      if (!c.references) return [k, c];
      const [rt, rc] = c.references.split('.');
      return [k, { ...c, references: `${tableOf(rt)}.${rc}` }];
    }),
  );
  const indexes = Object.fromEntries(
    Object.entries(t.indexes).map(([k, v]) => [
      from !== table && k.startsWith(`${from}_`) ? `${table}_${k.slice(from.length + 1)}` : k,
      v,
    ]),
  );
  const search = t.search && {
    ...t.search,
    references: t.search.references.map((r) => ({ ...r, table: tableOf(r.table) })),
  };
  return { ...t, columns, indexes, ...(search ? { search } : {}) };
}

/** Whether column `c` is one of the fields of the free-text index `s` (its own, or a reference's). */
const searches = (s: SearchSnapshot | undefined, c: string) =>
  !!s && (s.columns.some((x) => x.name === c) || s.references.some((r) => r.column === c));

/** The steps from `before` to `after` (see the module doc); throws on a change it cannot make. */
export function diffStorage(
  before: StorageSnapshot,
  after: StorageSnapshot,
  hints: EvolutionHints = NO_HINTS,
): Step[] {
  const steps: Step[] = [];
  const consumed = new Set<string>();
  // The tables renamed (old name → new), known first: every table's references follow them.
  const names = new Map<string, string>();
  for (const table of Object.keys(after.tables)) {
    const from = hints.tables[table]?.renamedFrom;
    if (from && !before.tables[table] && before.tables[from]) names.set(from, table);
  }
  const oldName = new Map([...names].map(([a, b]) => [b, a]));
  /** The free-text indexes whose triggers name `from` or read it (see the renameTable step). */
  const searchesOf = (from: string): RenamedSearch[] =>
    Object.entries(before.tables)
      .filter(([t, x]) => x.search && (t === from || x.search.references.some((r) => r.table === from)))
      .map(([t, x]) => {
        const table = names.get(t) ?? t;
        return { from: t, table, before: x.search!, after: retargeted(x, t, table, names).search! };
      });
  for (const [table, spec] of Object.entries(after.tables)) {
    const h = hints.tables[table] ?? EMPTY_HINTS;
    const was = oldName.get(table) ?? table;
    let old = before.tables[was] && retargeted(before.tables[was], was, table, names);
    if (was !== table) {
      consumed.add(was);
      steps.push({
        kind: 'renameTable',
        table,
        from: was,
        before: before.tables[was],
        searches: searchesOf(was),
      });
    }
    if (!old) {
      steps.push({ kind: 'addTable', table, spec });
      continue;
    }
    if (old.resource && spec.resource && old.resource !== spec.resource)
      steps.push({ kind: 'renameResource', table, from: old.resource, to: spec.resource });
    for (const [column, from] of Object.entries(h.renamed)) {
      if (!spec.columns[column] || old.columns[column]) continue; // done by an earlier migration
      if (!old.columns[from])
        throw new Error(
          `storage: ${table}.${column} has x-renamedFrom "${from}", which is no column of ${table}`,
        );
      const spec0 = old.columns[from];
      const [ix0, ix1] = [`${table}_${from}`, `${table}_${column}`];
      const indexed = !!old.indexes[ix0];
      old = renamedIn(old, table, from, column);
      steps.push({
        kind: 'renameColumn',
        table,
        column,
        from,
        resource: spec.resource,
        spec: spec0,
        ...(searches(old.search, column) ? { search: old.search } : {}),
        ...(indexed ? { index: { from: ix0, to: ix1, columns: old.indexes[ix1] } } : {}),
      });
    }
    for (const column of Object.keys(old.columns)) {
      if (spec.columns[column]) continue;
      if (!h.removed.includes(column))
        throw new Error(
          `storage: column "${table}.${column}" is no longer declared; to drop it (its values are archived) name it in the schema's "x-removed", or to rename it give its new property "x-renamedFrom": "${column}"`,
        );
      if (old.columns[column].primaryKey) throw new Error(`storage: "${table}" cannot lose its primary key`);
      steps.push({ kind: 'removeColumn', table, column, spec: old.columns[column], after: spec });
    }
    for (const [column, c] of Object.entries(spec.columns)) {
      const was = old.columns[column];
      const fixOf = (rule: 'required' | 'other') =>
        rule === 'required' ? (h.fill[column] ?? h.onBreak[column]) : h.onBreak[column];
      if (!was) {
        if (c.primaryKey) throw new Error(`storage: "${table}" cannot get a new primary key`);
        if (c.notNull && c.default === undefined) {
          // Added nullable, filled (x-fill) or refused at up() naming the rows, then made NOT NULL.
          const loose = { ...c, notNull: false };
          steps.push({ kind: 'addColumn', table, column, spec: loose });
          steps.push({ kind: 'check', table, check: requiredCheck(table, column, fixOf('required')) });
          steps.push({ kind: 'changeColumn', table, column, before: loose, spec: c, after: spec });
        } else steps.push({ kind: 'addColumn', table, column, spec: c });
        continue;
      }
      const r0 = old.rules?.[column];
      const r1 = spec.rules?.[column];
      let convert: 'toDateTime' | undefined;
      if (r0 && r1) {
        const conv = conversion(r0, r1);
        if (!conv)
          throw new Error(
            `storage: ${table}.${column} changes type ${r0.type} -> ${r1.type}; no conversion is defined (README "Changing a schema": integer -> number, string -> enum, date -> date-time, a widened limit)`,
          );
        if (conv === 'toDateTime') convert = conv;
        for (const check of tightenedChecks(table, column, r0, r1, fixOf('other')))
          steps.push({ kind: 'check', table, check });
      }
      if (was.type !== c.type && !(was.type === 'integer' && c.type === 'real'))
        throw new Error(
          `storage: column "${table}.${column}" changes type ${was.type} -> ${c.type}; no conversion is defined`,
        );
      if (c.notNull && !was.notNull)
        steps.push({ kind: 'check', table, check: requiredCheck(table, column, fixOf('required')) });
      if (c.unique && !was.unique) steps.push({ kind: 'check', table, check: uniqueCheck(table, column) });
      if (!same(was, c) || convert)
        steps.push({ kind: 'changeColumn', table, column, before: was, spec: c, after: spec, convert });
    }
    for (const [name, columns] of Object.entries(old.indexes))
      if (!same(spec.indexes[name], columns)) steps.push({ kind: 'dropIndex', table, name });
    for (const [name, columns] of Object.entries(spec.indexes))
      if (!same(old.indexes[name], columns)) steps.push({ kind: 'addIndex', table, name, columns });
    if (!same(old.search, spec.search))
      steps.push({ kind: 'search', table, before: old.search, after: spec.search });
  }
  for (const name of Object.keys(before.tables)) {
    if (after.tables[name] || consumed.has(name)) continue;
    if (!hints.removeTables.includes(name))
      throw new Error(
        `storage: table "${name}" is no longer declared; to remove it (its rows are kept in "removed_${name}") run \`npm run codegen -- --remove-table ${name}\`, or to rename it give the new schema "x-storage": { "renamedFrom": "${name}" }`,
      );
    // its search's triggers on renamed tables are named after their new names by then (renameTable)
    steps.push({
      kind: 'removeTable',
      table: name,
      before: retargeted(before.tables[name], name, name, names),
    });
  }
  // A fix's rows get audit rows (audit.ts): the table's resource and a record's state columns.
  for (const s of steps) {
    const target = s.kind === 'check' ? auditTarget(after.tables[s.table]) : undefined;
    if (s.kind === 'check' && target) s.audit = target;
  }
  return steps;
}

/** Whether `steps` only add (tables, columns, indexes, a search): such a migration has a `down`. */
export const additiveOnly = (steps: Step[]) =>
  steps.every((s) => ['addTable', 'addColumn', 'addIndex', 'search'].includes(s.kind));

/** A one-line summary of each step (the migration's doc comment, codegen's output and `--plan`). */
export function describeSteps(steps: Step[]): string[] {
  return steps.map((s) => {
    switch (s.kind) {
      case 'addTable':
        return `add table ${s.table}`;
      case 'renameTable':
        return `rename table ${s.from} to ${s.table}`;
      case 'removeTable':
        return `remove table ${s.table} (its rows kept in removed_${s.table})`;
      case 'renameResource':
        return `rename resource ${s.from} to ${s.to} in the audit trail`;
      case 'addColumn':
        return `add column ${s.table}.${s.column}`;
      case 'renameColumn':
        return `rename column ${s.table}.${s.from} to ${s.column} (history follows)`;
      case 'removeColumn':
        return `remove column ${s.table}.${s.column} (its values kept in removed_values)`;
      case 'changeColumn':
        return `change column ${s.table}.${s.column}${s.convert ? ' (date -> date-time)' : ''}`;
      case 'check': {
        const fix = s.check.fix
          ? `; breaking rows ${'truncate' in s.check.fix ? 'truncated' : `set to ${JSON.stringify(s.check.fix.set)}`}`
          : '';
        return `check ${s.table}.${s.check.column} ${s.check.rule} ${JSON.stringify(s.check.limit)}${fix}`;
      }
      case 'addIndex':
        return `add index ${s.name}`;
      case 'dropIndex':
        return `drop index ${s.name}`;
      default:
        return `rebuild the free-text index of ${s.table}`;
    }
  });
}

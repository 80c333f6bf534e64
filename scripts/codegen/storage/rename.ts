/**
 * What a storage migration does when a table is renamed (`x-storage.renamedFrom`) or removed
 * (`--remove-table`, renamed `removed_<table>`): every object the storage codegen names after a table
 * follows its new name, so that the later migrations, which find them by name, find them, and a new table
 * may take the old name (README "Changing a schema"; emit.ts phases 1 and 9).
 *
 * The objects named after table `t` (scripts/codegen/storage/emit.ts, sql.ts, kernel/server/searchIndex.ts):
 * - its indexes `t_<column>` (plain), `t_<column>_key` (unique) and, on PostgreSQL, `t_pkey`, and its
 *   constraints `t_<column>_fkey` and `t_<column>_key` and its sequence `t_id_seq` (PostgreSQL names
 *   them so); SQLite's own `sqlite_autoindex_t_<n>` follow the table by themselves;
 * - its revision trigger `t_revision` (sql.ts `revisionStatements`);
 * - its free-text index: SQLite's FTS5 table `t_fts` (with its shadow tables) and triggers `t_fts_*`;
 *   PostgreSQL's table `t_search` (indexes `t_search_pkey`, `t_search_doc_id`), functions and triggers
 *   `t_search_write` and `t_search_<referenced table>`; the triggers of the free-text indexes of the tables
 *   that search a field of its records (`<other>_fts_t`, `<other>_search_t`), whose SQL names `t` too.
 *
 * A rename, in phase 1, for all the tables renamed at once: first, on PostgreSQL, the triggers of every
 * free-text index concerned and their functions are dropped (a PL/pgSQL body is text naming the old
 * tables); then each table is renamed with its search table (`ALTER TABLE ... RENAME`: SQLite rewrites the
 * SQL of every trigger and foreign key naming it, PostgreSQL's follow it), the rest of its objects renamed
 * by the migration's runtime ({@link RENAME_RUNTIME}, from the catalog: PostgreSQL `ALTER INDEX/CONSTRAINT/
 * SEQUENCE ... RENAME`, which rewrites nothing; SQLite, which cannot rename an index, makes each again under
 * the new name), and the table's values kept in `removed_values` are named by its new name; last the
 * search functions and triggers are made again on PostgreSQL, and the triggers renamed (PostgreSQL `ALTER
 * TRIGGER`; SQLite makes each again under its new name from its SQL, as rewritten: an FTS5 table keeps the
 * labels its columns had when it was made, which a trigger made from the snapshot would not name). No row
 * of the table or of its free-text index is written.
 */
import { REVISION } from '../../../kernel/server/model';
import { pgSearchTriggers, pgSearchTriggersDrop } from '../../../kernel/server/searchIndex';
import type { RenamedSearch, Step, TableSnapshot } from './diff';
import { ftsTriggerNames, q } from './sql';

/** Statements on each database. */
export type Branch = { pg: string[]; lite: string[] };

/**
 * The runtime of the renames, written into a migration that renames or removes a table (no template
 * literal: it is itself inside one). Needs `sql` and `Kysely`.
 */
export const RENAME_RUNTIME = `
/** A quoted SQL identifier. */
const ident = (name: string) => '"' + name.replace(/"/g, '""') + '"';

/** The SQL \`text\` of an index or a trigger (SQLite) named \`to\` instead of \`from\`: its first name is its own. */
function named(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  const quoted = text[at - 1] === '"';
  return text.slice(0, quoted ? at - 1 : at) + ident(to) + text.slice(at + from.length + (quoted ? 1 : 0));
}

/**
 * Renames the objects of relation \`relation\` named after table \`from\` (\`<from>_...\`) to \`<to>_...\`:
 * PostgreSQL its indexes (with the constraints they back), other constraints and sequences; SQLite its
 * indexes, made again under the new name (scripts/codegen/storage/rename.ts).
 */
async function renameNamedAfter(db: Kysely<any>, pg: boolean, relation: string, from: string, to: string): Promise<void> {
  const renamed = (name: string) => to + name.slice(from.length);
  const own = (r: { name: string }) => r.name.startsWith(from + '_');
  if (pg) {
    const rel = ident(relation);
    const indexes = await sql<{ name: string }>\`SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = \${rel}::regclass\`.execute(db);
    for (const { name } of indexes.rows.filter(own))
      await sql.raw('ALTER INDEX ' + ident(name) + ' RENAME TO ' + ident(renamed(name))).execute(db);
    const constraints = await sql<{ name: string }>\`SELECT conname AS name FROM pg_constraint WHERE conrelid = \${rel}::regclass AND contype IN ('f', 'c')\`.execute(db);
    for (const { name } of constraints.rows.filter(own))
      await sql.raw('ALTER TABLE ' + rel + ' RENAME CONSTRAINT ' + ident(name) + ' TO ' + ident(renamed(name))).execute(db);
    const sequences = await sql<{ name: string }>\`SELECT s.relname AS name FROM pg_depend d JOIN pg_class s ON s.oid = d.objid WHERE d.classid = 'pg_class'::regclass AND d.refobjid = \${rel}::regclass AND s.relkind = 'S'\`.execute(db);
    for (const { name } of sequences.rows.filter(own))
      await sql.raw('ALTER SEQUENCE ' + ident(name) + ' RENAME TO ' + ident(renamed(name))).execute(db);
  } else {
    const indexes = await sql<{ name: string; sql: string }>\`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = \${relation} AND sql IS NOT NULL\`.execute(db);
    for (const o of indexes.rows.filter(own)) {
      await sql.raw('DROP INDEX ' + ident(o.name)).execute(db);
      await sql.raw(named(o.sql, o.name, renamed(o.name))).execute(db);
    }
  }
}

/**
 * Renames triggers (\`[table, name, new name]\`; one that does not exist is left): PostgreSQL \`ALTER TRIGGER\`;
 * SQLite, which cannot rename one, makes it again under the new name from its SQL, in which the table renames
 * already named the tables by their new names.
 */
async function renameTriggers(db: Kysely<any>, pg: boolean, triggers: [string, string, string][]): Promise<void> {
  for (const [table, from, to] of triggers) {
    if (pg) {
      const found = await sql\`SELECT 1 FROM pg_trigger WHERE tgrelid = \${ident(table)}::regclass AND tgname = \${from}\`.execute(db);
      if (found.rows.length) await sql.raw('ALTER TRIGGER ' + ident(from) + ' ON ' + ident(table) + ' RENAME TO ' + ident(to)).execute(db);
    } else {
      const found = await sql<{ sql: string }>\`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = \${from}\`.execute(db);
      if (!found.rows.length) continue;
      await sql.raw('DROP TRIGGER ' + ident(from)).execute(db);
      await sql.raw(named(found.rows[0].sql, from, to)).execute(db);
    }
  }
}

/** Names the values \`removed_values\` keeps of table \`from\` by its new name \`to\`, when that table exists. */
async function renameRemovedValues(db: Kysely<any>, pg: boolean, from: string, to: string): Promise<void> {
  const archive = pg
    ? await sql<{ t: unknown }>\`SELECT to_regclass('removed_values') AS t\`.execute(db)
    : await sql<{ t: unknown }>\`SELECT name AS t FROM sqlite_master WHERE type = 'table' AND name = 'removed_values'\`.execute(db);
  if (archive.rows[0]?.t) await sql\`UPDATE removed_values SET "tableName" = \${to} WHERE "tableName" = \${from}\`.execute(db);
}
`;

/** The source of the runtime calls renaming what is named after `from` (now `to`) and its kept values. */
function renamedObjects(from: string, to: string, relations: string[]): string {
  return [
    ...relations.map((r) => `  await renameNamedAfter(db, pg, ${q(r)}, ${q(from)}, ${q(to)});`),
    `  await renameRemovedValues(db, pg, ${q(from)}, ${q(to)});`,
  ].join('\n');
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** The source running `statements` on PostgreSQL only. */
const pgOnly = (statements: string[]) =>
  `  if (pg) {\n${statements.map((st) => `    await sql.raw(${q(st)}).execute(db);`).join('\n')}\n  }`;

/** The phase-1 source of the table renames of `steps`, in its three parts (see the module doc). */
export function tableRenames(
  steps: Step[],
  branch: (b: Branch) => string,
): { drop: string[]; rename: string[]; create: string[] } {
  const out = { drop: [] as string[], rename: [] as string[], create: [] as string[] };
  const searches = new Map<string, RenamedSearch>();
  /** `[table, name, new name]` of the triggers renamed on each database. */
  const triggers = { pg: [] as string[][], lite: [] as string[][] };
  for (const s of steps) {
    if (s.kind !== 'renameTable') continue;
    for (const x of s.searches) searches.set(x.from, x);
    const old: TableSnapshot = s.before;
    const doc = old.search?.pg === 'doc';
    if (old.columns[REVISION]) {
      const revision = [s.table, `${s.from}_${REVISION}`, `${s.table}_${REVISION}`];
      triggers.pg.push(revision);
      triggers.lite.push(revision);
    }
    const rename = (a: string, b: string) => `ALTER TABLE ${q(a)} RENAME TO ${q(b)}`;
    out.rename.push(
      branch({
        pg: [rename(s.from, s.table), ...(doc ? [rename(`${s.from}_search`, `${s.table}_search`)] : [])],
        lite: [rename(s.from, s.table), ...(old.search ? [rename(`${s.from}_fts`, `${s.table}_fts`)] : [])],
      }),
      renamedObjects(s.from, s.table, [s.table, ...(doc ? [`${s.table}_search`] : [])]),
    );
  }
  for (const x of searches.values()) {
    // PostgreSQL: the functions' bodies name the tables (text), made again; SQLite: the triggers renamed
    if (x.before.pg === 'doc') {
      out.drop.push(pgOnly(pgSearchTriggersDrop(x.from, x.before)));
      out.create.push(pgOnly(pgSearchTriggers(x.table, x.after)));
    }
    const names = ftsTriggerNames(x.table, x.after);
    const tables = [x.table, x.table, x.table, ...new Set(x.after.references.map((r) => r.table))];
    for (const [i, name] of ftsTriggerNames(x.from, x.before).entries())
      if (name !== names[i]) triggers.lite.push([tables[i], name, names[i]]);
  }
  const list = (t: string[][]) => JSON.stringify(t);
  if (triggers.lite.length)
    out.create.push(
      same(triggers.pg, triggers.lite)
        ? `  await renameTriggers(db, pg, ${list(triggers.pg)});`
        : `  await renameTriggers(db, pg, pg ? ${list(triggers.pg)} : ${list(triggers.lite)});`,
    );
  return out;
}

/** The phase-9 source renaming what is named after a removed table `table` (now `removed_<table>`). */
export const removedObjects = (table: string) =>
  renamedObjects(table, `removed_${table}`, [`removed_${table}`]);

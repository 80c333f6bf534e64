/**
 * The source of a storage migration (scripts/codegen/storage/diff.ts steps → a self-contained, frozen
 * migration file for SQLite and PostgreSQL; README "Changing a schema").
 *
 * `up(db, report?)` runs in phases, inside the one transaction server/db/migrator.ts opens:
 * 1. table renames (`ALTER TABLE ... RENAME`; every object named after the table follows it: its
 *    indexes, constraints and sequence renamed, its search table renamed, the triggers of every search
 *    reading it and its revision trigger made again: rename.ts); 2. search indexes and plain indexes that
 *    change are dropped; 3. column renames (`RENAME COLUMN`, their unique index, foreign key and plain
 *    index renamed too; the audit trail's `state` keys and `changed` names of the resource's entries are
 *    renamed, so a record's history shows the old values under the new name; a free-text index keeps its
 *    text, only what reads the column follows it: `columnRename`) and resource renames
 *    (audit_log.resource); 4. new tables and columns; 5. the values of removed columns are copied to
 *    `removed_values`; 6. the checks of tightened rules (rules.ts): the breaking rows' ids are read, fixed
 *    where the schema says how (`x-onBreak`, `x-fill`), and if any rule still has breaking rows `up`
 *    throws, naming each rule, its rows' count and ids (the transaction rolls back: nothing changed);
 *    `report`, when given (`codegen --plan`), receives every check's rows first; 7. column changes and
 *    removals: PostgreSQL `ALTER TABLE`, SQLite `DROP COLUMN` for a table that only loses columns
 *    (`sqliteDropColumns`), else a table rebuild (new table, copy, drop, rename; the table's other
 *    indexes and triggers read from sqlite_master and made again; foreign keys are off during the
 *    migration, checked before commit, server/db/migrator.ts); 8. new indexes, unique indexes, search
 *    indexes and revision triggers; 9. removed tables are renamed `removed_<table>` (their search and
 *    revision trigger dropped, their other objects named after the new name: rename.ts); 10. the audit
 *    rows (audit.ts): the migration's own, naming its table renames and column changes, and one per row a
 *    fix wrote (before/after, as account `system`), so History shows the fix and the ledger's edit audit
 *    tells the migration's changes from edits behind the API's back.
 * `down` exists for migrations that only add (tables, columns, indexes, a search); any other throws.
 */
import { REVISION } from '../../../kernel/server/model';
import { AUDIT_RUNTIME, addedColumns, tableChanges } from './audit';
import { pgSearchRenamed } from '../../../kernel/server/searchIndex';
import { additiveOnly, describeSteps, type SearchSnapshot, type Step, type TableSnapshot } from './diff';
import { sqlLiteral, type Check } from './rules';
import { removedObjects, RENAME_RUNTIME, tableRenames, type Branch } from './rename';
import { columnLine, lit, q, revisionStatements, searchStatements } from './sql';

const both = (s: string[]): Branch => ({ pg: s, lite: s });

/** The runtime of the checks (phase 6), written into each migration that has checks. */
const CHECK_RUNTIME = `
/** One tightened rule (scripts/codegen/storage/rules.ts): its breaking rows by SQL \`where\` or \`pattern\`. */
interface Check {
  table: string;
  column: string;
  rule: string;
  limit: unknown;
  where?: string;
  pattern?: string;
  /** SQL expression written into the breaking rows (x-onBreak, x-fill). */
  set?: string;
  /** Where the fixed rows' audit rows go (phase 10, scripts/codegen/storage/audit.ts). */
  audit?: { resource: string; state: string[] };
}

/** A check's breaking rows (ids ascending), and whether they were fixed. */
export interface Found {
  table: string;
  column: string;
  rule: string;
  limit: unknown;
  ids: number[];
  fixed: boolean;
}

/** Runs every check; fixes the rows of a check that has a fix, keeping them as they were in \`fixes\`. */
async function runChecks(db: Kysely<any>, fixes: Fixes): Promise<Found[]> {
  const out: Found[] = [];
  for (const c of CHECKS) {
    let ids: number[];
    if (c.where) {
      const r = await sql.raw<{ id: number }>(\`SELECT id FROM "\${c.table}" WHERE \${c.where} ORDER BY id\`).execute(db);
      ids = r.rows.map((x) => Number(x.id));
    } else {
      const re = new RegExp(c.pattern!, 'u');
      const r = await sql
        .raw<{ id: number; v: unknown }>(\`SELECT id, "\${c.column}" AS v FROM "\${c.table}" WHERE "\${c.column}" IS NOT NULL ORDER BY id\`)
        .execute(db);
      ids = r.rows.filter((x) => !re.test(String(x.v))).map((x) => Number(x.id));
    }
    if (ids.length && c.set !== undefined) await keepBefore(db, fixes, c, ids);
    if (ids.length && c.set !== undefined)
      for (let i = 0; i < ids.length; i += 500)
        await sql
          .raw(\`UPDATE "\${c.table}" SET "\${c.column}" = \${c.set} WHERE id IN (\${ids.slice(i, i + 500).join(', ')})\`)
          .execute(db);
    out.push({ table: c.table, column: c.column, rule: c.rule, limit: c.limit, ids, fixed: ids.length > 0 && c.set !== undefined });
  }
  return out;
}
`;

/** The SQL expression a check's fix writes. */
function fixSql(c: Check): string | undefined {
  if (!c.fix) return undefined;
  if ('truncate' in c.fix) return `substr(${q(c.column)}, 1, ${c.limit as number})`;
  return c.fix.set === null ? 'NULL' : sqlLiteral(c.fix.set);
}

/** PostgreSQL statements changing one column from `a` to `b` (type, null, default, unique, foreign key). */
function pgChange(s: Extract<Step, { kind: 'changeColumn' }>): string[] {
  const { table, column, before: a, spec: b } = s;
  const t = q(table);
  const c = q(column);
  const out: string[] = [];
  if (a.type !== b.type) out.push(`ALTER TABLE ${t} ALTER COLUMN ${c} TYPE double precision`);
  if (a.default !== b.default)
    out.push(
      `ALTER TABLE ${t} ALTER COLUMN ${c} ${b.default === undefined ? 'DROP DEFAULT' : `SET DEFAULT ${lit(b.default)}`}`,
    );
  if (a.notNull !== b.notNull)
    out.push(`ALTER TABLE ${t} ALTER COLUMN ${c} ${b.notNull ? 'SET' : 'DROP'} NOT NULL`);
  if (a.unique && !b.unique)
    out.push(
      `ALTER TABLE ${t} DROP CONSTRAINT IF EXISTS ${q(`${table}_${column}_key`)}`,
      `DROP INDEX IF EXISTS ${q(`${table}_${column}_key`)}`,
    );
  if (a.references && a.references !== b.references)
    out.push(`ALTER TABLE ${t} DROP CONSTRAINT IF EXISTS ${q(`${table}_${column}_fkey`)}`);
  if (b.references && a.references !== b.references) {
    const [rt, rc] = b.references.split('.');
    out.push(
      `ALTER TABLE ${t} ADD CONSTRAINT ${q(`${table}_${column}_fkey`)} FOREIGN KEY (${c}) REFERENCES ${q(rt)} (${q(rc)})`,
    );
  }
  return out;
}

/**
 * The SQLite rebuild of `table` to `spec` (phase 7), as source lines: the table's own indexes and
 * triggers are read first and made again after, except those naming a removed column and the unique
 * index of a column no longer unique; every unique column gets its `<table>_<column>_key` index.
 */
function sqliteRebuild(
  table: string,
  spec: TableSnapshot,
  casts: Record<string, string>,
  removed: string[],
): string {
  const tmp = `${table}__rebuild`;
  const cols = Object.keys(spec.columns);
  const select = cols.map((c) => casts[c] ?? q(c)).join(', ');
  const notUnique = Object.entries(spec.columns)
    .filter(([, c]) => !c.unique)
    .map(([n]) => `${table}_${n}_key`);
  const uniques = Object.entries(spec.columns)
    .filter(([, c]) => c.unique)
    .map(([n]) => `CREATE UNIQUE INDEX IF NOT EXISTS ${q(`${table}_${n}_key`)} ON ${q(table)} (${q(n)})`);
  const create = `await db.schema\n      .createTable(${q(tmp)})\n${Object.entries(spec.columns)
    .map(([n, c]) => `      ${columnLine(n, c, true)}`)
    .join('\n')}\n      .execute();`;
  return `    {
      const kept = (
        await sql<{ name: string; sql: string }>\`SELECT name, sql FROM sqlite_master WHERE tbl_name = \${${q(table)}} AND type IN ('index', 'trigger') AND sql IS NOT NULL\`.execute(db)
      ).rows.filter((o) => !${JSON.stringify(notUnique)}.includes(o.name) && (o.name.startsWith(${q(`${table}_fts_`)}) || !${JSON.stringify(removed)}.some((c) => new RegExp(\`\\\\b\${c}\\\\b\`).test(o.sql))));
      ${create}
      await sql.raw(${q(`INSERT INTO ${q(tmp)} (${cols.map(q).join(', ')}) SELECT ${select} FROM ${q(table)}`)}).execute(db);
      await sql.raw('PRAGMA legacy_alter_table = ON').execute(db);
      await sql.raw(${q(`DROP TABLE ${q(table)}`)}).execute(db);
      await sql.raw(${q(`ALTER TABLE ${q(tmp)} RENAME TO ${q(table)}`)}).execute(db);
      await sql.raw('PRAGMA legacy_alter_table = OFF').execute(db);
      for (const o of kept) await sql.raw(o.sql).execute(db);
${uniques.map((u) => `      await sql.raw(${q(u)}).execute(db);`).join('\n')}
    }`;
}

/**
 * The SQLite removal of the columns `removed` of `table` (phase 7) when nothing else of the table changes:
 * `ALTER TABLE ... DROP COLUMN`, which rewrites the rows in place and keeps every index (a rebuild copies
 * the table and makes each index again). SQLite refuses it for a column that an index, a trigger or a view
 * names (sqlite.org/lang_altertable.html, "ALTER TABLE DROP COLUMN"); the plain indexes of a removed
 * column are dropped in phase 2 and its search triggers too, so when any other object of the schema names
 * one of the columns (a word of its SQL), the table is rebuilt instead (`sqliteRebuild`).
 */
function sqliteDropColumns(table: string, spec: TableSnapshot, removed: string[]): string {
  const drops = removed.map(
    (c) => `        await sql.raw(${q(`ALTER TABLE ${q(table)} DROP COLUMN ${q(c)}`)}).execute(db);`,
  );
  return `    {
      const named = (
        await sql<{ sql: string }>\`SELECT sql FROM sqlite_master WHERE type IN ('index', 'trigger', 'view') AND sql IS NOT NULL\`.execute(db)
      ).rows.some((o) => ${JSON.stringify(removed)}.some((c) => new RegExp(\`\\\\b\${c}\\\\b\`).test(o.sql)));
      if (!named) {
${drops.join('\n')}
      } else
${sqliteRebuild(table, spec, {}, removed).replace(/^/gm, '    ')}
    }`;
}

const now = {
  pg: `to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS')`,
  lite: `strftime('%Y-%m-%d %H:%M:%S', 'now')`,
};

/**
 * The statements renaming `from` to `to` in the audit trail of `resource` (phase 3): the `state` keys and
 * the `changed` names. A `state` is a flat JSON object of a row's columns (server/db/audit.ts `stateText`)
 * whose values are numbers, strings or null: inside a string every `"` is escaped, so the text `"from":`
 * can only be its key `from`. Where the new key is absent (every row but a rare one), the key is renamed
 * in the text, without parsing the JSON (PostgreSQL's jsonb rewrite of the Tate import's 51,840 entries
 * took 3-5 s, the text's 1.1 s); the rows left with the key (the new key present too: the old one's value
 * wins, as before) are rewritten as JSON. `changed` is parsed only where its text names `from`.
 */
function auditRename(resource: string, from: string, to: string): Branch {
  const r = sqlLiteral(resource);
  const f = sqlLiteral(from);
  const t = sqlLiteral(to);
  const key = (k: string) => sqlLiteral(`${JSON.stringify(k)}:`);
  const named = sqlLiteral(JSON.stringify(from));
  const path = (k: string) => sqlLiteral(`$.${JSON.stringify(k)}`);
  const text = (find: string) =>
    `UPDATE audit_log SET state = replace(state, ${key(from)}, ${key(to)}) WHERE resource = ${r} AND ${find}(state, ${key(from)}) > 0 AND ${find}(state, ${key(to)}) = 0`;
  return {
    lite: [
      text('instr'),
      `UPDATE audit_log SET state = json_set(json_remove(state, ${path(from)}), ${path(to)}, json(state -> ${path(from)})) WHERE resource = ${r} AND instr(state, ${named}) > 0 AND json_type(state, ${path(from)}) IS NOT NULL`,
      `UPDATE audit_log SET changed = (SELECT json_group_array(CASE WHEN value = ${f} THEN ${t} ELSE value END) FROM json_each(audit_log.changed)) WHERE resource = ${r} AND instr(changed, ${named}) > 0 AND EXISTS (SELECT 1 FROM json_each(audit_log.changed) WHERE value = ${f})`,
    ],
    pg: [
      text('strpos'),
      `UPDATE audit_log SET state = ((state::jsonb - ${f}) || jsonb_build_object(${t}, state::jsonb -> ${f}))::text WHERE resource = ${r} AND CASE WHEN strpos(state, ${named}) > 0 THEN jsonb_exists(state::jsonb, ${f}) ELSE false END`,
      `UPDATE audit_log SET changed = (SELECT jsonb_agg(CASE WHEN v = ${f} THEN ${t} ELSE v END) FROM jsonb_array_elements_text(changed::jsonb) v)::text WHERE resource = ${r} AND CASE WHEN strpos(changed, ${named}) > 0 THEN jsonb_exists(changed::jsonb, ${f}) ELSE false END`,
    ],
  };
}

/**
 * The statements renaming a column (phase 3), besides its audit trail: `RENAME COLUMN`, then the names
 * the generator gives its constraints, so that a later migration finds them: its unique index
 * `<table>_<column>_key` (PostgreSQL `ALTER INDEX`, which renames a unique constraint too; SQLite, which
 * cannot rename an index, makes it again under the new name when it exists) and its foreign key
 * `<table>_<column>_fkey` (PostgreSQL; SQLite's is part of the table, renamed with the column), and its
 * plain index `<table>_<column>` (PostgreSQL `ALTER INDEX`, which rewrites nothing; SQLite makes it again).
 * The free-text index keeps its text (a rename changes no value): SQLite's `RENAME COLUMN` rewrites the
 * FTS5 triggers that read the column (sqlite.org/lang_altertable.html: "within all indexes, triggers, and
 * views"; the FTS5 table's own column keeps its old label, which no query names), and PostgreSQL's search
 * functions are replaced once per table after its renames (`searchRenamed`).
 */
function columnRename(s: Extract<Step, { kind: 'renameColumn' }>): string {
  const t = q(s.table);
  const rename = `ALTER TABLE ${t} RENAME COLUMN ${q(s.from)} TO ${q(s.column)}`;
  const [key0, key1] = [`${s.table}_${s.from}_key`, `${s.table}_${s.column}_key`];
  const [fk0, fk1] = [`${s.table}_${s.from}_fkey`, `${s.table}_${s.column}_fkey`];
  const pg = [rename];
  if (s.spec.unique) pg.push(`ALTER INDEX IF EXISTS ${q(key0)} RENAME TO ${q(key1)}`);
  if (s.spec.references)
    pg.push(
      `DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = ${sqlLiteral(t)}::regclass AND conname = ${sqlLiteral(fk0)}) THEN ALTER TABLE ${t} RENAME CONSTRAINT ${q(fk0)} TO ${q(fk1)}; END IF; END $$`,
    );
  if (s.index) pg.push(`ALTER INDEX IF EXISTS ${q(s.index.from)} RENAME TO ${q(s.index.to)}`);
  const run = (st: string) => `    await sql.raw(${q(st)}).execute(db);`;
  const lite = [run(rename)];
  if (s.index)
    lite.push(
      run(`DROP INDEX IF EXISTS ${q(s.index.from)}`),
      run(`CREATE INDEX IF NOT EXISTS ${q(s.index.to)} ON ${t} (${s.index.columns.map(q).join(', ')})`),
    );
  if (s.spec.unique)
    lite.push(
      `    if ((await sql\`SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = \${${q(key0)}}\`.execute(db)).rows.length) {`,
      `  ${run(`DROP INDEX ${q(key0)}`)}`,
      `  ${run(`CREATE UNIQUE INDEX ${q(key1)} ON ${t} (${q(s.column)})`)}`,
      '    }',
    );
  if (same(pg, [rename]) && lite.length === 1) return `  await sql.raw(${q(rename)}).execute(db);`;
  return `  if (pg) {\n${pg.map(run).join('\n')}\n  } else {\n${lite.join('\n')}\n  }`;
}

/** The source of a migration doing `steps` on SQLite and PostgreSQL (see the module doc). */
export function migrationSource(name: string, steps: Step[]): string {
  const phases: string[][] = Array.from({ length: 11 }, () => []);
  const down: string[] = [];
  const run = (statements: string[]) => statements.map((st) => `    await sql.raw(${q(st)}).execute(db);`);
  const branch = (b: Branch) =>
    same(b.pg, b.lite)
      ? run(b.pg).join('\n').replace(/^ {2}/gm, '')
      : `  if (pg) {\n${run(b.pg).join('\n') || '    // nothing to do on PostgreSQL'}\n  } else {\n${run(b.lite).join('\n') || '    // nothing to do on SQLite'}\n  }`;
  const push = (phase: number, b: Branch) => {
    if (b.pg.length || b.lite.length) phases[phase].push(branch(b));
  };
  const revision = (phase: number, table: string) => {
    const r = revisionStatements(table);
    push(phase, { pg: r.pgUp, lite: r.liteUp });
    down.unshift(branch({ pg: r.pgDown, lite: r.liteDown }));
  };
  const checks: Check[] = [];
  const rebuilds = new Map<
    string,
    {
      spec: TableSnapshot;
      casts: Record<string, string>;
      removed: string[];
      pg: string[];
      /** Whether SQLite must rebuild the table (a column changes, or a removed one is unique or a key). */
      rebuild: boolean;
    }
  >();
  const rebuild = (table: string, spec: TableSnapshot) => {
    const r = rebuilds.get(table) ?? { spec, casts: {}, removed: [], pg: [], rebuild: false };
    rebuilds.set(table, r);
    return r;
  };
  let archive = false;
  /** Whether the migration renames or removes a table (it then holds rename.ts `RENAME_RUNTIME`). */
  let renames = false;
  // Phase 10 (audit.ts): the migration's audit row, and the audit rows of the rows its fixes write.
  const changes = tableChanges(steps);
  const added = addedColumns(steps);
  const audits = new Map<Check, { resource: string; state: string[] }>();
  /** Per table, its free-text index after its column renames (PostgreSQL's functions are made again). */
  const searchRenamed = new Map<string, SearchSnapshot>();
  for (const s of steps) {
    if (s.kind === 'addTable') {
      phases[4].push(
        `  await db.schema\n    .createTable(${q(s.table)})\n${Object.entries(s.spec.columns)
          .map(([n, c]) => `    ${columnLine(n, c, false)}`)
          .join('\n')}\n    .execute();`,
      );
      for (const [idx, cols] of Object.entries(s.spec.indexes))
        phases[8].push(
          `  await db.schema.createIndex(${q(idx)}).on(${q(s.table)}).columns(${JSON.stringify(cols)}).execute();`,
        );
      down.unshift(`  await db.schema.dropTable(${q(s.table)}).ifExists().execute();`);
      if (s.spec.columns[REVISION]) revision(8, s.table);
      if (s.spec.search) {
        const st = searchStatements(s.table, undefined, s.spec.search);
        push(8, { pg: st.pgUp, lite: st.liteUp });
        down.unshift(branch({ pg: st.pgDown, lite: st.liteDown }));
      }
    } else if (s.kind === 'renameTable') {
      renames = true; // phase 1 (rename.ts `tableRenames`)
    } else if (s.kind === 'removeTable') {
      const old = s.before;
      const st = old.search ? searchStatements(s.table, old.search, undefined) : { pgUp: [], liteUp: [] };
      const rev = revisionStatements(s.table);
      push(9, {
        pg: [...st.pgUp, ...rev.pgDown, `ALTER TABLE ${q(s.table)} RENAME TO ${q(`removed_${s.table}`)}`],
        lite: [
          ...st.liteUp,
          ...rev.liteDown,
          `ALTER TABLE ${q(s.table)} RENAME TO ${q(`removed_${s.table}`)}`,
        ],
      });
      phases[9].push(removedObjects(s.table));
      renames = true;
    } else if (s.kind === 'renameResource') {
      push(
        3,
        both([`UPDATE audit_log SET resource = ${sqlLiteral(s.to)} WHERE resource = ${sqlLiteral(s.from)}`]),
      );
    } else if (s.kind === 'renameColumn') {
      phases[3].push(columnRename(s));
      if (s.resource) push(3, auditRename(s.resource, s.from, s.column));
      // a search rebuilt by this migration (a search step) reads the new names already
      if (s.search && !steps.some((x) => x.kind === 'search' && x.table === s.table))
        searchRenamed.set(s.table, s.search);
    } else if (s.kind === 'addColumn') {
      phases[4].push(
        `  await db.schema.alterTable(${q(s.table)})${columnLine(s.column, s.spec, true)}.execute();`,
      );
      if (s.spec.unique)
        phases[8].push(
          `  await db.schema.createIndex(${q(`${s.table}_${s.column}_key`)}).on(${q(s.table)}).column(${q(s.column)}).unique().execute();`,
        );
      down.unshift(`  await db.schema.alterTable(${q(s.table)}).dropColumn(${q(s.column)}).execute();`);
      if (s.spec.unique)
        down.unshift(`  await db.schema.dropIndex(${q(`${s.table}_${s.column}_key`)}).ifExists().execute();`);
      if (s.column === REVISION) revision(8, s.table);
    } else if (s.kind === 'removeColumn') {
      archive = true;
      const insert = (n: string) =>
        `INSERT INTO removed_values (migration, "tableName", "recordId", field, value, "removeTime") SELECT ${sqlLiteral(name)}, ${sqlLiteral(s.table)}, id, ${sqlLiteral(s.column)}, CAST(${q(s.column)} AS TEXT), ${n} FROM ${q(s.table)} WHERE ${q(s.column)} IS NOT NULL`;
      push(5, { pg: [insert(now.pg)], lite: [insert(now.lite)] });
      const r = rebuild(s.table, s.after);
      r.removed.push(s.column);
      if (s.spec.unique || s.spec.references || s.spec.primaryKey) r.rebuild = true;
      r.pg.push(`ALTER TABLE ${q(s.table)} DROP COLUMN ${q(s.column)}`);
    } else if (s.kind === 'changeColumn') {
      if (s.convert)
        push(
          6,
          both([
            `UPDATE ${q(s.table)} SET ${q(s.column)} = ${q(s.column)} || 'T00:00:00Z' WHERE length(${q(s.column)}) = 10`,
          ]),
        );
      const changed = JSON.stringify(s.before) !== JSON.stringify(s.spec);
      if (!changed) continue;
      const r = rebuild(s.table, s.after);
      r.rebuild = true;
      r.pg.push(...pgChange(s));
      if (s.before.type !== s.spec.type) r.casts[s.column] = `CAST(${q(s.column)} AS REAL)`;
      if (s.spec.unique && !s.before.unique)
        phases[8].push(
          `  await sql.raw(${q(`CREATE UNIQUE INDEX IF NOT EXISTS ${q(`${s.table}_${s.column}_key`)} ON ${q(s.table)} (${q(s.column)})`)}).execute(db);`,
        );
    } else if (s.kind === 'check') {
      checks.push(s.check);
      if (s.audit && s.check.fix && !added.has(`${s.table}.${s.check.column}`)) audits.set(s.check, s.audit);
    } else if (s.kind === 'addIndex') {
      phases[8].push(
        `  await db.schema.createIndex(${q(s.name)}).on(${q(s.table)}).columns(${JSON.stringify(s.columns)}).execute();`,
      );
      down.unshift(`  await db.schema.dropIndex(${q(s.name)}).ifExists().execute();`);
    } else if (s.kind === 'dropIndex') {
      push(2, both([`DROP INDEX IF EXISTS ${q(s.name)}`]));
    } else {
      // Dropped early (phase 2: a rebuild or a removed column must not meet its triggers), built last.
      const drop = s.before ? searchStatements(s.table, s.before, undefined) : undefined;
      const build = s.after ? searchStatements(s.table, undefined, s.after) : undefined;
      if (drop) push(2, { pg: drop.pgUp, lite: drop.liteUp });
      if (build) push(8, { pg: build.pgUp, lite: build.liteUp });
      const whole = searchStatements(s.table, s.before, s.after);
      down.unshift(branch({ pg: whole.pgDown, lite: whole.liteDown }));
    }
  }
  const renamed = tableRenames(steps, branch);
  phases[1] = [...renamed.drop, ...renamed.rename, ...renamed.create];
  for (const [table, search] of searchRenamed)
    if (search.pg === 'doc') push(3, { pg: pgSearchRenamed(table, search), lite: [] });
  for (const [table, r] of rebuilds)
    phases[7].push(
      `  if (pg) {\n${run(r.pg).join('\n') || '    // nothing to do on PostgreSQL'}\n  } else {\n${r.rebuild ? sqliteRebuild(table, r.spec, r.casts, r.removed) : sqliteDropColumns(table, r.spec, r.removed)}\n  }`,
    );
  if (archive)
    phases[5].unshift(
      `  await db.schema\n    .createTable('removed_values')\n    .ifNotExists()\n    .addColumn('id', idType, idCol)\n    .addColumn('migration', 'text', (c) => c.notNull())\n    .addColumn('tableName', 'text', (c) => c.notNull())\n    .addColumn('recordId', 'integer', (c) => c.notNull())\n    .addColumn('field', 'text', (c) => c.notNull())\n    .addColumn('value', 'text')\n    .addColumn('removeTime', 'text', (c) => c.notNull())\n    .execute();`,
    );
  if (checks.length)
    phases[6].unshift(
      `  const fixes: Fixes = new Map();\n  const found = await runChecks(db, fixes);\n  report?.(found);\n  const refused = found.filter((f) => f.ids.length && !f.fixed);\n  if (refused.length)\n    throw new Error(\n      \`migration ${name} refused: rows break the new rules (fix them, or say what to do with them in the schema: x-onBreak, x-fill):\\n\${refused\n        .map((f) => \`  \${f.table}.\${f.column} \${f.rule} \${JSON.stringify(f.limit)}: \${f.ids.length} row(s), ids \${f.ids.slice(0, 50).join(', ')}\${f.ids.length > 50 ? ', …' : ''}\`)\n        .join('\\n')}\`,\n    );`,
    );
  const audited = checks.length > 0 || Object.keys(changes).length > 0;
  if (audited) phases[10] = [`  await auditMigration(db, ${checks.length ? 'fixes' : 'new Map()'});`];
  const up = phases.flat();
  const reversible = additiveOnly(steps);
  const downBody = reversible
    ? down
    : [
        `  throw new Error('migration ${name} cannot be undone (it renames, removes, changes or checks): restore a backup');`,
      ];
  const body = [...up, ...downBody].join('\n');
  const needsPg = (text: string) =>
    text.includes('if (pg)') ||
    text.includes('idType') ||
    text.includes('realType') ||
    text.includes('(db, pg,');
  const usesPg = needsPg(body);
  const usesId = body.includes('idType');
  const usesSql = body.includes('sql.raw') || body.includes('sql<') || audited || renames;
  const imports = [
    ...(usesSql ? ['sql'] : []),
    ...(usesId ? ['type ColumnDefinitionBuilder'] : []),
    'type Kysely',
  ];
  const prelude = (lines: string[]) => {
    const text = lines.join('\n');
    return [
      ...(needsPg(text) ? ['  const pg = isPostgres(db);'] : []),
      ...(text.includes('realType') ? ["  const realType = pg ? 'double precision' : 'real';"] : []),
      ...(text.includes('idType')
        ? [
            "  const idType = pg ? 'serial' : 'integer';",
            '  const idCol = (c: ColumnDefinitionBuilder) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());',
          ]
        : []),
    ];
  };
  const summary = describeSteps(steps);
  const checkRows = checks.map((c) => ({
    table: c.table,
    column: c.column,
    rule: c.rule,
    limit: c.limit,
    ...(c.where ? { where: c.where } : {}),
    ...(c.pattern ? { pattern: c.pattern } : {}),
    ...(c.fix ? { set: fixSql(c) } : {}),
    ...(audits.has(c) ? { audit: audits.get(c) } : {}),
  }));
  return `// GENERATED by scripts/codegen.ts (scripts/codegen/storage.ts) from schemas/*.schema.json. DO NOT EDIT: frozen once landed.
/**
 * Migration ${name}: ${summary.join('; ')}.
 * Written by \`npm run codegen\` when the schemas' storage model (x-storage, properties) differed from
 * server/db/migrations/storage.snapshot.json. Frozen: never edit after it lands; change a schema instead.
 * Works on SQLite and PostgreSQL (scripts/codegen/storage/emit.ts says what each phase does).
 */
${audited ? "import { createHash } from 'node:crypto';\n" : ''}import { ${imports.join(', ')} } from 'kysely';
${
  usesPg
    ? `
function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}
`
    : ''
}
/** What this migration does, one line a step (read by \`npm run codegen -- --plan\`). */
export const steps: string[] = ${JSON.stringify(summary, null, 2)};
${checks.length ? `\nconst CHECKS: Check[] = ${JSON.stringify(checkRows, null, 2)};\n${CHECK_RUNTIME}` : ''}${
    audited
      ? `\nconst MIGRATION = ${JSON.stringify(name)};\n\n/** The column changes of existing tables (the migration's audit row). */\nconst CHANGES: Record<string, unknown> = ${JSON.stringify(changes, null, 2)};\n${AUDIT_RUNTIME}`
      : ''
  }${renames ? RENAME_RUNTIME : ''}
/** @param report receives the rows each check finds (\`codegen --plan\`), before anything is refused. */
export async function up(db: Kysely<any>, ${checks.length ? 'report?: (found: Found[]) => void' : '_report?: (found: never[]) => void'}): Promise<void> {
${[...prelude(up), ...up].join('\n')}
}

export async function down(${reversible ? 'db' : '_db'}: Kysely<any>): Promise<void> {
${[...(reversible ? prelude(down) : []), ...downBody].join('\n')}
}
`;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

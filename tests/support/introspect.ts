/**
 * Reads the storage model of tables from a live database (SQLite catalog pragmas, PostgreSQL
 * information_schema / pg_indexes), in the shape of scripts/codegen/storage.ts `StorageSnapshot`, so tests
 * can compare what the migrations create with what the schemas declare.
 * Search: on SQLite the FTS5 table `<table>_fts`: the fields its insert trigger writes into it and its own
 * column labels; on PostgreSQL the trigram (GIN gin_trgm_ops) indexes, as `[table, column]` pairs.
 */
import { sql, type Kysely } from 'kysely';
import type { ColumnModel } from '../../kernel/server/model';

export interface LiveTable {
  columns: Record<string, ColumnModel>;
  indexes: Record<string, string[]>;
  /**
   * SQLite, when the FTS5 table exists: the fields its insert trigger `<table>_fts_insert` writes into it,
   * in order: `new.<column>` as the column, a referenced record's `(select <field> from ...)` as the field.
   */
  fts?: string[];
  /**
   * SQLite: the FTS5 table's own column labels, one per field. A column renamed since the table was made
   * keeps its old label there (FTS5 tables cannot rename a column; no query names one): only their number
   * is the model's.
   */
  ftsLabels?: string[];
}

function parseDefault(text: string | null): string | number | undefined {
  if (text === null || text === undefined) return undefined;
  if (/^nextval\(/.test(text)) return undefined;
  const str = /^'(.*)'(::[a-z ]+)?$/s.exec(text);
  if (str) return str[1].replace(/''/g, "'");
  const n = Number(text);
  return Number.isNaN(n) ? text : n;
}

/**
 * The fields an FTS insert trigger writes (see `LiveTable.fts`), from its SQL: the hand-written one names
 * them bare (`new.texture`), scripts/codegen/storage/sql.ts `ftsBuild` quoted (`new."texture"`).
 */
function ftsFields(trigger: string): string[] {
  const select = trigger.slice(trigger.search(/\bselect\b/i));
  const refs = select.replace(/\(select\s+"?(\w+)"?\s+from[^)]*\)/gi, '@ref:$1');
  const names = [...refs.matchAll(/@ref:(\w+)|new\."?(\w+)"?/gi)].map((m) => m[1] ?? m[2]);
  return names.slice(1); // the first is the rowid, new.id
}

/** The live model of `tables` (see the module doc). */
export async function introspect(
  db: Kysely<any>,
  dialect: 'sqlite' | 'postgres',
  tables: string[],
): Promise<{ tables: Record<string, LiveTable>; trgm: [string, string][] }> {
  const out: Record<string, LiveTable> = {};
  const trgm: [string, string][] = [];
  for (const table of tables) {
    const columns: Record<string, ColumnModel> = {};
    const indexes: Record<string, string[]> = {};
    if (dialect === 'sqlite') {
      const info = (await sql`select * from pragma_table_info(${table})`.execute(db)).rows as any[];
      for (const c of info) {
        const col: ColumnModel = c.pk
          ? { type: 'integer', notNull: true, primaryKey: true }
          : { type: String(c.type).toLowerCase() as ColumnModel['type'], notNull: c.notnull === 1 };
        const d = parseDefault(c.dflt_value);
        if (d !== undefined) col.default = d;
        columns[c.name] = col;
      }
      const fks = (await sql`select * from pragma_foreign_key_list(${table})`.execute(db)).rows as any[];
      for (const f of fks) columns[f.from].references = `${f.table}.${f.to}`;
      const list = (await sql`select * from pragma_index_list(${table})`.execute(db)).rows as any[];
      for (const ix of list) {
        const cols = ((await sql`select * from pragma_index_info(${ix.name})`.execute(db)).rows as any[]).map(
          (r) => r.name as string,
        );
        if (ix.unique && cols.length === 1 && ix.origin !== 'pk') columns[cols[0]].unique = true;
        else if (!ix.unique) indexes[ix.name] = cols;
      }
      const labels = (await sql`select name from pragma_table_info(${`${table}_fts`})`.execute(db))
        .rows as any[];
      const insert = (
        await sql<{
          sql: string;
        }>`select sql from sqlite_master where type = 'trigger' and name = ${`${table}_fts_insert`}`.execute(
          db,
        )
      ).rows[0]?.sql;
      out[table] = {
        columns,
        indexes,
        ...(labels.length
          ? { fts: insert ? ftsFields(insert) : [], ftsLabels: labels.map((r) => r.name as string) }
          : {}),
      };
    } else {
      const info = (
        await sql`select column_name, data_type, is_nullable, column_default from information_schema.columns
                  where table_schema = current_schema() and table_name = ${table}`.execute(db)
      ).rows as any[];
      const pk = (
        await sql`select a.attname from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
                  where i.indrelid = ${table}::regclass and i.indisprimary`.execute(db)
      ).rows as any[];
      for (const c of info) {
        if (pk.some((p) => p.attname === c.column_name)) {
          columns[c.column_name] = { type: 'integer', notNull: true, primaryKey: true };
          continue;
        }
        const type = c.data_type === 'double precision' || c.data_type === 'real' ? 'real' : c.data_type;
        const col: ColumnModel = { type, notNull: c.is_nullable === 'NO' };
        const d = parseDefault(c.column_default);
        if (d !== undefined) col.default = d;
        columns[c.column_name] = col;
      }
      const fks = (
        await sql`select kcu.column_name, ccu.table_name as ref_table, ccu.column_name as ref_column
                  from information_schema.table_constraints tc
                  join information_schema.key_column_usage kcu on tc.constraint_name = kcu.constraint_name
                  join information_schema.constraint_column_usage ccu on tc.constraint_name = ccu.constraint_name
                  where tc.constraint_type = 'FOREIGN KEY' and tc.table_name = ${table}`.execute(db)
      ).rows as any[];
      for (const f of fks) columns[f.column_name].references = `${f.ref_table}.${f.ref_column}`;
      const ixs = (
        await sql`select i.relname as name, ix.indisunique as uniq, ix.indisprimary as pk, pg_get_indexdef(ix.indexrelid) as def
                  from pg_index ix join pg_class i on i.oid = ix.indexrelid where ix.indrelid = ${table}::regclass`.execute(
          db,
        )
      ).rows as any[];
      for (const ix of ixs) {
        if (ix.pk) continue;
        const cols = /\((.*)\)/
          .exec(ix.def)![1]
          .split(',')
          .map((c: string) => c.trim().split(' ')[0].replace(/"/g, ''));
        if (/gin_trgm_ops/.test(ix.def)) trgm.push([table, cols[0]]);
        else if (ix.uniq && cols.length === 1) columns[cols[0]].unique = true;
        else if (!ix.uniq) indexes[ix.name] = cols;
      }
      out[table] = { columns, indexes };
    }
  }
  return { tables: out, trgm };
}

/**
 * The names of the database objects whose name contains `part`, sorted, one string each:
 * `<kind> <name>` (kind `table`, `index`, `sequence`, `view`, `constraint`, `function`) or
 * `trigger <name> on <table>`. SQLite: sqlite_master (its unique and primary-key constraints are indexes,
 * `sqlite_autoindex_<table>_<n>` when the table made them); PostgreSQL: the relations, constraints, triggers
 * (not the internal ones of foreign keys) and functions of the current schema. Tests read it to check that a
 * migration leaves each object once, under the name the storage codegen gives it.
 */
export async function namedObjects(
  db: Kysely<any>,
  dialect: 'sqlite' | 'postgres',
  part: string,
): Promise<string[]> {
  const like = `%${part}%`;
  let rows: { kind: string; name: string; on?: string | null }[];
  if (dialect === 'sqlite')
    rows = (
      await sql<{ kind: string; name: string; on: string }>`select type as kind, name, tbl_name as "on"
        from sqlite_master where name like ${like} or (type = 'trigger' and tbl_name like ${like})`.execute(
        db,
      )
    ).rows.map((r) => ({ ...r, on: r.kind === 'trigger' ? r.on : null }));
  else
    rows = (
      await sql<{ kind: string; name: string; on: string | null }>`
        select case c.relkind when 'r' then 'table' when 'i' then 'index' when 'S' then 'sequence' else 'view' end as kind,
               c.relname as name, null as "on"
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = current_schema() and c.relkind in ('r', 'i', 'S', 'v') and c.relname like ${like}
        union all
        select 'constraint', con.conname, null from pg_constraint con join pg_namespace n on n.oid = con.connamespace
         where n.nspname = current_schema() and con.conname like ${like}
        union all
        select 'trigger', tg.tgname, c.relname from pg_trigger tg join pg_class c on c.oid = tg.tgrelid
          join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = current_schema() and not tg.tgisinternal and (tg.tgname like ${like} or c.relname like ${like})
        union all
        select 'function', p.proname, null from pg_proc p join pg_namespace n on n.oid = p.pronamespace
         where n.nspname = current_schema() and p.proname like ${like}`.execute(db)
    ).rows;
  return rows.map((r) => `${r.kind} ${r.name}${r.on ? ` on ${r.on}` : ''}`).sort();
}

/**
 * The PostgreSQL free-text index of a resource whose schema declares `x-storage.search.index: "trigram"`
 * (the SQLite side is the FTS5 trigram table `<table>_fts`, scripts/codegen/storage.ts). Written by the
 * storage codegen into migrations, read by the repository's `q` (freeText.ts).
 *
 * `<table>_search(id, doc)`: one row per record, `doc` = the lower-cased search fields of the record
 * (its own columns, then the referenced fields, e.g. the author's name), joined by U+001F (unit
 * separator), with a GIN index on `doc` (pg_trgm; PostgreSQL docs, "pg_trgm": the index serves LIKE
 * '%…%') and on the id's bucket `id / SEARCH_BUCKET` (btree_gin), so that one index scan finds the
 * matches of one bucket (freeText.ts `pageIds`; migration 20261127T0100 gave existing tables this index),
 * whose pending list is kept to 256 kB (every search scans the rows waiting there; migration
 * 20261126T1520 says why). Kept in step by triggers: a write to the record's search fields or references, a delete, and
 * a change of a referenced field (authors.authorName) rewrite the rows concerned, in the same transaction.
 *
 * Why this matches SQLite's `q` (substring of any one search field, case-insensitive): `lower(doc) LIKE
 * lower('%q%')` is PostgreSQL's own definition of ILIKE on a multi-byte database (like.c: "In the
 * multi-byte case we don't have much choice" but to lower both), and a `q` without U+001F can only match
 * inside one field of `doc`; a `q` holding U+001F falls back to one ILIKE per field (freeText.ts).
 * A narrow table of ready lower-cased text keeps the recheck of the trigram candidates cheap (no
 * concatenation nor lower() per candidate row).
 */

/**
 * Ids per bucket of the search index's second column, `id / SEARCH_BUCKET` (freeText.ts `pageIds` walks
 * the buckets from the page's end of the table). 4,096: the Tate file's 52k records make 13 buckets, and a
 * bucket's index scan (about 10 µs) stays well below visiting its matches of a common word.
 */
export const SEARCH_BUCKET = 4096;

/** Separator of the fields in `doc` (U+001F, unit separator). */
export const SEARCH_SEPARATOR = '\u001f';

/** The PostgreSQL free-text table of `table`. */
export const searchTable = (table: string): string => `${table}_search`;

/** What the index covers: own columns, and fields of referenced records (`column` → `table.field`). */
export interface SearchFields {
  columns: { name: string; nullable: boolean }[];
  references: { column: string; table: string; field: string }[];
}

const q = (id: string) => JSON.stringify(id);

/** The SQL of `doc` for the row `a` (an alias or NEW). */
function docOf(a: string, s: SearchFields): string {
  const parts = [
    ...s.columns.map((c) => `${a}.${q(c.name)}`),
    ...s.references.map(
      (r) => `(select ${q(r.field)} from ${q(r.table)} where ${q(r.table)}.id = ${a}.${q(r.column)})`,
    ),
  ];
  // concat_ws skips NULLs: a missing field matches nothing, as SQLite's coalesce(…, '').
  return `lower(concat_ws(chr(31), ${parts.join(', ')}))`;
}

/** Referenced tables and the columns pointing at each. */
function referencedTables(s: SearchFields): Map<string, { columns: string[]; fields: string[] }> {
  const out = new Map<string, { columns: string[]; fields: string[] }>();
  for (const r of s.references) {
    const e = out.get(r.table) ?? { columns: [], fields: [] };
    if (!e.columns.includes(r.column)) e.columns.push(r.column);
    if (!e.fields.includes(r.field)) e.fields.push(r.field);
    out.set(r.table, e);
  }
  return out;
}

/**
 * The functions of the triggers keeping `<table>_search` (see the module doc): the record's own write
 * (`<table>_search_write`), then one per referenced table (`<table>_search_<ref>`). `create` is
 * `CREATE` or `CREATE OR REPLACE`.
 */
function pgSearchFunctions(table: string, s: SearchFields, create: string): string[] {
  const st = searchTable(table);
  const fn = `${st}_write`;
  return [
    `${create} FUNCTION ${q(fn)}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
       IF TG_OP = 'DELETE' THEN DELETE FROM ${q(st)} WHERE id = OLD.id; RETURN NULL; END IF;
       INSERT INTO ${q(st)} (id, doc) VALUES (NEW.id, ${docOf('NEW', s)})
         ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc;
       RETURN NULL; END $$`,
    ...[...referencedTables(s)].map(([ref, { columns }]) => {
      const pointing = columns.map((c) => `a.${q(c)} = NEW.id`).join(' OR ');
      return `${create} FUNCTION ${q(`${st}_${ref}`)}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
         UPDATE ${q(st)} s SET doc = ${docOf('a', s)} FROM ${q(table)} a WHERE a.id = s.id AND (${pointing});
         RETURN NULL; END $$`;
    }),
  ];
}

/** SQL statements (PostgreSQL) that build `<table>_search`, fill it, index it and keep it (see the module doc). */
export function pgSearchBuild(table: string, s: SearchFields): string[] {
  const st = searchTable(table);
  return [
    'CREATE EXTENSION IF NOT EXISTS pg_trgm',
    'CREATE EXTENSION IF NOT EXISTS btree_gin',
    `CREATE TABLE ${q(st)} (id integer PRIMARY KEY, doc text NOT NULL)`,
    `INSERT INTO ${q(st)} (id, doc) SELECT a.id, ${docOf('a', s)} FROM ${q(table)} a`,
    `CREATE INDEX ${q(`${st}_doc_id`)} ON ${q(st)} USING gin (doc gin_trgm_ops, (id / ${SEARCH_BUCKET})) WITH (gin_pending_list_limit = 256)`,
    ...pgSearchTriggers(table, s),
  ];
}

/**
 * SQL statements (PostgreSQL) that make the functions and triggers keeping an existing `<table>_search`
 * (part of {@link pgSearchBuild}; a table rename makes them again under the new names, the documents
 * unchanged: scripts/codegen/storage/emit.ts).
 */
export function pgSearchTriggers(table: string, s: SearchFields): string[] {
  const fn = `${searchTable(table)}_write`;
  const watched = [...s.columns.map((c) => c.name), ...new Set(s.references.map((r) => r.column))];
  const [write, ...refs] = pgSearchFunctions(table, s, 'CREATE');
  const out = [
    write,
    `CREATE TRIGGER ${q(fn)} AFTER INSERT OR DELETE OR UPDATE OF ${watched.map(q).join(', ')} ON ${q(table)} FOR EACH ROW EXECUTE FUNCTION ${q(fn)}()`,
  ];
  for (const [i, [ref, { fields }]] of [...referencedTables(s)].entries()) {
    const rf = `${searchTable(table)}_${ref}`;
    out.push(
      refs[i],
      `CREATE TRIGGER ${q(rf)} AFTER UPDATE OF ${fields.map(q).join(', ')} ON ${q(ref)} FOR EACH ROW EXECUTE FUNCTION ${q(rf)}()`,
    );
  }
  return out;
}

/**
 * SQL statements (PostgreSQL) that make the trigger functions of `<table>_search` read the columns of
 * `s` again, after a column of it was renamed (`ALTER TABLE ... RENAME COLUMN`). The documents do not
 * change, nor do the triggers: PostgreSQL keeps a trigger's `UPDATE OF` columns by number, so they follow
 * the rename, while a function's body is text naming the old column until it is replaced.
 */
export function pgSearchRenamed(table: string, s: SearchFields): string[] {
  return pgSearchFunctions(table, s, 'CREATE OR REPLACE');
}

/** SQL statements (PostgreSQL) that drop what {@link pgSearchBuild} made. */
export function pgSearchDrop(table: string, s: SearchFields): string[] {
  return [...pgSearchTriggersDrop(table, s), `DROP TABLE IF EXISTS ${q(searchTable(table))}`];
}

/** SQL statements (PostgreSQL) that drop what {@link pgSearchTriggers} made (the tables it names must exist). */
export function pgSearchTriggersDrop(table: string, s: SearchFields): string[] {
  const st = searchTable(table);
  return [
    `DROP TRIGGER IF EXISTS ${q(`${st}_write`)} ON ${q(table)}`,
    `DROP FUNCTION IF EXISTS ${q(`${st}_write`)}()`,
    ...[...referencedTables(s).keys()].flatMap((ref) => [
      `DROP TRIGGER IF EXISTS ${q(`${st}_${ref}`)} ON ${q(ref)}`,
      `DROP FUNCTION IF EXISTS ${q(`${st}_${ref}`)}()`,
    ]),
  ];
}

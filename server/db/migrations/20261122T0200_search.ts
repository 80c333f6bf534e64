/**
 * Free-text search index for artworks (`q` of the artworks list: name, texture, category, owner and the
 * author's name). Frozen: never edit after it lands.
 * - SQLite: an FTS5 table `artworks_fts` with the trigram tokenizer (substring match of 3 or more
 *   characters, Unicode case folding; CJK included), rowid = artworks.id, kept in step by triggers on
 *   artworks (insert, update, delete) and on authors (a changed authorName).
 * - PostgreSQL: the pg_trgm extension and GIN trigram indexes, which serve the ILIKE the query uses.
 */
import { sql, type Kysely } from 'kysely';

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

const FTS_COLUMNS = "artWorkName, texture, classify, possessor, authorName, tokenize='trigram'";
const ROW = (alias: string) =>
  `${alias}.id, ${alias}.artWorkName, ${alias}.texture, ${alias}.classify, coalesce(${alias}.possessor, ''), ` +
  `coalesce((select authorName from authors where authors.id = ${alias}.author), '')`;

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    for (const [table, column] of [
      ['artworks', 'artWorkName'],
      ['artworks', 'texture'],
      ['artworks', 'classify'],
      ['artworks', 'possessor'],
      ['authors', 'authorName'],
    ])
      await sql
        .raw(`CREATE INDEX ${table}_${column}_trgm ON ${table} USING gin ("${column}" gin_trgm_ops)`)
        .execute(db);
    return;
  }
  const insert = `INSERT INTO artworks_fts(rowid, artWorkName, texture, classify, possessor, authorName)`;
  for (const statement of [
    `CREATE VIRTUAL TABLE artworks_fts USING fts5(${FTS_COLUMNS})`,
    `${insert} SELECT ${ROW('a')} FROM artworks a`,
    `CREATE TRIGGER artworks_fts_insert AFTER INSERT ON artworks BEGIN ${insert} SELECT ${ROW('new')}; END`,
    `CREATE TRIGGER artworks_fts_delete AFTER DELETE ON artworks BEGIN DELETE FROM artworks_fts WHERE rowid = old.id; END`,
    `CREATE TRIGGER artworks_fts_update AFTER UPDATE OF artWorkName, texture, classify, possessor, author ON artworks BEGIN
       DELETE FROM artworks_fts WHERE rowid = old.id; ${insert} SELECT ${ROW('new')}; END`,
    `CREATE TRIGGER artworks_fts_author AFTER UPDATE OF authorName ON authors BEGIN
       DELETE FROM artworks_fts WHERE rowid IN (SELECT id FROM artworks WHERE author = new.id);
       ${insert} SELECT ${ROW('a')} FROM artworks a WHERE a.author = new.id; END`,
  ])
    await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const name of ['artWorkName', 'texture', 'classify', 'possessor'])
      await sql.raw(`DROP INDEX IF EXISTS artworks_${name}_trgm`).execute(db);
    await sql.raw('DROP INDEX IF EXISTS authors_authorName_trgm').execute(db);
    return;
  }
  for (const t of [
    'artworks_fts_insert',
    'artworks_fts_delete',
    'artworks_fts_update',
    'artworks_fts_author',
  ])
    await sql.raw(`DROP TRIGGER IF EXISTS ${t}`).execute(db);
  await sql.raw('DROP TABLE IF EXISTS artworks_fts').execute(db);
}

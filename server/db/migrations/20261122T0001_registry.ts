/**
 * Registry tables: accounts and tokens (console login), authors, artworks, art categories, bid users and
 * platform users. Frozen: never edit after it lands; add a new migration instead.
 * Works on SQLite and PostgreSQL (identity columns differ; everything else is portable SQL).
 */
import { sql, type Kysely, type ColumnDefinitionBuilder } from 'kysely';

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const idType = pg ? 'serial' : 'integer';
  const idCol = (c: ColumnDefinitionBuilder) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('accounts')
    .addColumn('id', idType, idCol)
    .addColumn('account', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('passwordHash', 'text', (c) => c.notNull())
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('avatar', 'text')
    .addColumn('introduction', 'text')
    .addColumn('createTime', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('tokens')
    .addColumn('tokenHash', 'text', (c) => c.primaryKey())
    .addColumn('accountId', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('createTime', 'text', (c) => c.notNull())
    .addColumn('expireTime', 'text', (c) => c.notNull())
    .addColumn('revokeTime', 'text')
    .execute();

  await db.schema
    .createTable('authors')
    .addColumn('id', idType, idCol)
    .addColumn('authorName', 'text', (c) => c.notNull())
    .addColumn('introduction', 'text')
    .addColumn('portrait', 'text')
    .addColumn('isBlock', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('chain', 'text')
    .addColumn('chainDigest', 'text')
    .addColumn('chainVersion', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('blockTime', 'text')
    .addColumn('createTime', 'text', (c) => c.notNull())
    .addColumn('updateTime', 'text', (c) => c.notNull())
    .addColumn('wxIsEnable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('wxCode', 'text')
    .addColumn('wxUrl', 'text')
    .addColumn('wxCreateTime', 'text')
    .addColumn('sourceId', 'integer', (c) => c.unique())
    .execute();
  await db.schema.createIndex('authors_authorName').on('authors').column('authorName').execute();

  await db.schema
    .createTable('artworks')
    .addColumn('id', idType, idCol)
    .addColumn('artWorkName', 'text', (c) => c.notNull())
    .addColumn('author', 'integer', (c) => c.notNull().references('authors.id'))
    .addColumn('possessor', 'text')
    .addColumn('classify', 'text', (c) => c.notNull())
    .addColumn('texture', 'text', (c) => c.notNull())
    .addColumn('bid', 'integer')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('isBlock', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('chain', 'text')
    .addColumn('chainDigest', 'text')
    .addColumn('chainVersion', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('blockTime', 'text')
    .addColumn('createTime', 'text', (c) => c.notNull())
    .addColumn('updateTime', 'text', (c) => c.notNull())
    .addColumn('images', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('baseInfo', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('dealInfo', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('securityInfo', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('certificateInfo', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('traceability', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('ownership', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('authenticity', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('sourceId', 'text', (c) => c.unique())
    .addColumn('sourceDigest', 'text')
    .execute();
  await db.schema.createIndex('artworks_author').on('artworks').column('author').execute();
  await db.schema.createIndex('artworks_classify').on('artworks').column('classify').execute();
  await db.schema.createIndex('artworks_createTime').on('artworks').column('createTime').execute();
  await db.schema.createIndex('artworks_artWorkName').on('artworks').column('artWorkName').execute();

  await db.schema
    .createTable('art_categories')
    .addColumn('id', idType, idCol)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .execute();

  for (const table of ['bid_users', 'platform_users']) {
    await db.schema
      .createTable(table)
      .addColumn('id', idType, idCol)
      .addColumn('uid', 'text', (c) => c.notNull().unique())
      .addColumn('account', 'text', (c) => c.notNull().unique())
      .addColumn('nickname', 'text')
      .addColumn('avatar', 'text')
      .addColumn('registerTime', 'text', (c) => c.notNull())
      .addColumn('chainId', 'text')
      .addColumn('bidNumber', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('loginCount', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lastLoginTime', 'text')
      .execute();
  }
  void sql;
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'platform_users',
    'bid_users',
    'art_categories',
    'artworks',
    'authors',
    'tokens',
    'accounts',
  ])
    await db.schema.dropTable(t).execute();
}

/**
 * Ledger tables (docs/ledger.md section 5): channels, blocks, committed transactions, the durable pending
 * queue, and chaincodes. Frozen once landed: never edit, add a new migration instead.
 * Portable SQL: SQLite by default, PostgreSQL (only the identity column type differs).
 */
import { type ColumnDefinitionBuilder, type Kysely } from 'kysely';

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const idType = pg ? 'serial' : 'integer';
  const idCol = (c: ColumnDefinitionBuilder) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('ledger_channel')
    .addColumn('id', idType, idCol)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('ledger_block')
    .addColumn('channelId', 'integer', (c) => c.notNull().references('ledger_channel.id'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('previousHash', 'text', (c) => c.notNull())
    .addColumn('dataHash', 'text', (c) => c.notNull())
    .addColumn('blockHash', 'text', (c) => c.notNull().unique())
    .addColumn('txCount', 'integer', (c) => c.notNull())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_block_pk', ['channelId', 'number'])
    .execute();
  await db.schema
    .createIndex('ledger_block_time')
    .on('ledger_block')
    .columns(['channelId', 'createdAt'])
    .execute();

  await db.schema
    .createTable('ledger_tx')
    .addColumn('txId', 'text', (c) => c.primaryKey())
    .addColumn('channelId', 'integer', (c) => c.notNull())
    .addColumn('blockNumber', 'integer', (c) => c.notNull())
    .addColumn('txIndex', 'integer', (c) => c.notNull())
    .addColumn('chaincode', 'text', (c) => c.notNull())
    .addColumn('function', 'text', (c) => c.notNull())
    .addColumn('args', 'text', (c) => c.notNull())
    .addColumn('creator', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'text', (c) => c.notNull())
    .addColumn('validationCode', 'integer', (c) => c.notNull())
    .addColumn('leafHash', 'text', (c) => c.notNull())
    .addForeignKeyConstraint('ledger_tx_block', ['channelId', 'blockNumber'], 'ledger_block', [
      'channelId',
      'number',
    ])
    .addUniqueConstraint('ledger_tx_position', ['channelId', 'blockNumber', 'txIndex'])
    .execute();
  await db.schema.createIndex('ledger_tx_time').on('ledger_tx').column('timestamp').execute();

  await db.schema
    .createTable('ledger_pending')
    .addColumn('seq', idType, idCol)
    .addColumn('txId', 'text', (c) => c.notNull().unique())
    .addColumn('channelId', 'integer', (c) => c.notNull().references('ledger_channel.id'))
    .addColumn('chaincode', 'text', (c) => c.notNull())
    .addColumn('function', 'text', (c) => c.notNull())
    .addColumn('args', 'text', (c) => c.notNull())
    .addColumn('creator', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'text', (c) => c.notNull())
    .addColumn('validationCode', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ledger_pending_channel')
    .on('ledger_pending')
    .columns(['channelId', 'seq'])
    .execute();

  await db.schema
    .createTable('chaincode')
    .addColumn('id', idType, idCol)
    .addColumn('channelId', 'integer', (c) => c.notNull().references('ledger_channel.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('initArgs', 'text', (c) => c.notNull())
    .addColumn('args', 'text', (c) => c.notNull())
    .addColumn('policy', 'text', (c) => c.notNull())
    .addColumn('function', 'text', (c) => c.notNull())
    .addColumn('functionType', 'text', (c) => c.notNull())
    .addColumn('fileName', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('codeHash', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('history', 'text', (c) => c.notNull())
    .addColumn('createdBy', 'text', (c) => c.notNull())
    .addColumn('createTime', 'text', (c) => c.notNull())
    .addColumn('updateTime', 'text', (c) => c.notNull())
    .addUniqueConstraint('chaincode_name_version', ['channelId', 'name', 'version'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['chaincode', 'ledger_pending', 'ledger_tx', 'ledger_block', 'ledger_channel'])
    await db.schema.dropTable(t).ifExists().execute();
}

/**
 * Signed checkpoints and witness cosignatures (docs/ledger.md section 10): `ledger_checkpoint` holds the
 * signed note of each checkpoint (channel, size = height, root hash = head block hash), `ledger_witness`
 * the latest cosigned checkpoint of each witness per channel. Frozen once landed: never edit, add a new
 * migration instead. Portable SQL (SQLite and PostgreSQL).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ledger_checkpoint')
    .addColumn('channelId', 'integer', (c) => c.notNull().references('ledger_channel.id'))
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('rootHash', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_checkpoint_pk', ['channelId', 'size'])
    .execute();

  await db.schema
    .createTable('ledger_witness')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('channelId', 'integer', (c) => c.notNull().references('ledger_channel.id'))
    .addColumn('publicKey', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('rootHash', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('cosignedAt', 'text', (c) => c.notNull())
    .addColumn('firstSeen', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_witness_pk', ['name', 'channelId'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ledger_witness').ifExists().execute();
  await db.schema.dropTable('ledger_checkpoint').ifExists().execute();
}

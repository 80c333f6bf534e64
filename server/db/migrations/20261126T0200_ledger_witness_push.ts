/**
 * The log side of the witness protocol (C2SP tlog-witness; docs/ledger.md section 11):
 * - `ledger_cosignature`: the cosignature lines witnesses answered for a channel's checkpoint of a size
 *   (one per witness key name), published after the log's own signature line;
 * - `ledger_witness_status`: per configured witness and channel, the size the witness last reported
 *   (its answer or its 409), the size it last cosigned, and how many times it refused (400/403/404/422)
 *   or could not be reached, with the last error, for the dashboard.
 * The table `ledger_witness` of the admin-only cosign call (removed) is left as it was.
 * Frozen once landed: never edit, add a new migration instead. Portable SQL (SQLite and PostgreSQL).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ledger_cosignature')
    .addColumn('channelId', 'integer', (c) => c.notNull().references('ledger_channel.id'))
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('witness', 'text', (c) => c.notNull())
    .addColumn('rootHash', 'text', (c) => c.notNull())
    .addColumn('line', 'text', (c) => c.notNull())
    .addColumn('time', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_cosignature_pk', ['channelId', 'size', 'witness'])
    .execute();

  await db.schema
    .createTable('ledger_witness_status')
    .addColumn('channelId', 'integer', (c) => c.notNull().references('ledger_channel.id'))
    .addColumn('witness', 'text', (c) => c.notNull())
    .addColumn('vkey', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('cosignedSize', 'integer', (c) => c.notNull())
    .addColumn('cosignedAt', 'text')
    .addColumn('lastAttemptAt', 'text')
    .addColumn('lastError', 'text')
    .addColumn('refusals', 'integer', (c) => c.notNull())
    .addColumn('errors', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_witness_status_pk', ['channelId', 'witness'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ledger_witness_status').ifExists().execute();
  await db.schema.dropTable('ledger_cosignature').ifExists().execute();
}

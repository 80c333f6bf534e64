/**
 * The ledger as a transparency log (docs/ledger.md sections 3a and 10, issue 19): one RFC 6962 Merkle
 * log per channel whose entries are the channel's transactions in order.
 *
 * - `ledger_tree`: one row per block: the log's size (entries) and root hash after the block, and the
 *   stored hashes the block appended (Go's golang.org/x/mod/sumdb/tlog StoredHashes numbering, starting
 *   at `hashStart` = StoredHashCount(size before the block)), as lowercase hex, 64 characters per hash;
 * - `ledger_log`: the origin of each channel's log (C2SP tlog-checkpoint origin line), fixed at its first
 *   start (server/ledger/origin.ts);
 * - the checkpoints signed so far counted blocks and named the head block's hash: they are kept, renamed
 *   `ledger_block_checkpoint`; `ledger_checkpoint` starts empty and holds C2SP checkpoints (size in
 *   entries, root = the log's tree hash).
 *
 * Existing ledgers are backfilled here from `ledger_tx.leafHash` in (block, index) order; blocks and their
 * hashes are unchanged. Frozen once landed: never edit, add a new migration instead. Portable SQL.
 */
import type { Kysely } from 'kysely';
import { fromHex, toHex } from '../../../common/ledger/hex';
import { storedHashCount, storedHashesForRecordHash, treeHash, type Hash } from '../../../common/ledger/tlog';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ledger_checkpoint').renameTo('ledger_block_checkpoint').execute();
  await db.schema
    .createTable('ledger_checkpoint')
    .addColumn('channelId', 'integer', (c) => c.notNull().references('ledger_channel.id'))
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('rootHash', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_tlog_checkpoint_pk', ['channelId', 'size'])
    .execute();
  await db.schema
    .createTable('ledger_tree')
    .addColumn('channelId', 'integer', (c) => c.notNull().references('ledger_channel.id'))
    .addColumn('blockNumber', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('rootHash', 'text', (c) => c.notNull())
    .addColumn('hashStart', 'integer', (c) => c.notNull())
    .addColumn('hashes', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_tree_pk', ['channelId', 'blockNumber'])
    .execute();
  await db.schema
    .createIndex('ledger_tree_hash_start')
    .unique()
    .on('ledger_tree')
    .columns(['channelId', 'hashStart'])
    .execute();
  await db.schema
    .createTable('ledger_log')
    .addColumn('channelId', 'integer', (c) => c.primaryKey().references('ledger_channel.id'))
    .addColumn('origin', 'text', (c) => c.notNull().unique())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .execute();

  // Backfill: the stored hashes of every channel's log, block by block.
  const channels = await db.selectFrom('ledger_channel').select('id').orderBy('id').execute();
  for (const { id } of channels) {
    const stored: Hash[] = [];
    const read = (ix: number[]) => ix.map((i) => stored[i]);
    let size = 0;
    const blocks = await db
      .selectFrom('ledger_block')
      .select('number')
      .where('channelId', '=', id)
      .orderBy('number')
      .execute();
    for (const { number } of blocks) {
      const leaves = await db
        .selectFrom('ledger_tx')
        .select('leafHash')
        .where('channelId', '=', id)
        .where('blockNumber', '=', number)
        .orderBy('txIndex')
        .execute();
      const hashStart = stored.length;
      for (const { leafHash } of leaves) {
        stored.push(...storedHashesForRecordHash(size, fromHex(leafHash as string), read));
        size++;
      }
      if (stored.length !== storedHashCount(size))
        throw new Error('ledger_tlog backfill: bad stored hash count');
      await db
        .insertInto('ledger_tree')
        .values({
          channelId: id,
          blockNumber: number,
          size,
          rootHash: toHex(treeHash(size, read)),
          hashStart,
          hashes: stored.slice(hashStart).map(toHex).join(''),
        })
        .execute();
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ledger_log').ifExists().execute();
  await db.schema.dropTable('ledger_tree').ifExists().execute();
  await db.schema.dropTable('ledger_checkpoint').ifExists().execute();
  await db.schema.alterTable('ledger_block_checkpoint').renameTo('ledger_checkpoint').execute();
}

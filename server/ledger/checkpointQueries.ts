/**
 * Reads of `ledger_checkpoint` (docs/ledger.md section 10): a channel's latest checkpoint, the one at a
 * size, the first one covering a size. Sizes are entries of the channel's log.
 */
import type { Kysely } from 'kysely';
import type { LedgerTables } from './tables';

/** A stored checkpoint. */
export interface StoredCheckpoint {
  channelId: number;
  size: number;
  rootHash: string;
  note: string;
  createdAt: string;
}

/**
 * The first checkpoint of a channel in `order` of size, among those whose size is `op size` when `op` is
 * given (all of them otherwise), or undefined.
 */
function firstCheckpoint(
  db: Kysely<any>,
  channelId: number,
  order: 'asc' | 'desc',
  op?: '>=' | '=',
  size = 0,
): Promise<StoredCheckpoint | undefined> {
  let q = (db as Kysely<LedgerTables>)
    .selectFrom('ledger_checkpoint')
    .selectAll()
    .where('channelId', '=', channelId);
  if (op) q = q.where('size', op, size);
  return q.orderBy('size', order).limit(1).executeTakeFirst();
}

/** The latest checkpoint of a channel, or undefined. */
export async function latestCheckpoint(
  db: Kysely<any>,
  channelId: number,
): Promise<StoredCheckpoint | undefined> {
  return firstCheckpoint(db, channelId, 'desc');
}

/** The checkpoint of a channel at `size`, else the first one after it (it covers block size − 1 too). */
export async function checkpointCovering(
  db: Kysely<any>,
  channelId: number,
  size: number,
): Promise<StoredCheckpoint | undefined> {
  return firstCheckpoint(db, channelId, 'asc', '>=', size);
}

/** The checkpoint of a channel at exactly `size`, or undefined. */
export async function checkpointAt(
  db: Kysely<any>,
  channelId: number,
  size: number,
): Promise<StoredCheckpoint | undefined> {
  return firstCheckpoint(db, channelId, 'asc', '=', size);
}

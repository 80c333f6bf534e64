/**
 * Which C2SP tlog-tiles resources a channel's log serves (docs/ledger.md section 10, "The log as
 * tlog-tiles"; https://c2sp.org/tlog-tiles, "Partial Tiles"): a full tile (or entry bundle) once the latest
 * signed checkpoint covers it, and a partial one of width W at (L, N) whenever some checkpoint of the
 * channel (`ledger_checkpoint`) had a size s with floor(s / 256^L) − N·256 = W, i.e. a size in
 * [(N·256 + W)·256^L, (N·256 + W + 1)·256^L), at most the latest signed size. A partial tile stays served
 * after the full tile exists: a client that holds an older checkpoint reads the tree at that size. Nothing
 * else is served, so a client never sees a tree no checkpoint signed.
 */
import type { Kysely } from 'kysely';
import { TILE_WIDTH, type Tile } from '../../common/ledger/tlog';
import type { LedgerTables } from './tables';

/**
 * What serving `tile` (L = −1 for an entry bundle) takes when the latest signed checkpoint has `signedSize`
 * entries: `'yes'` (a full tile the signed tree covers, or the partial tile of the signed size itself),
 * `'no'`, or the range of sizes `[from, to)` one of which must be a stored checkpoint's size.
 */
export function tileNeed(tile: Tile, signedSize: number): 'yes' | 'no' | { from: number; to: number } {
  const span = TILE_WIDTH ** (tile.L === -1 ? 0 : tile.L);
  const widthAtSize = Math.floor(signedSize / span) - tile.N * TILE_WIDTH;
  if (tile.W === TILE_WIDTH) return widthAtSize >= TILE_WIDTH ? 'yes' : 'no';
  if (widthAtSize === tile.W) return 'yes';
  if (widthAtSize < tile.W) return 'no';
  // widthAtSize > W: from < signedSize, so from and to are exact integers.
  const from = (tile.N * TILE_WIDTH + tile.W) * span;
  return { from, to: from + span };
}

/** Whether channel `channelId` has a stored checkpoint whose size lies in [from, to). */
export async function hasCheckpointIn(
  db: Kysely<any>,
  channelId: number,
  from: number,
  to: number,
): Promise<boolean> {
  const row = await (db as Kysely<LedgerTables>)
    .selectFrom('ledger_checkpoint')
    .select('size')
    .where('channelId', '=', channelId)
    .where('size', '>=', from)
    .where('size', '<', to)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether the log of channel `channelId`, signed at `signedSize`, serves `tile` ({@link tileNeed}). */
export async function tileServed(
  db: Kysely<any>,
  channelId: number,
  signedSize: number,
  tile: Tile,
): Promise<boolean> {
  const need = tileNeed(tile, signedSize);
  if (typeof need === 'string') return need === 'yes';
  return hasCheckpointIn(db, channelId, need.from, need.to);
}

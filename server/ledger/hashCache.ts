/**
 * A bounded in-memory cache of a channel log's upper stored hashes (level 8 and above: the hashes of
 * C2SP tlog-tiles' level-1 and higher tiles), for the public proof and tile calls (tree.ts). A proof
 * reads one stored hash per level (RFC 6962 audit path); on a log of 10^6 entries the levels from 8 up
 * hold fewer than 8,000 hashes, which nearly every proof shares, so once they are cached a proof reads
 * only the one or two `ledger_tree` rows of its lower levels (issue 19 item 10).
 *
 * Stored hashes of a committed log never change (the log only appends), so a cached hash stays right.
 * The caller only caches hashes read outside any database transaction (committed rows, never a block
 * still being written that could roll back), and the signer's checks (checkpoints.ts) never read
 * through the cache: they read the stored rows themselves.
 */
import { splitStoredHashIndex, type Hash } from '../../common/ledger/tlog';

/** The lowest level cached: the first level of C2SP tlog-tiles' level-1 tiles (tile height 8). */
export const CACHED_LEVEL = 8;

/** Hashes kept at most over all channels (32 bytes each plus the map's entry: a few MB). */
const MAX_HASHES = 1 << 16;

/** The cache: stored hashes by channel id and stored-hash index (common/ledger/tlog.ts numbering). */
export class UpperHashCache {
  private readonly byChannel = new Map<number, Map<number, Hash>>();
  private count = 0;

  /** The cached hash, or undefined. */
  get(channelId: number, index: number): Hash | undefined {
    return this.byChannel.get(channelId)?.get(index);
  }

  /** Keeps `hash` when its level is at least {@link CACHED_LEVEL}; when full, starts again empty. */
  put(channelId: number, index: number, hash: Hash): void {
    if (splitStoredHashIndex(index)[0] < CACHED_LEVEL) return;
    if (this.count >= MAX_HASHES) this.clear();
    let m = this.byChannel.get(channelId);
    if (!m) this.byChannel.set(channelId, (m = new Map()));
    if (!m.has(index)) this.count++;
    // A copy of its own (a Buffer, as the rows' hashes): a small Buffer is a view of a shared 8 kB pool,
    // which a kept view would pin.
    const own = Buffer.allocUnsafeSlow(hash.length);
    own.set(hash);
    m.set(index, own);
  }

  /** Forgets every hash (e.g. after the database was restored under a running server). */
  clear(): void {
    this.byChannel.clear();
    this.count = 0;
  }
}

/**
 * The stored Merkle log of each channel (docs/ledger.md section 3a): entries are the channel's
 * transactions in order (entry = the transaction's canonical JSON, so its record hash is the
 * transaction's leaf hash `ledger_tx.leafHash`), stored as Go tlog's stored hashes in `ledger_tree`, one
 * row per block (migration 20261126T0100_ledger_tlog). Appending a block reads only the right edge of the
 * tree (at most log2 n hashes); proofs, tree hashes and tiles read O(log n) stored hashes
 * (common/ledger/tlog.ts), never re-hash history.
 *
 * On SQLite every read and write goes through better-sqlite3 prepared statements on the one connection
 * (inside a block's transaction too); elsewhere through Kysely, on the transaction when one is given.
 */
import { sql, type Kysely } from 'kysely';
import type SQLite from 'better-sqlite3';
import { sqliteHandle } from '../db/connect';
import { lazyStatements } from '../db/sqliteStatements';
import {
  encodeEntryBundle,
  HASH_SIZE,
  proveRecord,
  proveTree,
  readTileData,
  recordProofIndexes,
  storedHashCount,
  storedHashesIndexes,
  storedHashIndex,
  type Hash,
  type Tile,
  tileIndexes,
  TILE_WIDTH,
  treeHashIndexes,
  treeProofIndexes,
} from '../../common/ledger/tlog';
import type { LedgerTables, LedgerTxColumns } from './tables';
import { UpperHashCache } from './hashCache';
import { nodeHash, sha256Buffer } from './merkle';
import { storedTx, txCanonicalJson } from './tx';

const HEX = HASH_SIZE * 2;
/** Indexes per statement of `readHashes` without the SQLite handle (one parameter each). */
const READ_CHUNK = 500;

/** A tree of the log: size in entries and root hash (hex). */
export interface TreeState {
  size: number;
  rootHash: string;
}

/** The log's state after a block: size in entries, root hash (hex), the block that made it. */
export interface TreeHead {
  size: number;
  rootHash: string;
  blockNumber: number;
}

interface TreeRow {
  blockNumber: number;
  size: number;
  rootHash: string;
  hashStart: number;
  hashes: string;
}

/** SQL of the SQLite statements (one connection, inside a block's transaction too). */
const SQL = {
  head: 'SELECT "blockNumber", "size", "rootHash", "hashStart", "hashes" FROM ledger_tree WHERE "channelId" = ? ORDER BY "blockNumber" DESC LIMIT 1',
  hashAt:
    'SELECT substr("hashes", (? - "hashStart") * 64 + 1, 64) AS "hash" FROM ledger_tree WHERE "channelId" = ? AND "hashStart" <= ? ORDER BY "hashStart" DESC LIMIT 1',
  insert:
    'INSERT INTO ledger_tree ("channelId", "blockNumber", "size", "rootHash", "hashStart", "hashes") VALUES (?, ?, ?, ?, ?, ?)',
  blockFor:
    'SELECT "blockNumber", "size" FROM ledger_tree WHERE "channelId" = ? AND "size" > ? ORDER BY "size" LIMIT 1',
  txsOf:
    'SELECT "txId", "chaincode", "function", "args", "creator", "timestamp", "validationCode" FROM ledger_tx WHERE "channelId" = ? AND "blockNumber" = ? ORDER BY "txIndex"',
} as const;

/** The prepared statements, by name (server/db/sqliteStatements.ts). */
type Statements = Record<keyof typeof SQL, SQLite.Statement>;

/** The right edge of a channel's tree at one size: the stored hashes `treeHashIndexes(size)` names. */
interface Edge {
  size: number;
  rootHash: string;
  hashes: Map<number, Hash>;
}

/** The 32-byte hash at character `at` of a stored hex column. @throws Error when it is not hex. */
function hexHash(hex: string, at: number): Hash {
  const h = Buffer.from(hex.slice(at, at + HEX), 'hex');
  if (h.length !== HASH_SIZE) throw new Error(`ledger tree: stored hash at ${at / HEX} is not 32-byte hex`);
  return h;
}

/**
 * The tree hash (hex) of the first `size` entries (all zero for 0, as Go) from the stored hashes of its right edge: Go
 * tlog's `TreeHash` (the complete subtrees `treeHashIndexes(size)` names, left to right, folded from the
 * right with RFC 6962's inner node hash), with node:crypto instead of the browser-side SHA-256 of
 * common/ledger/tlog.ts (the append path's hot spot, issue 19 item 10). Same hash as `treeHash`
 * (tree.test.ts). @throws Error when a stored hash of the edge is missing from `hashes`
 */
export function edgeRoot(size: number, hashes: ReadonlyMap<number, Hash>): string {
  if (size === 0) return '0'.repeat(HEX);
  const ix = treeHashIndexes(size);
  const at = (k: number) => {
    const h = hashes.get(ix[k]);
    if (!h) throw new Error(`ledger tree: stored hash ${ix[k]} of the tree of size ${size} missing`);
    return h;
  };
  let h = at(ix.length - 1);
  for (let k = ix.length - 2; k >= 0; k--) h = nodeHash(at(k), h);
  return Buffer.from(h.buffer, h.byteOffset, h.byteLength).toString('hex');
}

/** The 65 bytes an inner node hashes (0x01 ‖ left ‖ right), reused: hashing is synchronous. */
const nodeInput = Buffer.alloc(1 + 2 * HASH_SIZE, 0x01);

/**
 * Writes at `at` of `dst` the inner node (RFC 6962 2.1: SHA-256(0x01 ‖ left ‖ right)) of the hash at
 * `leftAt` of `left` and the hash just before `at` in `dst` (its right child).
 */
function innerInto(dst: Buffer, at: number, left: Uint8Array, leftAt: number): void {
  for (let j = 0; j < HASH_SIZE; j++) {
    nodeInput[1 + j] = left[leftAt + j];
    nodeInput[1 + HASH_SIZE + j] = dst[at - HASH_SIZE + j];
  }
  dst.set(sha256Buffer(nodeInput), at);
}

/** Stored Merkle logs, one per channel, over the application's database. */
export class TreeStore {
  private readonly sqlite: SQLite.Database | undefined;
  private readonly statements: () => Statements;
  private readonly edges = new Map<number, Edge>();
  private readonly appended = new Map<number, { from: TreeState; to: TreeState }>();
  /** Upper stored hashes read by the public proof and tile calls (hashCache.ts). */
  private readonly upper = new UpperHashCache();

  constructor(private readonly db: Kysely<any>) {
    this.sqlite = sqliteHandle(db);
    this.statements = lazyStatements(this.sqlite, SQL);
  }

  private get ldb(): Kysely<LedgerTables> {
    return this.db as Kysely<LedgerTables>;
  }

  /** The log's latest state (its last block's row), through `db` (a transaction) or the store's own. */
  async head(channelId: number, db: Kysely<any> = this.db): Promise<TreeHead | undefined> {
    const row = await this.lastRow(channelId, db);
    return row && { size: Number(row.size), rootHash: row.rootHash, blockNumber: Number(row.blockNumber) };
  }

  private async lastRow(channelId: number, db: Kysely<any>): Promise<TreeRow | undefined> {
    if (this.sqlite) return this.statements().head.get(channelId) as TreeRow | undefined;
    return (db as Kysely<LedgerTables>)
      .selectFrom('ledger_tree')
      .select(['blockNumber', 'size', 'rootHash', 'hashStart', 'hashes'])
      .where('channelId', '=', channelId)
      .orderBy('blockNumber', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * Stored hashes by index (common/ledger/tlog.ts `storedHashIndex`), in the order asked. Without the
   * SQLite handle (PostgreSQL) one statement per {@link READ_CHUNK} indexes: the `ledger_tree` rows that
   * hold them, each once (`treeRowsFor`; standard SQL that any Kysely dialect runs). One statement per
   * row touched made a tile of a log cut into blocks of 3 entries some 85 round trips: Go's tlog client
   * reading a 307-entry log through its tiles and proofs took 54 s on PostgreSQL against 3 s on SQLite
   * (tests/api/tlog-interop.test.ts). A `substr` per index instead of whole rows (as on SQLite) read a
   * row's hashes, one TOASTed value, once per index: a tile of blocks of 100 took 11 ms instead of 1
   * (`npm run bench -- --ledger`, bench/tlog.ts); a row per index found by a subquery of its own, 2.7 ms:
   * hence the range for a tile.
   * @throws Error when an index is not stored (beyond the log, or a row is missing)
   */
  async readHashes(channelId: number, indexes: number[], db: Kysely<any> = this.db): Promise<Hash[]> {
    if (this.sqlite) return this.readHashesSqlite(channelId, indexes);
    const out = new Array<Hash>(indexes.length);
    for (let from = 0; from < indexes.length; from += READ_CHUNK) {
      const part = indexes.slice(from, from + READ_CHUNK);
      const { rows } = await this.treeRowsFor(channelId, part, db);
      const starts = rows.map((r) => Number(r.hashStart));
      part.forEach((x, k) => {
        // the last row starting at or before x
        let lo = 0;
        let hi = starts.length - 1;
        let at = -1;
        while (lo <= hi) {
          const mid = (lo + hi) >> 1;
          if (starts[mid] <= x) {
            at = mid;
            lo = mid + 1;
          } else hi = mid - 1;
        }
        const hex = at < 0 ? '' : rows[at].hashes;
        const offset = (x - (at < 0 ? 0 : starts[at])) * HEX;
        if (offset + HEX > hex.length)
          throw new Error(`ledger tree of channel ${channelId}: stored hash ${x} missing`);
        out[from + k] = hexHash(hex, offset);
      });
    }
    return out;
  }

  /**
   * The `ledger_tree` rows holding the stored hashes `indexes` (PostgreSQL, see `readHashes`), by
   * `hashStart`. Indexes close together (a tile: its span under 4 hashes per index asked) take every row
   * from the one holding the first to the last, a range on the `ledger_tree_hash_start` index; scattered
   * ones (a proof's path) take each index's row, found by `max("hashStart")` per index.
   */
  private treeRowsFor(channelId: number, indexes: number[], db: Kysely<any>) {
    const lo = Math.min(...indexes);
    const hi = Math.max(...indexes);
    if (hi - lo < indexes.length * 4)
      return sql<{ hashStart: number; hashes: string }>`
        SELECT t."hashStart", t."hashes" FROM ledger_tree t
         WHERE t."channelId" = ${channelId} AND t."hashStart" <= ${hi}
           AND t."hashStart" >= (SELECT max(u."hashStart") FROM ledger_tree u
                                  WHERE u."channelId" = ${channelId} AND u."hashStart" <= ${lo})
         ORDER BY t."hashStart"`.execute(db);
    // A VALUES list's column is column1 in both PostgreSQL and SQLite.
    const values = sql.join(indexes.map((x) => sql`(CAST(${x} AS integer))`));
    return sql<{ hashStart: number; hashes: string }>`
      SELECT t."hashStart", t."hashes" FROM ledger_tree t
       WHERE t."channelId" = ${channelId}
         AND t."hashStart" IN (
           SELECT (SELECT max(u."hashStart") FROM ledger_tree u
                    WHERE u."channelId" = ${channelId} AND u."hashStart" <= x.column1)
             FROM (VALUES ${values}) AS x)
       ORDER BY t."hashStart"`.execute(db);
  }

  /**
   * `readHashes` on SQLite: one prepared statement per hash that answers only its 64 hex characters
   * (`substr` in SQLite, on the row the `ledger_tree_hash_start` index finds). Reading whole rows instead
   * (about 13 kB of hex per block of 100 entries, some 20 rows per proof) made a JavaScript string of
   * each, and the garbage collections they caused were the p99 of a proof on a log of 10^6 entries
   * (issue 19 item 10: p99 about 3 times the p50). @throws Error when an index is not stored
   */
  private readHashesSqlite(channelId: number, indexes: number[]): Hash[] {
    const stmt = this.statements().hashAt.pluck();
    const out = new Array<Hash>(indexes.length);
    for (let i = 0; i < indexes.length; i++) {
      const hex = stmt.get(indexes[i], channelId, indexes[i]) as string | null | undefined;
      if (typeof hex !== 'string' || hex.length !== HEX)
        throw new Error(`ledger tree of channel ${channelId}: stored hash ${indexes[i]} missing`);
      out[i] = hexHash(hex, 0);
    }
    return out;
  }

  /**
   * `readHashes` for the public proof and tile calls (`db` undefined: the store's own connection, not
   * in a transaction): the upper levels from the cache (hashCache.ts), the rest from the rows, then
   * cached. With a `db` given (the signer's checks, a block's transaction) every hash is read.
   */
  private async readCached(channelId: number, indexes: number[], db: Kysely<any> | undefined) {
    if (db || this.sqlite?.inTransaction) return this.readHashes(channelId, indexes, db);
    const out = new Array<Hash>(indexes.length);
    const missing: number[] = [];
    for (let i = 0; i < indexes.length; i++) {
      const h = this.upper.get(channelId, indexes[i]);
      if (h) out[i] = h;
      else missing.push(i);
    }
    if (missing.length === 0) return out;
    const read = await this.readHashes(
      channelId,
      missing.map((i) => indexes[i]),
    );
    // Read on the connection outside a transaction: committed rows, safe to keep (hashCache.ts).
    const keep = !this.sqlite?.inTransaction;
    for (let k = 0; k < missing.length; k++) {
      out[missing[k]] = read[k];
      if (keep) this.upper.put(channelId, indexes[missing[k]], read[k]);
    }
    return out;
  }

  /** A synchronous reader over hashes fetched beforehand (the tlog functions read synchronously). */
  private async prefetch(channelId: number, indexes: number[], db: Kysely<any> | undefined) {
    const hashes = await this.readCached(channelId, indexes, db);
    const map = new Map<number, Hash>();
    indexes.forEach((x, i) => map.set(x, hashes[i]));
    return (ix: number[]) =>
      ix.map((x) => {
        const h = map.get(x);
        if (!h) throw new Error(`stored hash ${x} not prefetched`);
        return h;
      });
  }

  /**
   * Appends a block's leaf hashes (hex, in order) to the channel's log inside `trx`, the block's database
   * transaction, and stores the block's row. Returns the log's size and root after the block. Reads the
   * right edge once per size it has not seen (then keeps it in memory, checked against the stored head),
   * and recomputes the old root from the edge's hashes, so `lastAppend` names a tree the new one extends
   * by construction. Hashing is node:crypto over one buffer of leaves, the block's new stored hashes are
   * written into one buffer and hex-encoded once (issue 19 item 10: about 2 hashes per entry).
   * @throws Error when a leaf is not 32-byte hex
   */
  async appendBlock(
    trx: Kysely<any>,
    channelId: number,
    blockNumber: number,
    leaves: string[],
  ): Promise<TreeHead> {
    const last = await this.lastRow(channelId, trx);
    const oldSize = last ? Number(last.size) : 0;
    let edge = this.edges.get(channelId);
    if (!edge || edge.size !== oldSize || (last && edge.rootHash !== last.rootHash)) {
      const ix = treeHashIndexes(oldSize);
      const hashes = await this.readHashes(channelId, ix, trx);
      const map = new Map(ix.map((x, i) => [x, hashes[i]]));
      // The old root from the hashes themselves (a stored root column could claim another tree).
      edge = {
        size: oldSize,
        rootHash: oldSize ? edgeRoot(oldSize, map) : '',
        hashes: map,
      };
    }
    const leafBytes = Buffer.from(leaves.join(''), 'hex');
    // Buffer.from stops at the first non-hex digit, so a bad leaf makes the buffer short.
    if (leafBytes.length !== leaves.length * HASH_SIZE || leaves.some((l) => l.length !== HEX))
      throw new Error(
        `ledger tree of channel ${channelId}: block ${blockNumber} has a leaf that is not 32-byte hex`,
      );
    const size = oldSize + leaves.length;
    const hashStart = storedHashCount(oldSize);
    const added = Buffer.allocUnsafe((storedHashCount(size) - hashStart) * HASH_SIZE);
    // Go tlog StoredHashesForRecordHash, per entry: the record hash, then each subtree it completes
    // (inner node of a left sibling, from the old edge or this block, and the hash just written).
    // Offsets into `added`, no view per hash: views and a map of them were the append's hot spot.
    let at = 0;
    for (let i = 0, n = oldSize; i < leaves.length; i++, n++) {
      leafBytes.copy(added, at, i * HASH_SIZE, (i + 1) * HASH_SIZE);
      at += HASH_SIZE;
      const left = storedHashesIndexes(n);
      for (let k = left.length - 1; k >= 0; k--, at += HASH_SIZE) {
        const x = left[k];
        if (x >= hashStart) innerInto(added, at, added, (x - hashStart) * HASH_SIZE);
        else innerInto(added, at, edge.hashes.get(x)!, 0);
      }
    }
    const work = new Map(edge.hashes);
    const ix = treeHashIndexes(size);
    for (const x of ix)
      if (x >= hashStart)
        work.set(x, added.subarray((x - hashStart) * HASH_SIZE, (x - hashStart + 1) * HASH_SIZE));
    const root = edgeRoot(size, work);
    const hex = added.toString('hex');
    if (this.sqlite) this.statements().insert.run(channelId, blockNumber, size, root, hashStart, hex);
    else
      await (trx as Kysely<LedgerTables>)
        .insertInto('ledger_tree')
        .values({ channelId, blockNumber, size, rootHash: root, hashStart, hashes: hex })
        .execute();
    // The new edge; kept only once the block commits (a rolled-back block leaves the stored head as it
    // was, which no longer matches this edge's size and root, so it is re-read).
    this.edges.set(channelId, { size, rootHash: root, hashes: new Map(ix.map((x) => [x, work.get(x)!])) });
    this.appended.set(channelId, {
      from: { size: oldSize, rootHash: edge.rootHash },
      to: { size, rootHash: root },
    });
    return { size, rootHash: root, blockNumber };
  }

  /**
   * The last append of this process to a channel's log: the tree it started from (root recomputed from
   * its stored hashes) and the tree it made from those hashes and the block's leaves, which therefore
   * extends the first (the signer's shortcut for "extends the last signed checkpoint", checkpoints.ts).
   */
  lastAppend(channelId: number): { from: TreeState; to: TreeState } | undefined {
    return this.appended.get(channelId);
  }

  /** The tree hash of the first `size` entries (hex). */
  async treeHashAt(channelId: number, size: number, db: Kysely<any> = this.db): Promise<string> {
    const ix = treeHashIndexes(size);
    const hashes = await this.readHashes(channelId, ix, db);
    return edgeRoot(size, new Map(ix.map((x, i) => [x, hashes[i]])));
  }

  /**
   * Inclusion proof of entry `index` in the tree of `size` entries (RFC 6962 audit path). Without `db`,
   * the upper levels come from the cache (`readCached`).
   */
  async inclusionProof(channelId: number, size: number, index: number, db?: Kysely<any>): Promise<Hash[]> {
    const r = await this.prefetch(channelId, recordProofIndexes(size, index), db);
    return proveRecord(size, index, r, nodeHash);
  }

  /**
   * Consistency proof from the tree of `from` entries to the tree of `to` entries (RFC 6962 2.1.2).
   * Without `db`, the upper levels come from the cache (`readCached`); the signer passes its `db`.
   */
  async consistencyProof(channelId: number, to: number, from: number, db?: Kysely<any>): Promise<Hash[]> {
    const r = await this.prefetch(channelId, treeProofIndexes(to, from), db);
    return proveTree(to, from, r, nodeHash);
  }

  /** A hash tile's bytes (C2SP tlog-tiles, height 8). The caller checks the tile exists at the log's size. */
  async tileData(channelId: number, tile: Tile): Promise<Uint8Array> {
    return readTileData(tile, await this.prefetch(channelId, tileIndexes(tile), undefined));
  }

  /**
   * The entries `start` .. `start + count − 1` (canonical JSON bytes of the transactions), in order.
   */
  async entries(channelId: number, channel: string, start: number, count: number): Promise<Uint8Array[]> {
    const out: Uint8Array[] = [];
    const enc = new TextEncoder();
    let at = start;
    while (out.length < count) {
      const blk = await this.blockForEntry(channelId, at);
      if (!blk) break;
      const txs = await this.blockTxs(channelId, blk.blockNumber);
      const first = blk.size - txs.length;
      for (let i = at - first; i < txs.length && out.length < count; i++) {
        const r = txs[i];
        out.push(enc.encode(txCanonicalJson(storedTx(r, channel))));
        at++;
      }
    }
    return out;
  }

  /** A C2SP entry bundle of `width` entries starting at `n × 256`. */
  async entryBundle(channelId: number, channel: string, n: number, width: number): Promise<Uint8Array> {
    const entries = await this.entries(channelId, channel, n * TILE_WIDTH, width);
    if (entries.length !== width)
      throw new Error(`entry bundle ${n}: ${entries.length} of ${width} entries found`);
    return encodeEntryBundle(entries);
  }

  /** The block holding entry `index` and the log size after it. */
  async blockForEntry(
    channelId: number,
    index: number,
  ): Promise<{ blockNumber: number; size: number } | undefined> {
    const row = this.sqlite
      ? (this.statements().blockFor.get(channelId, index) as
          { blockNumber: number; size: number } | undefined)
      : await this.ldb
          .selectFrom('ledger_tree')
          .select(['blockNumber', 'size'])
          .where('channelId', '=', channelId)
          .where('size', '>', index)
          .orderBy('size')
          .limit(1)
          .executeTakeFirst();
    return row && { blockNumber: Number(row.blockNumber), size: Number(row.size) };
  }

  private async blockTxs(channelId: number, blockNumber: number): Promise<LedgerTxColumns[]> {
    if (this.sqlite) return this.statements().txsOf.all(channelId, blockNumber) as LedgerTxColumns[];
    return this.ldb
      .selectFrom('ledger_tx')
      .select(['txId', 'chaincode', 'function', 'args', 'creator', 'timestamp', 'validationCode'])
      .where('channelId', '=', channelId)
      .where('blockNumber', '=', blockNumber)
      .orderBy('txIndex')
      .execute();
  }

  /** The entry index of a transaction: the log size before its block plus its index in the block. */
  async entryIndex(channelId: number, blockNumber: number, txIndex: number): Promise<number | undefined> {
    const row = await this.ldb
      .selectFrom('ledger_tree')
      .innerJoin('ledger_block', (j) =>
        j
          .onRef('ledger_block.channelId', '=', 'ledger_tree.channelId')
          .onRef('ledger_block.number', '=', 'ledger_tree.blockNumber'),
      )
      .select(['ledger_tree.size', 'ledger_block.txCount'])
      .where('ledger_tree.channelId', '=', channelId)
      .where('ledger_tree.blockNumber', '=', blockNumber)
      .executeTakeFirst();
    return row && Number(row.size) - Number(row.txCount) + txIndex;
  }
}

/** The stored-hash index of entry `n`'s record hash (level 0). */
export function entryHashIndex(n: number): number {
  return storedHashIndex(0, n);
}

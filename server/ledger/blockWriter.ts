/**
 * The embedded ledger's commit path (docs/ledger.md sections 4-5): the `ledger_pending` queue's rows
 * (insert, read oldest first, dequeue) and writing a block (header hashes per tx.ts, transactions, the
 * channel's Merkle log in tree.ts) with the commit hooks in one database transaction, so there is never
 * a half-written block. On SQLite the hot statements run as better-sqlite3 prepared statements on the
 * Kysely transaction's own connection (issue 9); other databases go through Kysely with multi-row
 * inserts. Holds no queue or timer state: the block cutter is in pipeline.ts.
 */
import type { Kysely } from 'kysely';
import type SQLite from 'better-sqlite3';
import { sqliteHandle } from '../db/connect';
import { lazyStatements } from '../db/sqliteStatements';
import type { BlockInfo, CommitHook, CommittedTx, Transaction } from '../../common/ledger/types';
import { merkleRootHex } from './merkle';
import type { ChannelState, FusedCut, PersistItem, Trx } from './pipelineTypes';
import type { LedgerTxColumns } from './tables';
import { TreeStore } from './tree';
import { blockHashHex, blockTimeText, storedTx, txLeafHex } from './tx';

const INSERT_CHUNK = 200;

/** SQL of the SQLite fast path's statements (run on the Kysely transaction's connection). */
const SQL = {
  insertPending:
    'INSERT INTO ledger_pending ("txId", "channelId", "chaincode", "function", "args", "creator", "timestamp", "validationCode") VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  selectPending:
    'SELECT "seq", "txId", "chaincode", "function", "args", "creator", "timestamp", "validationCode" FROM ledger_pending WHERE "channelId" = ? ORDER BY "seq" LIMIT ?',
  lastBlock:
    'SELECT "number", "blockHash" FROM ledger_block WHERE "channelId" = ? ORDER BY "number" DESC LIMIT 1',
  insertBlock:
    'INSERT INTO ledger_block ("channelId", "number", "previousHash", "dataHash", "blockHash", "txCount", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?)',
  insertTx:
    'INSERT INTO ledger_tx ("txId", "channelId", "blockNumber", "txIndex", "chaincode", "function", "args", "creator", "timestamp", "validationCode", "leafHash") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  deletePending: 'DELETE FROM ledger_pending WHERE "channelId" = ? AND "seq" <= ?',
} as const;

/** The prepared statements, by name (server/db/sqliteStatements.ts). */
type SqliteStatements = Record<keyof typeof SQL, SQLite.Statement>;

/** A queued transaction as read back from `ledger_pending`. */
interface PendingRow extends LedgerTxColumns {
  seq: number;
}

/** Writes queue rows and blocks inside a caller's database transaction (see the module docstring). */
export class BlockWriter {
  private readonly sqlite: SQLite.Database | undefined;
  private readonly statements: () => SqliteStatements;
  private readonly hooks: CommitHook[] = [];
  /** The channels' Merkle logs, appended in each block's transaction (tree.ts). */
  readonly tree: TreeStore;

  constructor(db: Kysely<any>) {
    this.sqlite = sqliteHandle(db);
    this.statements = lazyStatements(this.sqlite, SQL);
    this.tree = new TreeStore(db);
  }

  /** Adds a commit hook, run inside each block's database transaction after the block is written. */
  onCommit(hook: CommitHook): void {
    this.hooks.push(hook);
  }

  /**
   * Inside the group commit's database transaction: when channel `st`'s queue (stored rows, then
   * `group`) reaches the batch size, or the batch timeout is 0, writes its blocks; answers what was cut,
   * or undefined when the batch is not full yet.
   */
  async cutInGroup(
    trx: Trx,
    st: ChannelState,
    group: PersistItem[],
    batchSize: number,
    batchTimeoutMs: number,
  ): Promise<FusedCut | undefined> {
    const size = batchSize;
    const now = batchTimeoutMs === 0;
    if (!now && st.pending + group.length < size) return undefined;
    // The stored rows come first (st.pending may overcount them: after a flush it is at least 1).
    const stored = st.pending > 0 ? await this.readPending(trx, st.id, Number.MAX_SAFE_INTEGER) : [];
    const total = stored.length + group.length;
    const take = now ? total : total - (total % size);
    if (take === 0) return undefined;
    const queue: Transaction[] = stored.map((r) => this.rowTx(st, r));
    for (const it of group) queue.push(it.tx);
    let last = await this.lastBlock(trx, st.id);
    const createdAt = blockTimeText();
    const blocks: { block: BlockInfo; txs: CommittedTx[] }[] = [];
    for (let i = 0; i < take; i += size) {
      const number = last ? Number(last.number) + 1 : 0;
      const b = await this.writeBlock(
        trx,
        st.id,
        st.name,
        number,
        last?.blockHash ?? '',
        queue.slice(i, Math.min(take, i + size)),
        createdAt,
      );
      blocks.push(b);
      last = { number, blockHash: b.block.blockHash };
    }
    const storedTaken = Math.min(take, stored.length);
    if (storedTaken > 0) await this.deletePending(trx, st.id, stored[storedTaken - 1].seq);
    return { st, blocks, queued: group.slice(take - storedTaken), left: total - take };
  }

  /** Inserts transactions into `ledger_pending` inside `trx`. */
  async insertPending(trx: Trx, items: PersistItem[]): Promise<void> {
    if (items.length === 0) return;
    if (this.sqlite) {
      const ins = this.statements().insertPending;
      for (const { tx, st } of items)
        ins.run(
          tx.txId,
          st.id,
          tx.chaincode,
          tx.function,
          JSON.stringify(tx.args),
          tx.creator,
          tx.timestamp,
          tx.validationCode,
        );
      return;
    }
    for (let i = 0; i < items.length; i += INSERT_CHUNK)
      await trx
        .insertInto('ledger_pending')
        .values(
          items.slice(i, i + INSERT_CHUNK).map(({ tx, st }) => ({
            txId: tx.txId,
            channelId: st.id,
            chaincode: tx.chaincode,
            function: tx.function,
            args: JSON.stringify(tx.args),
            creator: tx.creator,
            timestamp: tx.timestamp,
            validationCode: tx.validationCode,
          })),
        )
        .execute();
  }

  /** The oldest `limit` pending rows of a channel, in submission order. */
  async readPending(trx: Trx, channelId: number, limit: number): Promise<PendingRow[]> {
    if (this.sqlite) return this.statements().selectPending.all(channelId, limit) as PendingRow[];
    return trx
      .selectFrom('ledger_pending')
      .select(['seq', 'txId', 'chaincode', 'function', 'args', 'creator', 'timestamp', 'validationCode'])
      .where('channelId', '=', channelId)
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  /** The channel's last block (number and hash), undefined before its genesis block. */
  async lastBlock(trx: Trx, channelId: number): Promise<{ number: number; blockHash: string } | undefined> {
    if (this.sqlite)
      return this.statements().lastBlock.get(channelId) as { number: number; blockHash: string } | undefined;
    return trx
      .selectFrom('ledger_block')
      .select(['number', 'blockHash'])
      .where('channelId', '=', channelId)
      .orderBy('number', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Removes a channel's pending rows up to `lastSeq` (they are in a block now). */
  async deletePending(trx: Trx, channelId: number, lastSeq: number): Promise<void> {
    if (this.sqlite) this.statements().deletePending.run(channelId, lastSeq);
    else
      await trx
        .deleteFrom('ledger_pending')
        .where('channelId', '=', channelId)
        .where('seq', '<=', lastSeq)
        .execute();
  }

  /** A stored pending row as the transaction it is. */
  rowTx(st: ChannelState, r: PendingRow): Transaction {
    return storedTx(r, st.name);
  }

  /** Inserts one block and its transactions, then runs the commit hooks, all inside `trx`. */
  async writeBlock(
    trx: Trx,
    channelId: number,
    channel: string,
    number: number,
    previousHash: string,
    txs: Transaction[],
    createdAt: string,
  ): Promise<{ block: BlockInfo; txs: CommittedTx[] }> {
    const leaves = txs.map(txLeafHex);
    const dataHash = merkleRootHex(leaves);
    const header = { number, previousHash, dataHash };
    const block: BlockInfo = {
      ...header,
      channelId,
      channel,
      blockHash: blockHashHex(header),
      txCount: txs.length,
      createdAt,
    };
    // Written field by field (an object spread per transaction cost more on this hot path).
    const committed: CommittedTx[] = new Array<CommittedTx>(txs.length);
    for (let i = 0; i < txs.length; i++) {
      const tx = txs[i];
      committed[i] = {
        txId: tx.txId,
        channel: tx.channel,
        chaincode: tx.chaincode,
        function: tx.function,
        args: tx.args,
        creator: tx.creator,
        timestamp: tx.timestamp,
        validationCode: tx.validationCode,
        channelId,
        blockNumber: number,
        txIndex: i,
        leafHash: leaves[i],
        blockTime: createdAt,
      };
    }
    if (this.sqlite) {
      const s = this.statements();
      s.insertBlock.run(channelId, number, previousHash, dataHash, block.blockHash, txs.length, createdAt);
      for (const t of committed)
        s.insertTx.run(
          t.txId,
          channelId,
          number,
          t.txIndex,
          t.chaincode,
          t.function,
          JSON.stringify(t.args),
          t.creator,
          t.timestamp,
          t.validationCode,
          t.leafHash,
        );
    } else {
      await trx
        .insertInto('ledger_block')
        .values({
          channelId,
          number,
          previousHash,
          dataHash,
          blockHash: block.blockHash,
          txCount: txs.length,
          createdAt,
        })
        .execute();
      for (let i = 0; i < committed.length; i += INSERT_CHUNK) {
        await trx
          .insertInto('ledger_tx')
          .values(
            committed.slice(i, i + INSERT_CHUNK).map((t) => ({
              txId: t.txId,
              channelId,
              blockNumber: number,
              txIndex: t.txIndex,
              chaincode: t.chaincode,
              function: t.function,
              args: JSON.stringify(t.args),
              creator: t.creator,
              timestamp: t.timestamp,
              validationCode: t.validationCode,
              leafHash: t.leafHash,
            })),
          )
          .execute();
      }
    }
    const head = await this.tree.appendBlock(trx, channelId, number, leaves);
    block.treeSize = head.size;
    block.treeRoot = head.rootHash;
    for (const hook of this.hooks) await hook(block, committed, trx);
    return { block, txs: committed };
  }
}

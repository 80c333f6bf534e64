/**
 * Shapes shared by the embedded ledger's write pipeline (pipeline.ts) and its parts (blockWriter.ts,
 * commitWaiters.ts): the pipeline's options, the block-committed hook, and the in-memory state of a
 * channel, a waiting caller and a group-commit submission (docs/ledger.md sections 4-5).
 */
import type { Kysely, Transaction as KyselyTrx } from 'kysely';
import type { BlockInfo, CommittedTx, Transaction } from '../../common/ledger/types';
import type { OrdererElection } from './orderer';
import type { LedgerTables } from './tables';

/** Options of the embedded ledger's write pipeline (batch rule per Fabric's orderer BatchSize/BatchTimeout). */
export interface EmbeddedLedgerOptions {
  /** Cut a block once this many transactions are pending (Fabric BatchSize.MaxMessageCount). 1..10,000. */
  batchSize: number;
  /** Cut a block this many ms after the first pending transaction of a batch arrived (Fabric BatchTimeout). */
  batchTimeoutMs: number;
  /** Where cutter failures are reported (they are retried). */
  logError?: (err: unknown, msg: string) => void;
  /**
   * Several processes on one PostgreSQL database: who cuts blocks (orderer.ts). Without it this
   * process is always the orderer (one server per database, the SQLite case).
   */
  election?: OrdererElection;
  /**
   * With an election: how often the orderer checks the pending queue and the others check the
   * transactions they wait for, ms (default 1,000); the notifications are the fast path.
   */
  followerPollMs?: number;
}

/**
 * Called once per block after its database transaction committed, in block order, by the process that
 * cut it, before the callers waiting for the block are answered. A failure is logged; the block stays.
 * (Checkpoints are signed inside the block's transaction instead: a commit hook, server/ledger/checkpoints.ts.)
 */
export type BlockCommittedHook = (block: BlockInfo) => Promise<void> | void;

export type Db = Kysely<LedgerTables>;
export type Trx = KyselyTrx<LedgerTables>;

/** What this process knows of a channel: its id and name, pending count, batch-timeout timer. */
export interface ChannelState {
  id: number;
  name: string;
  /** Pending transactions this process knows of. */
  pending: number;
  timer: NodeJS.Timeout | null;
  cutQueued: boolean;
}

/** A caller waiting for its transaction's commit. */
export interface Waiter {
  resolve: (tx: CommittedTx) => void;
  reject: (err: Error) => void;
}

/** A submission waiting for the group commit. */
export interface PersistItem {
  tx: Transaction;
  st: ChannelState;
  resolve: (tx: Transaction) => void;
  reject: (err: Error) => void;
  waiter?: Waiter;
}

/** Blocks a group commit cut for one channel, and what of the group it queued instead. */
export interface FusedCut {
  st: ChannelState;
  blocks: { block: BlockInfo; txs: CommittedTx[] }[];
  /** The group's transactions left for `ledger_pending`. */
  queued: PersistItem[];
  /** How many of the channel's transactions are pending after the commit. */
  left: number;
}

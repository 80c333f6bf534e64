/**
 * The embedded ledger: the default `Ledger` (common/ledger/types.ts), kept in the application's own
 * database through Kysely (SQLite by default, PostgreSQL-compatible SQL). It joins two halves over the
 * same database:
 * - the write pipeline (pipeline.ts): submit, group commit, block cutter, commit with hooks, flush, close;
 * - the explorer (explorer.ts): channels, blocks, transactions, proofs, totals, verification.
 */
import type { Kysely } from 'kysely';
import type {
  BlockInfo,
  BlockQuery,
  ChannelInfo,
  CommitHook,
  CommittedTx,
  Ledger,
  Page,
  SubmitWaitOptions,
  Transaction,
  TxBucket,
  TxProof,
  TxProposal,
  TxQuery,
  VerifyResult,
} from '../../common/ledger/types';
import type { Tile } from '../../common/ledger/tlog';
import { LedgerExplorer } from './explorer';
import { WritePipeline, type BlockCommittedHook, type EmbeddedLedgerOptions } from './pipeline';

export {
  CHANNEL_NAME_RE,
  checkProposal,
  type BlockCommittedHook,
  type EmbeddedLedgerOptions,
} from './pipeline';

/** The embedded implementation of `Ledger`. Create with `createEmbeddedLedger`, then `start()`. */
export class EmbeddedLedger implements Ledger {
  readonly writes: WritePipeline;
  readonly reads: LedgerExplorer;

  constructor(db: Kysely<any>, opts: EmbeddedLedgerOptions) {
    this.reads = new LedgerExplorer(db, (id) => this.writes.channelName(id));
    this.writes = new WritePipeline(db, opts, this.reads);
  }

  /** Loads the channels and cuts whatever was left pending by a previous run (crash recovery). */
  start(): Promise<void> {
    return this.writes.start();
  }

  // ---- writes (pipeline.ts) ----
  onCommit(hook: CommitHook): void {
    this.writes.onCommit(hook);
  }
  /** The one hook called after each block committed (pipeline.ts `BlockCommittedHook`). */
  onBlockCommitted(hook: BlockCommittedHook): void {
    this.writes.onBlockCommitted(hook);
  }
  /** True while this process cuts blocks (always without an orderer election). */
  isOrderer(): boolean {
    return this.writes.isOrderer();
  }
  ensureChannel(name: string): Promise<ChannelInfo> {
    return this.writes.ensureChannel(name);
  }
  submit(proposal: TxProposal): Promise<Transaction> {
    return this.writes.submit(proposal);
  }
  waitForCommit(txId: string, timeoutMs?: number): Promise<CommittedTx> {
    return this.writes.waitForCommit(txId, timeoutMs);
  }
  submitAndWait(proposal: TxProposal, opts?: SubmitWaitOptions): Promise<CommittedTx> {
    return this.writes.submitAndWait(proposal, opts);
  }
  flush(timeoutMs?: number): Promise<void> {
    return this.writes.flush(timeoutMs);
  }
  close(flushTimeoutMs?: number): Promise<void> {
    return this.writes.close(flushTimeoutMs);
  }

  // ---- reads (explorer.ts) ----
  channels(): Promise<ChannelInfo[]> {
    return this.reads.channels();
  }
  channel(idOrName: number | string): Promise<ChannelInfo | undefined> {
    return this.reads.channel(idOrName);
  }
  blocks(query: BlockQuery): Promise<Page<BlockInfo>> {
    return this.reads.blocks(query);
  }
  block(channelId: number, number: number): Promise<BlockInfo | undefined> {
    return this.reads.block(channelId, number);
  }
  blockByHash(hash: string): Promise<BlockInfo | undefined> {
    return this.reads.blockByHash(hash);
  }
  blockTransactions(channelId: number, number: number): Promise<CommittedTx[]> {
    return this.reads.blockTransactions(channelId, number);
  }
  transactions(query: TxQuery): Promise<Page<CommittedTx>> {
    return this.reads.transactions(query);
  }
  transaction(txId: string): Promise<CommittedTx | undefined> {
    return this.reads.transaction(txId);
  }
  isPending(txId: string): Promise<boolean> {
    return this.reads.isPending(txId);
  }
  proof(txId: string): Promise<TxProof | undefined> {
    return this.reads.proof(txId);
  }
  totals(): Promise<{ channels: number; blocks: number; transactions: number; pending: number }> {
    return this.reads.totals();
  }
  txPerMinute(minutes: number, now?: Date): Promise<TxBucket[]> {
    return this.reads.txPerMinute(minutes, now);
  }
  txPerHour(hours: number, now?: Date): Promise<TxBucket[]> {
    return this.reads.txPerHour(hours, now);
  }
  verify(channel?: string): Promise<VerifyResult> {
    return this.reads.verify(channel);
  }

  // ---- the Merkle log (tree.ts) ----
  treeHead(channelId: number) {
    return this.writes.tree.head(channelId);
  }
  entryIndex(channelId: number, blockNumber: number, txIndex: number) {
    return this.writes.tree.entryIndex(channelId, blockNumber, txIndex);
  }
  inclusionProof(channelId: number, size: number, index: number) {
    return this.writes.tree.inclusionProof(channelId, size, index);
  }
  consistencyProof(channelId: number, to: number, from: number) {
    return this.writes.tree.consistencyProof(channelId, to, from);
  }
  tile(channelId: number, tile: Tile) {
    return this.writes.tree.tileData(channelId, tile);
  }
  entryBundle(channelId: number, n: number, width: number) {
    const name = this.writes.channelName(channelId);
    if (name === undefined) throw new Error(`unknown channel ${channelId}`);
    return this.writes.tree.entryBundle(channelId, name, n, width);
  }
}

/** Creates the embedded ledger over an already-migrated database; call `start()` once hooks are registered. */
export function createEmbeddedLedger(db: Kysely<any>, opts: EmbeddedLedgerOptions): EmbeddedLedger {
  return new EmbeddedLedger(db, opts);
}

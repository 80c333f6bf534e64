/**
 * The embedded ledger's write pipeline (docs/ledger.md sections 4-5): transactions are queued durably in
 * `ledger_pending` (group commit: one database transaction per event-loop turn) and cut into blocks by
 * batch size and batch timeout like Fabric's orderer; each block is written in one database transaction
 * together with the commit hooks, so there is never a half-written block.
 *
 * One process cuts a given database's blocks at a time. On SQLite that is the server owning the file; on
 * PostgreSQL several servers may share the database, and the orderer is elected (orderer.ts): the others
 * store submissions in `ledger_pending` and answer once a notification (or their poll) shows the
 * transaction in a block. Block numbers come from the channel's stored height inside the cutting
 * transaction, which on PostgreSQL also locks the channel row, so they are contiguous even if two
 * processes ever cut at once.
 *
 * Speed (issue 9): on SQLite the hot statements (queue, read the queue, insert block and transactions,
 * dequeue) run as better-sqlite3 prepared statements (blockWriter.ts) on the Kysely transaction's own connection; other
 * databases go through Kysely with multi-row inserts. The same tables and hashes either way. As the only
 * orderer, the group commit cuts full batches in its own database transaction (`persist`), so a
 * transaction cut at once is written once, with one fsync per group instead of one per block plus one.
 *
 * Parts: proposal.ts (validation), blockWriter.ts (the commit path: queue rows, writing a block and its
 * commit hooks, the SQLite prepared statements), commitWaiters.ts (callers waiting for a commit),
 * pipelineTypes.ts (options and shared shapes). This module keeps the block cutter, the group commit,
 * channel creation and the orderer/follower roles.
 */
import { sql, type Kysely } from 'kysely';
import {
  LedgerError,
  type BlockInfo,
  type ChannelInfo,
  type CommitHook,
  type CommittedTx,
  type SubmitWaitOptions,
  type Transaction,
  type TxProposal,
} from '../../common/ledger/types';
import { BlockWriter } from './blockWriter';
import { CommitWaiters } from './commitWaiters';
import type { LedgerExplorer } from './explorer';
import { BLOCK_CHANNEL, PENDING_CHANNEL, type OrdererElection } from './orderer';
import type {
  BlockCommittedHook,
  ChannelState,
  Db,
  EmbeddedLedgerOptions,
  FusedCut,
  PersistItem,
  Waiter,
} from './pipelineTypes';
import { CHANNEL_NAME_RE, checkProposal } from './proposal';
import type { TreeStore } from './tree';
import { blockTimeText, newTxId, txTimestamp } from './tx';

export { CHANNEL_NAME_RE, checkProposal } from './proposal';
export type { BlockCommittedHook, EmbeddedLedgerOptions } from './pipelineTypes';

/** Transaction-level advisory lock taken while creating a channel on PostgreSQL (any constant bigint). */
const CHANNEL_LOCK_KEY = '27710537433297509';

/**
 * The write pipeline: channel creation, durable submission (group commit into `ledger_pending`), the
 * block cutter (batch size / batch timeout), writing a block with its commit hooks in one database
 * transaction, the block-committed hook, waiting for a commit, flush and close; with an election, the
 * orderer/follower roles. Reads go through `reads` (explorer.ts).
 */
export class WritePipeline {
  private readonly db: Db;
  private readonly reads: LedgerExplorer;
  private readonly opts: EmbeddedLedgerOptions;
  private readonly byName = new Map<string, ChannelState>();
  private readonly byId = new Map<number, ChannelState>();
  private readonly waiters: CommitWaiters;
  private readonly writer: BlockWriter;
  private blockCommitted: BlockCommittedHook = () => {};
  private readonly postgres: boolean;
  private readonly election: OrdererElection | undefined;
  /** The channels' Merkle logs, appended in each block's transaction (tree.ts). */
  readonly tree: TreeStore;
  /** Why a channel refuses new transactions (a fork of its signed history), by channel name. */
  private halt: (channel: string) => string | undefined = () => undefined;
  private followerTimer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  private persistQueue: PersistItem[] = [];
  private persistScheduled = false;
  private closed = false;
  private started = false;

  /**
   * @param reads the explorer over the same database (answers "already committed?" and channel info)
   * @throws Error for a batch size outside 1..10,000 or a batch timeout outside 0..60,000 ms
   */
  constructor(db: Kysely<any>, opts: EmbeddedLedgerOptions, reads: LedgerExplorer) {
    if (!Number.isInteger(opts.batchSize) || opts.batchSize < 1 || opts.batchSize > 10_000)
      throw new Error(`ledger batch size must be an integer 1..10000, got ${opts.batchSize}`);
    if (!Number.isInteger(opts.batchTimeoutMs) || opts.batchTimeoutMs < 0 || opts.batchTimeoutMs > 60_000)
      throw new Error(`ledger batch timeout must be an integer 0..60000 ms, got ${opts.batchTimeoutMs}`);
    this.db = db as Db;
    this.opts = opts;
    this.reads = reads;
    this.postgres = db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
    this.election = opts.election;
    this.writer = new BlockWriter(db);
    this.waiters = new CommitWaiters(db, reads);
    this.tree = this.writer.tree;
  }

  /**
   * Sets the predicate that refuses submissions to a channel: it answers the reason (the signer's alarm,
   * checkpoints.ts) or undefined. Submissions then fail with `LedgerError('halted')`.
   */
  setHalt(halt: (channel: string) => string | undefined): void {
    this.halt = halt;
  }

  /** The name of channel `id` as this process knows it (undefined before `start()` loaded it). */
  channelName(id: number): string | undefined {
    return this.byId.get(id)?.name;
  }

  /** True when this process cuts blocks (always, without an election). */
  isOrderer(): boolean {
    return !this.election || this.election.isOrderer();
  }

  /**
   * Sets the one block-committed hook (a no-op by default): called after each block's database
   * transaction committed, genesis blocks included, in block order, awaited before the next block is cut.
   */
  onBlockCommitted(hook: BlockCommittedHook): void {
    this.blockCommitted = hook;
  }

  /**
   * Loads the channels and, as the orderer, cuts whatever was left pending by a previous run (crash
   * recovery). With an election, joins it: the orderer's recovery runs whenever this process is elected.
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.loadChannels();
    if (!this.election) {
      await this.loadPendingCounts();
      await this.flush();
      return;
    }
    await this.election.start({
      elected: () => {
        this.chain = this.chain.then(() => this.takeOver());
      },
      deposed: () => {
        this.opts.logError?.(new Error('orderer lock lost'), 'ledger: no longer the orderer');
        for (const st of this.byId.values()) this.clearTimer(st);
      },
      block: (channelId, number) => void this.onForeignBlock(channelId, number),
      pending: (channelId, count) => void this.onForeignPending(channelId, count),
    });
    this.followerTimer = setInterval(() => void this.poll(), this.opts.followerPollMs ?? 1000);
    this.followerTimer.unref();
  }

  private async loadChannels(): Promise<void> {
    const rows = await this.db.selectFrom('ledger_channel').select(['id', 'name']).execute();
    for (const r of rows) if (!this.byId.has(r.id)) this.track(r.id, r.name);
  }

  /** The stored pending transactions per channel (`n`; from any process). */
  private pendingCounts() {
    return this.db
      .selectFrom('ledger_pending')
      .select(['channelId', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('channelId')
      .execute();
  }

  private async loadPendingCounts(): Promise<void> {
    for (const p of await this.pendingCounts()) {
      const st = this.byId.get(p.channelId);
      if (st) st.pending = Number(p.n);
    }
  }

  /** Just elected: learn the channels and what is pending (stored by any process), and cut it. */
  private async takeOver(): Promise<void> {
    try {
      await this.loadChannels();
      await this.loadPendingCounts();
      for (const st of this.byId.values()) if (st.pending > 0) this.requestCut(st);
    } catch (err) {
      this.opts.logError?.(err, 'ledger: taking over as orderer failed; retrying in 1 s');
      setTimeout(() => {
        if (!this.closed && this.isOrderer()) this.chain = this.chain.then(() => this.takeOver());
      }, 1000).unref();
    }
  }

  /** Another process queued `count` transactions: as the orderer, count them towards the batch. */
  private async onForeignPending(channelId: number, count: number): Promise<void> {
    if (this.closed || !this.isOrderer()) return;
    let st = this.byId.get(channelId);
    if (!st) {
      await this.loadChannels().catch(() => undefined);
      st = this.byId.get(channelId);
      if (!st) return;
    }
    st.pending += count;
    this.counted(st);
  }

  /** Another process committed a block: answer this process's waiters on its transactions. */
  private async onForeignBlock(channelId: number, number: number): Promise<void> {
    if (this.waiters.size === 0) return;
    try {
      this.waiters.settle(await this.reads.blockTransactions(channelId, number));
    } catch (err) {
      this.opts.logError?.(err, `ledger: reading block ${number} after its notification failed`);
    }
  }

  /**
   * Fallback of the notifications, every second: the orderer cuts rows it did not count (stored by
   * another process while the role was changing hands, or a notification lost with a connection);
   * a follower looks up every transaction it waits for.
   */
  private async poll(): Promise<void> {
    if (this.closed) return;
    if (this.isOrderer()) {
      try {
        for (const r of await this.pendingCounts()) {
          const st = this.byId.get(r.channelId) ?? (await this.loadChannels(), this.byId.get(r.channelId));
          if (st && !st.cutQueued && !st.timer) {
            st.pending = Math.max(st.pending, Number(r.n));
            this.requestCut(st);
          }
        }
      } catch (err) {
        this.opts.logError?.(err, 'ledger: polling the pending queue failed');
      }
      return;
    }
    try {
      await this.waiters.pollCommitted();
    } catch (err) {
      this.opts.logError?.(err, 'ledger: polling for committed transactions failed');
    }
  }

  private track(id: number, name: string): ChannelState {
    const st: ChannelState = { id, name, pending: 0, timer: null, cutQueued: false };
    this.byName.set(name, st);
    this.byId.set(id, st);
    return st;
  }

  /** Adds a commit hook, run inside each block's database transaction (blockWriter.ts). */
  onCommit(hook: CommitHook): void {
    this.writer.onCommit(hook);
  }

  async ensureChannel(name: string): Promise<ChannelInfo> {
    if (!CHANNEL_NAME_RE.test(name))
      throw new LedgerError('bad-proposal', `channel name must match ${CHANNEL_NAME_RE}`);
    if (!this.byName.has(name)) {
      let genesis: BlockInfo | undefined;
      await this.db.transaction().execute(async (trx) => {
        // Several processes starting together on PostgreSQL: one creates the channel, the others find it.
        if (this.postgres) await sql`SELECT pg_advisory_xact_lock(${CHANNEL_LOCK_KEY}::bigint)`.execute(trx);
        const existing = await trx
          .selectFrom('ledger_channel')
          .select(['id'])
          .where('name', '=', name)
          .executeTakeFirst();
        if (existing) {
          if (!this.byId.has(existing.id)) this.track(existing.id, name);
          return;
        }
        const now = new Date();
        const created = await trx
          .insertInto('ledger_channel')
          .values({ name, createdAt: blockTimeText(now) })
          .returning('id')
          .executeTakeFirstOrThrow();
        const tx: Transaction = {
          txId: newTxId('system'),
          channel: name,
          chaincode: 'cscc',
          function: 'CreateChannel',
          args: [name],
          creator: 'system',
          timestamp: txTimestamp(now),
          validationCode: 0,
        };
        genesis = (await this.writer.writeBlock(trx, created.id, name, 0, '', [tx], blockTimeText(now)))
          .block;
        this.track(created.id, name);
      });
      if (genesis) await this.runBlockCommitted(genesis);
    }
    return (await this.reads.channel(name))!;
  }

  submit(proposal: TxProposal): Promise<Transaction> {
    return this.enqueue(proposal);
  }

  /** The channel's state; a channel another process created is looked up in the database. */
  private async channelState(name: string): Promise<ChannelState | undefined> {
    const st = this.byName.get(name);
    if (st || !this.election || !CHANNEL_NAME_RE.test(name)) return st;
    await this.loadChannels();
    return this.byName.get(name);
  }

  /** Validates, then queues for the group commit; `waiter` is registered before the tx can be cut. */
  private async enqueue(proposal: TxProposal, waiter?: Waiter): Promise<Transaction> {
    if (this.closed) throw new LedgerError('closed', 'the ledger is closed');
    checkProposal(proposal);
    // A halted channel refuses first: one whose genesis was refused (an alarm) does not exist yet.
    const halted = this.halt(proposal.channel);
    if (halted) throw new LedgerError('halted', halted);
    const st = this.byName.get(proposal.channel) ?? (await this.channelState(proposal.channel));
    if (!st) throw new LedgerError('unknown-channel', `unknown channel "${proposal.channel}"`);
    const tx: Transaction = {
      txId: newTxId(proposal.creator),
      channel: st.name,
      chaincode: proposal.chaincode,
      function: proposal.function,
      args: [...proposal.args],
      creator: proposal.creator,
      timestamp: txTimestamp(),
      validationCode: 0,
    };
    return new Promise<Transaction>((resolve, reject) => {
      this.persistQueue.push({ tx, st, resolve, reject, waiter });
      if (!this.persistScheduled) {
        this.persistScheduled = true;
        // The sole orderer's group commit may cut blocks: it runs in turn with the cutter (block order).
        if (this.election) setImmediate(() => void this.persist());
        else
          setImmediate(
            () =>
              (this.chain = this.chain
                .then(() => this.persist())
                .catch((err: unknown) => this.opts.logError?.(err, 'ledger: the group commit failed'))),
          );
      }
    });
  }

  /**
   * Group commit: every proposal submitted during one event-loop turn is stored in one database
   * transaction (one fsync), then all of them are acknowledged together.
   *
   * Without an election (this process is the only orderer, the SQLite case) the same database
   * transaction also cuts the blocks the batch rule asks for: when a channel's pending transactions
   * (those already queued, oldest first, then this group's) reach the batch size, full blocks are written
   * from them at once, or all of them with a batch timeout of 0; only the rest goes into
   * `ledger_pending`. Each transaction is durable before it is acknowledged either way (in a block or in
   * the queue), and a block is still all-or-nothing with its commit hooks; what is saved is the second
   * fsync and the queue's insert, read and delete of every transaction cut at once (issue 9 item 6).
   */
  private async persist(): Promise<void> {
    this.persistScheduled = false;
    const items = this.persistQueue.splice(0);
    if (items.length === 0) return;
    // Per channel, in submission order.
    const groups = new Map<ChannelState, PersistItem[]>();
    for (const it of items) {
      const g = groups.get(it.st);
      if (g) g.push(it);
      else groups.set(it.st, [it]);
    }
    let cuts: FusedCut[] = [];
    const store = (fuse: boolean) =>
      this.db.transaction().execute(async (trx) => {
        cuts = [];
        const toQueue: PersistItem[] = [];
        for (const [st, group] of groups) {
          const cut = fuse
            ? await this.writer.cutInGroup(trx, st, group, this.opts.batchSize, this.opts.batchTimeoutMs)
            : undefined;
          if (cut) {
            cuts.push(cut);
            toQueue.push(...cut.queued);
          } else toQueue.push(...group);
        }
        await this.writer.insertPending(trx, toQueue);
        if (this.election) {
          // Tell the orderer (delivered at commit): per channel, how many were queued.
          const counts = new Map<number, number>();
          for (const { st } of items) counts.set(st.id, (counts.get(st.id) ?? 0) + 1);
          for (const [channelId, n] of counts)
            await sql`SELECT pg_notify(${PENDING_CHANNEL}, ${`${this.election.instance}:${channelId}:${n}`})`.execute(
              trx,
            );
        }
      });
    try {
      const fuse = !this.election && !this.closed;
      try {
        await store(fuse);
      } catch (err) {
        if (!fuse) throw err;
        // The signer refuses the channel's history (a fork): nothing is cut or queued, the callers hear why.
        if (err instanceof LedgerError && err.code === 'halted') throw err;
        // Cutting failed (a commit hook, e.g. the signer): store the group in the queue only, as without
        // fusing, so the submissions are acknowledged and the cutter retries the blocks.
        this.opts.logError?.(err, 'ledger: cutting blocks in the group commit failed; queued instead');
        await store(false);
      }
    } catch (err) {
      for (const it of items) it.reject(err as Error);
      return;
    }
    const orderer = this.isOrderer();
    for (const { tx, waiter } of items) if (waiter) this.waiters.add(tx.txId, waiter);
    const cutBy = new Map(cuts.map((c) => [c.st, c]));
    for (const [st, group] of groups) {
      const cut = cutBy.get(st);
      if (cut) {
        // What is left of the channel's queue starts a new batch (and its timeout).
        this.clearTimer(st);
        st.pending = cut.left;
        if (st.pending > 0) this.counted(st);
      } else if (orderer) {
        st.pending += group.length;
        this.counted(st);
      }
    }
    for (const { tx, resolve } of items) resolve(tx);
    for (const cut of cuts)
      for (const b of cut.blocks) {
        await this.runBlockCommitted(b.block);
        this.waiters.settle(b.txs);
      }
  }

  /** After `st.pending` grew: cut at the batch size, otherwise make sure the batch timeout runs. */
  private counted(st: ChannelState): void {
    if (st.pending >= this.opts.batchSize) this.requestCut(st);
    else if (!st.timer && !st.cutQueued)
      st.timer = setTimeout(() => this.onTimeout(st), this.opts.batchTimeoutMs);
  }

  /**
   * Waits until transaction `txId` is committed (it may be already).
   * @throws LedgerError `timeout` after `timeoutMs`
   */
  async waitForCommit(txId: string, timeoutMs = 30_000): Promise<CommittedTx> {
    return this.waiters.wait(txId, timeoutMs);
  }

  /** Submits, then waits for the commit (commitWaiters.ts); the waiter is registered before the tx can be cut. */
  async submitAndWait(proposal: TxProposal, opts: SubmitWaitOptions = {}): Promise<CommittedTx> {
    return this.waiters.submitAndWait((waiter) => this.enqueue(proposal, waiter), opts, this.opts.logError);
  }

  private onTimeout(st: ChannelState): void {
    st.timer = null;
    this.requestCut(st);
  }

  private clearTimer(st: ChannelState): void {
    if (st.timer) {
      clearTimeout(st.timer);
      st.timer = null;
    }
  }

  private requestCut(st: ChannelState): void {
    this.clearTimer(st);
    if (st.cutQueued || !this.isOrderer()) return;
    st.cutQueued = true;
    this.chain = this.chain.then(() => this.cutLoop(st));
  }

  private async cutLoop(st: ChannelState): Promise<void> {
    st.cutQueued = false;
    try {
      for (;;) {
        if (!this.isOrderer()) return;
        const n = await this.cutOnce(st);
        st.pending = Math.max(0, st.pending - n);
        if (n === 0) {
          st.pending = 0;
          break;
        }
        if (st.pending < this.opts.batchSize) break;
      }
      if (st.pending > 0 && !st.timer && !this.closed)
        st.timer = setTimeout(() => this.onTimeout(st), this.opts.batchTimeoutMs);
    } catch (err) {
      if (err instanceof LedgerError && err.code === 'halted') this.waiters.rejectAll(err);
      this.opts.logError?.(err, `ledger: cutting a block of channel ${st.name} failed; retrying in 1 s`);
      if (!this.closed && !st.timer) st.timer = setTimeout(() => this.onTimeout(st), 1000);
    }
  }

  /** Cuts one block of up to batchSize pending transactions; answers how many it took. */
  private async cutOnce(st: ChannelState): Promise<number> {
    let committed: { block: BlockInfo; txs: CommittedTx[] } | null = null;
    await this.db.transaction().execute(async (trx) => {
      // Serialises cutters of this channel on PostgreSQL (a deposed orderer still finishing a block):
      // the second one then reads the first one's block and dequeued rows.
      if (this.postgres)
        await trx.selectFrom('ledger_channel').select('id').where('id', '=', st.id).forUpdate().execute();
      const rows = await this.writer.readPending(trx, st.id, this.opts.batchSize);
      if (rows.length === 0) return;
      const last = await this.writer.lastBlock(trx, st.id);
      const number = last ? Number(last.number) + 1 : 0;
      committed = await this.writer.writeBlock(
        trx,
        st.id,
        st.name,
        number,
        last?.blockHash ?? '',
        rows.map((r) => this.writer.rowTx(st, r)),
        blockTimeText(),
      );
      await this.writer.deletePending(trx, st.id, rows[rows.length - 1].seq);
      if (this.election)
        await sql`SELECT pg_notify(${BLOCK_CHANNEL}, ${`${this.election.instance}:${st.id}:${number}`})`.execute(
          trx,
        );
    });
    if (!committed) return 0;
    const { block, txs } = committed as { block: BlockInfo; txs: CommittedTx[] };
    // The hook first: a caller answered for this block finds its checkpoint already signed.
    await this.runBlockCommitted(block);
    this.waiters.settle(txs);
    return txs.length;
  }

  private async runBlockCommitted(block: BlockInfo): Promise<void> {
    try {
      await this.blockCommitted(block);
    } catch (err) {
      this.opts.logError?.(err, `ledger: the block-committed hook failed for block ${block.number}`);
    }
  }

  /**
   * Cuts every pending transaction into blocks now. A process that is not the orderer cannot cut: it
   * waits until the orderer has emptied the queue (or the timeout).
   */
  async flush(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    // Let the group commit store what was submitted before this call.
    while (this.persistQueue.length || this.persistScheduled) await new Promise((r) => setImmediate(r));
    if (this.isOrderer())
      for (const st of this.byId.values()) {
        // Cut even when this process counted nothing: another run may have left pending rows.
        st.pending = Math.max(st.pending, 1);
        this.requestCut(st);
      }
    // Each cutLoop cuts until fewer than batchSize remain; loop until the queue is empty.
    for (;;) {
      await this.chain;
      const rows = await this.db
        .selectFrom('ledger_pending')
        .select(['channelId', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('channelId')
        .execute();
      const left = { n: rows.reduce((n, r) => n + Number(r.n), 0) };
      if (left.n === 0) return;
      // A halted channel cuts nothing until an operator resolves its alarm: waiting would not help.
      const halted = (id: number) => {
        const name = this.byId.get(Number(id))?.name;
        return name !== undefined && this.halt(name) !== undefined;
      };
      if (rows.every((r) => halted(r.channelId)))
        throw new LedgerError('halted', `${left.n} transactions pending on a halted channel`);
      if (Date.now() > deadline)
        throw new LedgerError('timeout', `${left.n} transactions still pending after ${timeoutMs} ms`);
      if (this.isOrderer()) for (const st of this.byId.values()) this.requestCut(st);
      else await new Promise((r) => setTimeout(r, 50));
    }
  }

  async close(flushTimeoutMs = 30_000): Promise<void> {
    if (this.closed) return;
    try {
      // A follower leaves its stored transactions to the orderer: only the group commit is drained.
      if (this.isOrderer()) await this.flush(flushTimeoutMs);
      else
        while (this.persistQueue.length || this.persistScheduled) await new Promise((r) => setImmediate(r));
    } catch (err) {
      // Still pending rows are durable (ledger_pending) and are cut at the next start.
      this.opts.logError?.(err, 'ledger: closing with transactions still pending');
    }
    this.closed = true;
    if (this.followerTimer) clearInterval(this.followerTimer);
    for (const st of this.byId.values()) this.clearTimer(st);
    await this.chain;
    await this.election?.close();
    this.waiters.closeAll();
  }
}

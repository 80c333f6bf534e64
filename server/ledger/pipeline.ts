/**
 * The embedded ledger's write pipeline (docs/ledger.md sections 4-5): transactions are queued durably in
 * `ledger_pending` (group commit: one database transaction per event-loop turn) and cut into blocks by
 * batch size and batch timeout like Fabric's orderer; each block is written in one database transaction
 * together with the commit hooks, so there is never a half-written block.
 *
 * One process writes a given database's ledger at a time (the server). Block numbers come from the
 * channel's stored height inside the cutting transaction, so they are contiguous.
 */
import type { Kysely, Transaction as KyselyTrx } from 'kysely';
import { toHex } from '../../common/ledger/hex';
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
import type { LedgerExplorer } from './explorer';
import { merkleRoot } from './merkle';
import type { LedgerTables } from './tables';
import { blockHashHex, blockTimeText, newTxId, txLeafHash, txTimestamp } from './tx';

export interface EmbeddedLedgerOptions {
  /** Cut a block once this many transactions are pending (Fabric BatchSize.MaxMessageCount). 1..10,000. */
  batchSize: number;
  /** Cut a block this many ms after the first pending transaction of a batch arrived (Fabric BatchTimeout). */
  batchTimeoutMs: number;
  /**
   * Called once per committed block, after its database transaction (server/ledger/checkpoints.ts signs
   * the channel's checkpoint there). Must not throw.
   */
  onBlockCommitted?: (block: BlockInfo) => Promise<void>;
  /** Where cutter failures are reported (they are retried). */
  logError?: (err: unknown, msg: string) => void;
}

/** Limits on a proposal, so a transaction row stays small. */
const MAX_ARGS = 32;
const MAX_ARG_LENGTH = 4096;
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
/** Channel names: Fabric's rule, shortened (docs/ledger.md section 1). */
export const CHANNEL_NAME_RE = /^[a-z][a-z0-9.-]{0,48}$/;
const INSERT_CHUNK = 200;

type Db = Kysely<LedgerTables>;
type Trx = KyselyTrx<LedgerTables>;

interface ChannelState {
  id: number;
  name: string;
  /** Pending transactions this process knows of. */
  pending: number;
  timer: NodeJS.Timeout | null;
  cutQueued: boolean;
}

interface Waiter {
  resolve: (tx: CommittedTx) => void;
  reject: (err: Error) => void;
}

/** Validates a proposal. @throws LedgerError `bad-proposal` naming the field. */
export function checkProposal(p: TxProposal): void {
  const bad = (m: string) => {
    throw new LedgerError('bad-proposal', m);
  };
  if (typeof p.chaincode !== 'string' || !NAME_RE.test(p.chaincode)) bad(`chaincode must match ${NAME_RE}`);
  if (typeof p.function !== 'string' || !NAME_RE.test(p.function)) bad(`function must match ${NAME_RE}`);
  if (typeof p.creator !== 'string' || p.creator.length === 0 || p.creator.length > 128)
    bad('creator must be 1..128 characters');
  if (!Array.isArray(p.args) || p.args.length > MAX_ARGS)
    bad(`args must be an array of at most ${MAX_ARGS} strings`);
  for (const [i, a] of p.args.entries())
    if (typeof a !== 'string' || a.length > MAX_ARG_LENGTH)
      bad(`args[${i}] must be a string of at most ${MAX_ARG_LENGTH} characters`);
}

/**
 * The write pipeline: channel creation, durable submission (group commit into `ledger_pending`), the
 * block cutter (batch size / batch timeout), writing a block with its commit hooks in one database
 * transaction, waiting for a commit, flush and close. Reads go through `reads` (explorer.ts).
 */
export class WritePipeline {
  private readonly db: Db;
  private readonly reads: LedgerExplorer;
  private readonly opts: EmbeddedLedgerOptions;
  private readonly byName = new Map<string, ChannelState>();
  private readonly byId = new Map<number, ChannelState>();
  private readonly waiters = new Map<string, Waiter[]>();
  private readonly hooks: CommitHook[] = [];
  private chain: Promise<void> = Promise.resolve();
  private persistQueue: {
    tx: Transaction;
    st: ChannelState;
    resolve: (tx: Transaction) => void;
    reject: (err: Error) => void;
    waiter?: Waiter;
  }[] = [];
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
  }

  /** The name of channel `id` as this process knows it (undefined before `start()` loaded it). */
  channelName(id: number): string | undefined {
    return this.byId.get(id)?.name;
  }

  /** Loads the channels and cuts whatever was left pending by a previous run (crash recovery). */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const rows = await this.db.selectFrom('ledger_channel').select(['id', 'name']).execute();
    for (const r of rows) this.track(r.id, r.name);
    const pending = await this.db
      .selectFrom('ledger_pending')
      .select(['channelId', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('channelId')
      .execute();
    for (const p of pending) {
      const st = this.byId.get(p.channelId);
      if (st) st.pending = Number(p.n);
    }
    await this.flush();
  }

  private track(id: number, name: string): ChannelState {
    const st: ChannelState = { id, name, pending: 0, timer: null, cutQueued: false };
    this.byName.set(name, st);
    this.byId.set(id, st);
    return st;
  }

  onCommit(hook: CommitHook): void {
    this.hooks.push(hook);
  }

  async ensureChannel(name: string): Promise<ChannelInfo> {
    if (!CHANNEL_NAME_RE.test(name))
      throw new LedgerError('bad-proposal', `channel name must match ${CHANNEL_NAME_RE}`);
    if (!this.byName.has(name)) {
      await this.db.transaction().execute(async (trx) => {
        const existing = await trx
          .selectFrom('ledger_channel')
          .select(['id'])
          .where('name', '=', name)
          .executeTakeFirst();
        if (existing) {
          this.track(existing.id, name);
          return;
        }
        const now = new Date();
        const created = await trx
          .insertInto('ledger_channel')
          .values({ name, createdAt: blockTimeText(now) })
          .returning('id')
          .executeTakeFirstOrThrow();
        const genesis: Transaction = {
          txId: newTxId('system'),
          channel: name,
          chaincode: 'cscc',
          function: 'CreateChannel',
          args: [name],
          creator: 'system',
          timestamp: txTimestamp(now),
          validationCode: 0,
        };
        await this.writeBlock(trx, created.id, name, 0, '', [genesis], blockTimeText(now));
        this.track(created.id, name);
      });
    }
    return (await this.reads.channel(name))!;
  }

  submit(proposal: TxProposal): Promise<Transaction> {
    return this.enqueue(proposal);
  }

  /** Validates, then queues for the group commit; `waiter` is registered before the tx can be cut. */
  private async enqueue(proposal: TxProposal, waiter?: Waiter): Promise<Transaction> {
    if (this.closed) throw new LedgerError('closed', 'the ledger is closed');
    checkProposal(proposal);
    const st = this.byName.get(proposal.channel);
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
        setImmediate(() => void this.persist());
      }
    });
  }

  /**
   * Group commit: every proposal submitted during one event-loop turn is inserted into the pending queue
   * in one database transaction (one fsync), then all of them are acknowledged together.
   */
  private async persist(): Promise<void> {
    this.persistScheduled = false;
    const items = this.persistQueue.splice(0);
    if (items.length === 0) return;
    try {
      await this.db.transaction().execute(async (trx) => {
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
      });
    } catch (err) {
      for (const it of items) it.reject(err as Error);
      return;
    }
    for (const { tx, st, resolve, waiter } of items) {
      if (waiter) this.waiters.set(tx.txId, [...(this.waiters.get(tx.txId) ?? []), waiter]);
      st.pending++;
      if (st.pending >= this.opts.batchSize) this.requestCut(st);
      else if (!st.timer && !st.cutQueued)
        st.timer = setTimeout(() => this.onTimeout(st), this.opts.batchTimeoutMs);
      resolve(tx);
    }
  }

  async waitForCommit(txId: string, timeoutMs = 30_000): Promise<CommittedTx> {
    return new Promise<CommittedTx>((resolve, reject) => {
      let done = false;
      const timer = setTimeout(
        () =>
          finish(
            undefined,
            new LedgerError('timeout', `transaction ${txId} not committed within ${timeoutMs} ms`),
          ),
        timeoutMs,
      );
      const finish = (tx?: CommittedTx, err?: Error) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        const list = this.waiters.get(txId);
        if (list) {
          const rest = list.filter((w) => w !== waiter);
          if (rest.length) this.waiters.set(txId, rest);
          else this.waiters.delete(txId);
        }
        if (err) reject(err);
        else resolve(tx!);
      };
      const waiter: Waiter = { resolve: (tx) => finish(tx), reject: (err) => finish(undefined, err) };
      this.waiters.set(txId, [...(this.waiters.get(txId) ?? []), waiter]);
      // Already committed (before the waiter was registered)?
      this.reads.transaction(txId).then(
        (tx) => tx && finish(tx),
        (err) => finish(undefined, err as Error),
      );
    });
  }

  async submitAndWait(proposal: TxProposal, opts: SubmitWaitOptions = {}): Promise<CommittedTx> {
    const timeoutMs = opts.timeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    let txId: string | undefined;
    const committed = new Promise<CommittedTx>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (tx) => {
          clearTimeout(timer);
          resolve(tx);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      timer = setTimeout(() => {
        if (txId) {
          const rest = (this.waiters.get(txId) ?? []).filter((w) => w !== waiter);
          if (rest.length) this.waiters.set(txId, rest);
          else this.waiters.delete(txId);
        }
        reject(
          new LedgerError(
            'timeout',
            `transaction ${txId ?? '(not yet stored)'} not committed within ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      this.enqueue(proposal, waiter).then(
        (tx) => {
          txId = tx.txId;
          opts
            .onStored?.(tx)
            .catch((err: unknown) => this.opts.logError?.(err, `ledger: onStored of ${tx.txId} failed`));
        },
        (err) => waiter.reject(err as Error),
      );
    });
    return committed;
  }

  private onTimeout(st: ChannelState): void {
    st.timer = null;
    this.requestCut(st);
  }

  private requestCut(st: ChannelState): void {
    if (st.timer) {
      clearTimeout(st.timer);
      st.timer = null;
    }
    if (st.cutQueued) return;
    st.cutQueued = true;
    this.chain = this.chain.then(() => this.cutLoop(st));
  }

  private async cutLoop(st: ChannelState): Promise<void> {
    st.cutQueued = false;
    try {
      for (;;) {
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
      this.opts.logError?.(err, `ledger: cutting a block of channel ${st.name} failed; retrying in 1 s`);
      if (!this.closed && !st.timer) st.timer = setTimeout(() => this.onTimeout(st), 1000);
    }
  }

  /** Cuts one block of up to batchSize pending transactions; answers how many it took. */
  private async cutOnce(st: ChannelState): Promise<number> {
    let committed: { block: BlockInfo; txs: CommittedTx[] } | null = null;
    await this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('ledger_pending')
        .selectAll()
        .where('channelId', '=', st.id)
        .orderBy('seq')
        .limit(this.opts.batchSize)
        .execute();
      if (rows.length === 0) return;
      const last = await trx
        .selectFrom('ledger_block')
        .select(['number', 'blockHash'])
        .where('channelId', '=', st.id)
        .orderBy('number', 'desc')
        .limit(1)
        .executeTakeFirst();
      const txs: Transaction[] = rows.map((r) => ({
        txId: r.txId,
        channel: st.name,
        chaincode: r.chaincode,
        function: r.function,
        args: JSON.parse(r.args) as string[],
        creator: r.creator,
        timestamp: r.timestamp,
        validationCode: r.validationCode,
      }));
      const number = last ? last.number + 1 : 0;
      committed = await this.writeBlock(
        trx,
        st.id,
        st.name,
        number,
        last?.blockHash ?? '',
        txs,
        blockTimeText(),
      );
      await trx
        .deleteFrom('ledger_pending')
        .where('channelId', '=', st.id)
        .where('seq', '<=', rows[rows.length - 1].seq)
        .execute();
    });
    if (!committed) return 0;
    const { block, txs } = committed as { block: BlockInfo; txs: CommittedTx[] };
    if (this.opts.onBlockCommitted) await this.opts.onBlockCommitted(block);
    for (const tx of txs) {
      const list = this.waiters.get(tx.txId);
      if (!list) continue;
      this.waiters.delete(tx.txId);
      for (const w of list) w.resolve(tx);
    }
    return txs.length;
  }

  /** Inserts one block and its transactions, then runs the commit hooks, all inside `trx`. */
  private async writeBlock(
    trx: Trx,
    channelId: number,
    channel: string,
    number: number,
    previousHash: string,
    txs: Transaction[],
    createdAt: string,
  ): Promise<{ block: BlockInfo; txs: CommittedTx[] }> {
    const leaves = txs.map(txLeafHash);
    const dataHash = toHex(merkleRoot(leaves));
    const header = { number, previousHash, dataHash };
    const block: BlockInfo = {
      ...header,
      channelId,
      channel,
      blockHash: blockHashHex(header),
      txCount: txs.length,
      createdAt,
    };
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
    const committed: CommittedTx[] = txs.map((tx, i) => ({
      ...tx,
      channelId,
      blockNumber: number,
      txIndex: i,
      leafHash: toHex(leaves[i]),
      blockTime: createdAt,
    }));
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
    for (const hook of this.hooks) await hook(block, committed, trx);
    return { block, txs: committed };
  }

  async flush(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    // Let the group commit store what was submitted before this call.
    while (this.persistQueue.length || this.persistScheduled) await new Promise((r) => setImmediate(r));
    for (const st of this.byId.values()) {
      // Cut even when this process counted nothing: another run may have left pending rows.
      st.pending = Math.max(st.pending, 1);
      this.requestCut(st);
    }
    // Each cutLoop cuts until fewer than batchSize remain; loop until the queue is empty.
    for (;;) {
      await this.chain;
      const left = await this.db
        .selectFrom('ledger_pending')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      if (Number(left.n) === 0) return;
      if (Date.now() > deadline)
        throw new LedgerError('timeout', `${left.n} transactions still pending after ${timeoutMs} ms`);
      for (const st of this.byId.values()) this.requestCut(st);
    }
  }

  async close(flushTimeoutMs = 30_000): Promise<void> {
    if (this.closed) return;
    try {
      await this.flush(flushTimeoutMs);
    } catch (err) {
      // Still pending rows are durable (ledger_pending) and are cut at the next start.
      this.opts.logError?.(err, 'ledger: closing with transactions still pending');
    }
    this.closed = true;
    for (const st of this.byId.values()) if (st.timer) clearTimeout(st.timer);
    for (const [txId, list] of this.waiters)
      for (const w of list) w.reject(new LedgerError('closed', `ledger closed before ${txId} was committed`));
    this.waiters.clear();
  }
}

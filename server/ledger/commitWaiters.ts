/**
 * The embedded ledger's durable-submission API (submitAndWait's wait and waitForCommit): the callers
 * waiting for their transactions' commit, by transaction id, answered when the block holding the
 * transaction is committed (by this process's cutter, another process's notification or a poll), and
 * rejected with `LedgerError('timeout' | 'halted' | 'closed')` otherwise (docs/ledger.md section 4).
 */
import type { Kysely } from 'kysely';
import {
  LedgerError,
  type CommittedTx,
  type SubmitWaitOptions,
  type Transaction,
} from '../../common/ledger/types';
import { Deadlines, type Deadline } from './deadlines';
import type { LedgerExplorer } from './explorer';
import type { Db, Waiter } from './pipelineTypes';

/** The waiting callers of one write pipeline. */
export class CommitWaiters {
  private readonly waiters = new Map<string, Waiter[]>();
  private readonly db: Db;
  private readonly reads: LedgerExplorer;
  /** submitAndWait's timeouts, one timer per duration (deadlines.ts). */
  private readonly deadlines = new Deadlines();

  /** @param reads the explorer over the same database (answers "already committed?") */
  constructor(db: Kysely<any>, reads: LedgerExplorer) {
    this.db = db as Db;
    this.reads = reads;
  }

  /** How many transactions have waiting callers. */
  get size(): number {
    return this.waiters.size;
  }

  /** Registers `waiter` for transaction `txId`. */
  add(txId: string, waiter: Waiter): void {
    const list = this.waiters.get(txId);
    if (list) list.push(waiter);
    else this.waiters.set(txId, [waiter]);
  }

  /** Unregisters `waiter` (answered or timed out). */
  drop(txId: string, waiter: Waiter): void {
    const list = this.waiters.get(txId);
    if (!list) return;
    const rest = list.filter((w) => w !== waiter);
    if (rest.length) this.waiters.set(txId, rest);
    else this.waiters.delete(txId);
  }

  /** Resolves the waiters of committed transactions. */
  settle(txs: CommittedTx[]): void {
    for (const tx of txs) {
      const list = this.waiters.get(tx.txId);
      if (!list) continue;
      this.waiters.delete(tx.txId);
      for (const w of list) w.resolve(tx);
    }
  }

  /** Rejects every waiting caller (the signer halted the ledger: their blocks cannot be signed). */
  rejectAll(err: Error): void {
    const all = [...this.waiters.values()];
    this.waiters.clear();
    for (const list of all) for (const w of list) w.reject(err);
  }

  /** Rejects every waiting caller with `LedgerError('closed')` (the ledger is closing). */
  closeAll(): void {
    for (const [txId, list] of this.waiters)
      for (const w of list) w.reject(new LedgerError('closed', `ledger closed before ${txId} was committed`));
    this.waiters.clear();
  }

  /**
   * A follower's poll: looks up every transaction waited for in `ledger_tx` and answers the waiters of
   * the blocks found. @throws the database's error (the caller logs it)
   */
  async pollCommitted(): Promise<void> {
    if (this.waiters.size === 0) return;
    const ids = [...this.waiters.keys()];
    const blocks = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db
        .selectFrom('ledger_tx')
        .select(['channelId', 'blockNumber'])
        .where('txId', 'in', ids.slice(i, i + 500))
        .execute();
      for (const r of rows) blocks.add(`${r.channelId}:${r.blockNumber}`);
    }
    for (const b of blocks) {
      const [c, n] = b.split(':').map(Number);
      this.settle(await this.reads.blockTransactions(c, n));
    }
  }

  /**
   * Waits until transaction `txId` is committed (it may be already).
   * @throws LedgerError `timeout` after `timeoutMs`, or the error the waiters are rejected with
   */
  wait(txId: string, timeoutMs: number): Promise<CommittedTx> {
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
        this.drop(txId, waiter);
        if (err) reject(err);
        else resolve(tx!);
      };
      const waiter: Waiter = { resolve: (tx) => finish(tx), reject: (err) => finish(undefined, err) };
      const list = this.waiters.get(txId);
      if (list) list.push(waiter);
      else this.waiters.set(txId, [waiter]);
      // Already committed (before the waiter was registered)?
      this.reads.transaction(txId).then(
        (tx) => tx && finish(tx),
        (err) => finish(undefined, err as Error),
      );
    });
  }

  /**
   * submitAndWait's wait: `store(waiter)` validates and stores the transaction with `waiter` registered
   * before it can be cut; `opts.onStored` runs once it is stored (its failure is logged).
   * @throws LedgerError `timeout` after `opts.timeoutMs` (default 30 s), or `store`'s error
   */
  submitAndWait(
    store: (waiter: Waiter) => Promise<Transaction>,
    opts: SubmitWaitOptions,
    logError?: (err: unknown, msg: string) => void,
  ): Promise<CommittedTx> {
    const timeoutMs = opts.timeoutMs ?? 30_000;
    let deadline: Deadline | undefined;
    let txId: string | undefined;
    const committed = new Promise<CommittedTx>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (tx) => {
          if (deadline) this.deadlines.cancel(deadline);
          resolve(tx);
        },
        reject: (err) => {
          if (deadline) this.deadlines.cancel(deadline);
          reject(err);
        },
      };
      deadline = this.deadlines.add(timeoutMs, () => {
        if (txId) this.drop(txId, waiter);
        reject(
          new LedgerError(
            'timeout',
            `transaction ${txId ?? '(not yet stored)'} not committed within ${timeoutMs} ms`,
          ),
        );
      });
      store(waiter).then(
        (tx) => {
          txId = tx.txId;
          opts
            .onStored?.(tx)
            .catch((err: unknown) => logError?.(err, `ledger: onStored of ${tx.txId} failed`));
        },
        (err) => waiter.reject(err as Error),
      );
    });
    return committed;
  }
}

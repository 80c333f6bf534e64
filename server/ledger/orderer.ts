/**
 * Orderer election for several server processes on one PostgreSQL database (docs/ledger.md, "Several
 * instances"). Exactly one process cuts blocks: the one holding a session-level advisory lock
 * (`pg_try_advisory_lock`, PostgreSQL manual 9.27.10 "Advisory Lock Functions") on a dedicated
 * connection, outside the pool. The lock lives as long as that connection: when the orderer dies (even by
 * SIGKILL) PostgreSQL ends its session and frees the lock, and the next process to poll takes it.
 *
 * The same connection LISTENs on two notification channels, which the write pipeline signals inside its
 * database transactions (so a notification is delivered exactly when the transaction commits):
 * - `baas_ledger_block`, payload `<instance>:<channelId>:<blockNumber>`: a block was committed; the
 *   other processes answer the put-on-chain calls waiting for one of its transactions;
 * - `baas_ledger_pending`, payload `<instance>:<channelId>:<count>`: transactions were queued in
 *   `ledger_pending`; the orderer counts them towards its batch size / batch timeout.
 * The connection's `application_name` is `baas-ledger-<pid>-<instance>`, so `pg_locks` joined with
 * `pg_stat_activity` shows which process is the orderer.
 * Notifications are a fast path only: the pipeline also polls (pending rows, waited-for transactions), so
 * one lost while a connection was being replaced delays an answer but loses nothing.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The advisory lock key of the orderer role (any constant bigint; "baasord" in ASCII). */
export const ORDERER_LOCK_KEY = '27710537433297508';
export const BLOCK_CHANNEL = 'baas_ledger_block';
export const PENDING_CHANNEL = 'baas_ledger_pending';

/** What the election tells the write pipeline. */
export interface ElectionEvents {
  /** This process now holds the orderer lock: load the state and cut what is pending. */
  elected(): void;
  /** This process lost the lock (its connection broke): stop cutting at once. */
  deposed(): void;
  /** Another process committed block `number` of channel `channelId`. */
  block(channelId: number, number: number): void;
  /** Another process queued `count` transactions of channel `channelId`. */
  pending(channelId: number, count: number): void;
}

/** The orderer role as the write pipeline sees it (PgOrdererElection, or a test double). */
export interface OrdererElection {
  /** A random id of this process, put in the notifications it sends (so it can skip its own). */
  readonly instance: string;
  /** True while this process holds the lock. */
  isOrderer(): boolean;
  /** Connects, LISTENs, tries the lock once, then keeps trying every `pollMs` while it is not held. */
  start(events: ElectionEvents): Promise<void>;
  /** Ends the dedicated connection, which releases the lock. */
  close(): Promise<void>;
}

export interface PgElectionOptions {
  /** How often a process that is not the orderer tries the lock, ms (default 500). */
  pollMs?: number;
  log?: (msg: string, err?: unknown) => void;
}

/** Parses `<instance>:<channelId>:<n>`; undefined for anything else. */
function parsePayload(payload: string | undefined): [string, number, number] | undefined {
  const m = /^([0-9a-f]+):(\d+):(\d+)$/.exec(payload ?? '');
  return m ? [m[1], Number(m[2]), Number(m[3])] : undefined;
}

/** Orderer election through a PostgreSQL session-level advisory lock on a dedicated connection. */
export class PgOrdererElection implements OrdererElection {
  readonly instance = randomBytes(6).toString('hex');
  private readonly url: string;
  private readonly pollMs: number;
  private readonly log: (msg: string, err?: unknown) => void;
  private client: pg.Client | null = null;
  private holding = false;
  private closed = false;
  private timer: NodeJS.Timeout | null = null;
  private events: ElectionEvents | null = null;
  private trying = false;

  constructor(databaseUrl: string, opts: PgElectionOptions = {}) {
    this.url = databaseUrl;
    this.pollMs = opts.pollMs ?? 500;
    this.log = opts.log ?? (() => {});
  }

  isOrderer(): boolean {
    return this.holding;
  }

  async start(events: ElectionEvents): Promise<void> {
    this.events = events;
    await this.connect();
    this.timer = setInterval(() => void this.tick(), this.pollMs);
    this.timer.unref();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.url,
      application_name: `baas-ledger-${process.pid}-${this.instance}`,
    });
    const lost = (err?: Error) => {
      if (this.client !== client) return;
      this.client = null;
      client.removeAllListeners();
      client.on('error', () => {});
      client.end().catch(() => {});
      if (!this.closed) this.log(`ledger orderer connection lost${err ? `: ${err.message}` : ''}`);
      if (this.holding) {
        this.holding = false;
        this.events?.deposed();
      }
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (n) => {
      const p = parsePayload(n.payload);
      if (!p || p[0] === this.instance) return;
      if (n.channel === BLOCK_CHANNEL) this.events?.block(p[1], p[2]);
      else if (n.channel === PENDING_CHANNEL) this.events?.pending(p[1], p[2]);
    });
    await client.connect();
    await client.query(`LISTEN ${BLOCK_CHANNEL}`);
    await client.query(`LISTEN ${PENDING_CHANNEL}`);
    this.client = client;
    await this.tryLock();
  }

  private async tick(): Promise<void> {
    if (this.closed || this.trying) return;
    this.trying = true;
    try {
      if (!this.client) await this.connect();
      else if (!this.holding) await this.tryLock();
    } catch (err) {
      this.log('ledger orderer election: could not reach PostgreSQL; retrying', err);
    } finally {
      this.trying = false;
    }
  }

  private async tryLock(): Promise<void> {
    const client = this.client;
    if (!client || this.holding || this.closed) return;
    const r = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS got', [
      ORDERER_LOCK_KEY,
    ]);
    if (r.rows[0]?.got && this.client === client && !this.closed) {
      this.holding = true;
      this.log(`ledger: process ${process.pid} is now the orderer (advisory lock ${ORDERER_LOCK_KEY})`);
      this.events?.elected();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    const client = this.client;
    this.client = null;
    this.holding = false;
    if (client) {
      client.removeAllListeners();
      client.on('error', () => {});
      await client.end().catch(() => {});
    }
  }
}

/**
 * The ledger's data shapes, shared by the server and the console, and the small `Ledger` interface
 * everything outside `server/ledger/` uses, so that a client of a real distributed ledger (e.g. Fabric)
 * can replace the embedded one (docs/ledger.md). Hashes are lowercase hex; times are UTC text.
 * Browser-safe (no node imports).
 */

/** A transaction exactly as hashed (docs/ledger.md section 1). No other field is part of it. */
export interface Transaction {
  /** 64 lowercase hex; unique over all channels. */
  txId: string;
  channel: string;
  chaincode: string;
  function: string;
  args: string[];
  creator: string;
  /** `YYYY-MM-DD HH:mm:ss.SSS` UTC. */
  timestamp: string;
  /** Fabric TxValidationCode; 0 = VALID. */
  validationCode: number;
}

/** What a caller submits; the ledger assigns txId, timestamp and validationCode. */
export interface TxProposal {
  channel: string;
  chaincode: string;
  function: string;
  args: string[];
  creator: string;
}

/** A committed transaction with where it sits. */
export interface CommittedTx extends Transaction {
  channelId: number;
  blockNumber: number;
  txIndex: number;
  /** Leaf hash recorded when the block was cut (hex). */
  leafHash: string;
  /** The block's time, `YYYY-MM-DD HH:mm:ss` UTC. */
  blockTime: string;
}

export interface BlockHeader {
  number: number;
  /** "" for the genesis block. */
  previousHash: string;
  dataHash: string;
}

export interface BlockInfo extends BlockHeader {
  channelId: number;
  channel: string;
  blockHash: string;
  txCount: number;
  /** Time the block was cut, `YYYY-MM-DD HH:mm:ss` UTC (not covered by the hash). */
  createdAt: string;
  /** Entries (transactions) in the channel's Merkle log after this block (docs/ledger.md 3a). */
  treeSize?: number;
  /** The log's RFC 6962 tree hash after this block, hex. */
  treeRoot?: string;
}

export interface ChannelInfo {
  id: number;
  name: string;
  /** Number of blocks (genesis included). */
  height: number;
  txCount: number;
  createdAt: string;
}

/** A Merkle proof of one committed transaction (docs/ledger.md section 7). */
export interface TxProof {
  channel: string;
  channelId: number;
  tx: Transaction;
  leafIndex: number;
  proof: { side: 'left' | 'right'; hash: string }[];
  header: BlockHeader;
  blockHash: string;
  blockTime: string;
}

/** Result of verification: `ok` with counts, or the first failure and where it is. */
export type VerifyResult =
  | { ok: true; blocks: number; transactions: number; channels: number; message: string }
  | {
      ok: false;
      channel: string;
      blockNumber: number;
      /** Set when one transaction is at fault. */
      txId?: string;
      /** e.g. `leafHash`, `dataHash`, `blockHash`, `previousHash`, `number`, `txCount`, `txId`. */
      field: string;
      expected: string;
      found: string;
      message: string;
      /** Blocks and transactions checked before the failure. */
      blocks: number;
      transactions: number;
    };

/** One page of a list. */
export interface Page<T> {
  list: T[];
  total: number;
}

export interface BlockQuery {
  channelId: number;
  page: number;
  pageSize: number;
  /** Inclusive bounds on block time, `YYYY-MM-DD HH:mm:ss` UTC. */
  from?: string;
  to?: string;
  order?: 'ASC' | 'DESC';
}

export interface TxQuery {
  channelId?: number;
  blockNumber?: number;
  chaincode?: string;
  page: number;
  pageSize: number;
  from?: string;
  to?: string;
}

/** Transactions per time bucket (`YYYY-MM-DD HH:mm` for minutes, `YYYY-MM-DD HH` for hours). */
export interface TxBucket {
  time: string;
  count: number;
}

/**
 * Called for each committed block, inside the block's database transaction for the embedded ledger
 * (`trx` is then a Kysely transaction of the same database): anything it writes commits or rolls back
 * with the block. A throwing hook rolls the block back; the transactions stay pending.
 */
export type CommitHook = (block: BlockInfo, txs: CommittedTx[], trx: unknown) => Promise<void>;

/** Options of `submitAndWait`. */
export interface SubmitWaitOptions {
  /** Reject with LedgerError `timeout` when not committed within this many ms (default 30,000). */
  timeoutMs?: number;
  /**
   * Called once the transaction is durably queued (it may run after the commit too): e.g. mark a record
   * "being rolled out". Its failure is logged, not thrown.
   */
  onStored?: (tx: Transaction) => Promise<void>;
}

/** The ledger, as the rest of the server sees it. */
export interface Ledger {
  /** Opens the channel, creating it with its genesis block when it does not exist. */
  ensureChannel(name: string): Promise<ChannelInfo>;
  /**
   * Durably queues a transaction and answers its id: once this resolves the transaction is never lost
   * and will be in a block (docs/ledger.md section 5).
   * @throws LedgerError `unknown-channel`, `bad-proposal`.
   */
  submit(proposal: TxProposal): Promise<Transaction>;
  /** Resolves when `txId` is in a committed block. @throws LedgerError `timeout` after `timeoutMs`. */
  waitForCommit(txId: string, timeoutMs?: number): Promise<CommittedTx>;
  /** Submit and wait for the block: what a put-on-chain call does. */
  submitAndWait(proposal: TxProposal, opts?: SubmitWaitOptions): Promise<CommittedTx>;
  /** Registers a hook run for every committed block (see CommitHook). */
  onCommit(hook: CommitHook): void;
  /**
   * Cuts every pending transaction into blocks now.
   * @param timeoutMs give up after this long (default 30 s) with a LedgerError 'timeout'; what is still
   *   pending stays stored and is cut at the next start
   */
  flush(timeoutMs?: number): Promise<void>;

  channels(): Promise<ChannelInfo[]>;
  channel(idOrName: number | string): Promise<ChannelInfo | undefined>;
  blocks(query: BlockQuery): Promise<Page<BlockInfo>>;
  block(channelId: number, number: number): Promise<BlockInfo | undefined>;
  blockByHash(hash: string): Promise<BlockInfo | undefined>;
  blockTransactions(channelId: number, number: number): Promise<CommittedTx[]>;
  transactions(query: TxQuery): Promise<Page<CommittedTx>>;
  transaction(txId: string): Promise<CommittedTx | undefined>;
  /** Whether the transaction is still waiting for its block. */
  isPending(txId: string): Promise<boolean>;
  proof(txId: string): Promise<TxProof | undefined>;
  /** Totals over all channels. */
  totals(): Promise<{ channels: number; blocks: number; transactions: number; pending: number }>;
  /** Transactions per minute (last `minutes`) or per hour (last `hours`), oldest first, empty buckets included. */
  txPerMinute(minutes: number, now?: Date): Promise<TxBucket[]>;
  txPerHour(hours: number, now?: Date): Promise<TxBucket[]>;
  /** Recomputes every hash and link (docs/ledger.md section 6); `channel` limits it to one channel. */
  verify(channel?: string): Promise<VerifyResult>;

  // ---- the channel's Merkle log (docs/ledger.md section 3a; C2SP tlog-tiles) ----
  /** The log's size (entries) and root hash (hex) after its last block, or undefined before genesis. */
  treeHead(channelId: number): Promise<{ size: number; rootHash: string; blockNumber: number } | undefined>;
  /** The entry index of transaction `txIndex` of block `blockNumber`. */
  entryIndex(channelId: number, blockNumber: number, txIndex: number): Promise<number | undefined>;
  /** RFC 6962 inclusion proof of entry `index` in the tree of `size` entries (32-byte hashes). */
  inclusionProof(channelId: number, size: number, index: number): Promise<Uint8Array[]>;
  /** RFC 6962 consistency proof from the tree of `from` entries to the tree of `to` entries. */
  consistencyProof(channelId: number, to: number, from: number): Promise<Uint8Array[]>;
  /** A C2SP hash tile's bytes (height 8, level `L`, number `N`, width `W`). */
  tile(channelId: number, tile: { H: number; L: number; N: number; W: number }): Promise<Uint8Array>;
  /** A C2SP entry bundle: `width` entries from `n × 256`, each a uint16 length and the bytes. */
  entryBundle(channelId: number, n: number, width: number): Promise<Uint8Array>;
  /**
   * Stops the block cutter after cutting what is pending (for at most `flushTimeoutMs`, default 30 s;
   * past that the rest stays stored for the next start, so closing never hangs on a failing database).
   */
  close(flushTimeoutMs?: number): Promise<void>;
}

/** An error of the ledger with a stable code the API maps to an envelope. */
export class LedgerError extends Error {
  constructor(
    readonly code: 'unknown-channel' | 'bad-proposal' | 'timeout' | 'closed' | 'not-found' | 'halted',
    message: string,
  ) {
    super(message);
    this.name = 'LedgerError';
  }
}

/** One hit of the explorer's search (GET /baas-api/search). */
export interface SearchHit {
  type: 'block' | 'transaction';
  channelId: number;
  channel: string;
  number: number;
  txId?: string;
  blockHash?: string;
}

/** Answer of a put-on-chain call (the record's transaction on the records' channel). */
export interface PutOnChainResult {
  txId: string;
  channel: string;
  blockNumber: number;
  blockTime: string;
  version: number;
  digest: string;
  /** True when the record was unchanged and the existing transaction is answered (nothing written). */
  repeated: boolean;
}

/** A channel whose stored log does not extend the last checkpoint signed: nothing is signed for it. */
export interface LedgerAlarm {
  channel: string;
  origin: string;
  /** `fork` (another tree of a signed size, or no consistency), `rollback` (smaller than signed). */
  /**
   * `fork` (another tree of a signed size, or no consistency), `rollback` (smaller than signed), `key`
   * (the latest stored checkpoint carries no valid signature of this key: a new key beside an old log).
   */
  kind: 'fork' | 'rollback' | 'key';
  reason: string;
  /** The last signed checkpoint (size, root hash hex) and the stored head it was compared with. */
  signed: { size: number; rootHash: string };
  head: { size: number; rootHash: string };
  since: string;
  /** The witness whose cosigned checkpoint the head does not extend (the log's memory outside the box). */
  witness?: string;
}

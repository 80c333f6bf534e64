/**
 * Typed Kysely tables of the ledger (created by server/db/migrations/20261122T0100_ledger.ts). Kept apart
 * from the registry's `Database` so the ledger stays a separable module: use `db.withTables<LedgerTables>()`
 * or a `Kysely<LedgerTables>`.
 */
import type { Generated } from 'kysely';

export interface LedgerChannelTable {
  id: Generated<number>;
  name: string;
  createdAt: string;
}

export interface LedgerBlockTable {
  channelId: number;
  number: number;
  /** "" for the genesis block. */
  previousHash: string;
  dataHash: string;
  blockHash: string;
  txCount: number;
  createdAt: string;
}

/**
 * A transaction's stored proposal columns, the same in the queue (`ledger_pending`) and in a block
 * (`ledger_tx`); with the channel's name they are the eight hashed fields (docs/ledger.md section 1).
 */
export interface LedgerTxColumns {
  txId: string;
  chaincode: string;
  function: string;
  /** JSON array of strings. */
  args: string;
  creator: string;
  timestamp: string;
  validationCode: number;
}

export interface LedgerTxTable extends LedgerTxColumns {
  channelId: number;
  blockNumber: number;
  txIndex: number;
  /** Leaf hash recorded when the block was cut (hex). */
  leafHash: string;
}

export interface LedgerPendingTable extends LedgerTxColumns {
  seq: Generated<number>;
  channelId: number;
}

export interface ChaincodeTable {
  id: Generated<number>;
  channelId: number;
  name: string;
  version: string;
  /** JSON array of strings. */
  initArgs: string;
  /** JSON array of strings. */
  args: string;
  policy: string;
  function: string;
  functionType: string;
  fileName: string;
  code: string;
  codeHash: string;
  /** installed | approved | committed */
  status: string;
  /** JSON array of { status, txId, time }. */
  history: string;
  createdBy: string;
  createTime: string;
  updateTime: string;
}

/**
 * A signed C2SP checkpoint (docs/ledger.md section 10; migration 20261126T0100_ledger_tlog). The same
 * columns hold the legacy block-height checkpoints in `ledger_block_checkpoint` (size = height, root =
 * head block hash), signed before the ledger became a Merkle log.
 */
export interface LedgerCheckpointTable {
  channelId: number;
  /** Tree size: the number of entries (transactions) of the channel's log. */
  size: number;
  /** The log's RFC 6962 tree hash at that size (hex). */
  rootHash: string;
  /** The signed note's text. */
  note: string;
  createdAt: string;
}

/** A witness's cosignature line of a channel's checkpoint (C2SP tlog-cosignature v1). */
export interface LedgerCosignatureTable {
  channelId: number;
  /** The cosigned checkpoint's tree size. */
  size: number;
  /** The witness's key name. */
  witness: string;
  /** The cosigned checkpoint's root hash (hex). */
  rootHash: string;
  /** The signature line, ending in a newline. */
  line: string;
  /** Its timestamp, Unix seconds (PostgreSQL answers a bigint as text). */
  time: number | string;
}

/** What the log knows of one configured witness for one channel (docs/witnesses.md section 11). */
export interface LedgerWitnessStatusTable {
  channelId: number;
  /** The witness's key name. */
  witness: string;
  /** Its cosigner vkey. */
  vkey: string;
  /** Its submission prefix. */
  url: string;
  /** The size the witness last reported (its cosignature or its 409 answer). */
  size: number;
  /** The largest size it cosigned. */
  cosignedSize: number;
  cosignedAt: string | null;
  lastAttemptAt: string | null;
  lastError: string | null;
  /** add-checkpoint answers other than 200 and 409. */
  refusals: number;
  /** Attempts that got no HTTP answer or an unusable one. */
  errors: number;
}

/** One block's part of a channel's Merkle log (server/ledger/tree.ts). */
export interface LedgerTreeTable {
  channelId: number;
  blockNumber: number;
  /** Entries in the log after this block. */
  size: number;
  /** The log's tree hash after this block (hex). */
  rootHash: string;
  /** Stored-hash index (Go tlog numbering) of the first hash in `hashes`. */
  hashStart: number;
  /** The stored hashes this block appended, hex, 64 characters each. */
  hashes: string;
}

/** The origin of a channel's log (C2SP tlog-checkpoint origin line). */
export interface LedgerLogTable {
  channelId: number;
  origin: string;
  createdAt: string;
}

export interface LedgerTables {
  ledger_channel: LedgerChannelTable;
  ledger_block: LedgerBlockTable;
  ledger_tx: LedgerTxTable;
  ledger_pending: LedgerPendingTable;
  chaincode: ChaincodeTable;
  ledger_checkpoint: LedgerCheckpointTable;
  ledger_cosignature: LedgerCosignatureTable;
  ledger_witness_status: LedgerWitnessStatusTable;
  ledger_block_checkpoint: LedgerCheckpointTable;
  ledger_tree: LedgerTreeTable;
  ledger_log: LedgerLogTable;
}

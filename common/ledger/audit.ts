/**
 * The full verification answer (`GET /baas-api/verify`, `npm run ledger:verify`; docs/ledger.md
 * section 6): the chain check (`VerifyResult`), the signed checkpoints against the recomputed heads, and
 * the registry against the ledger. Top-level `ok`, `message` and the failure fields describe the first
 * failure in that order, so a client reading only `VerifyResult` fields still sees where it broke.
 * In every failure `expected` is the value recomputed from the data, `found` the value stored or claimed.
 * Browser-safe.
 */
import type { RecordKind } from './recordFields';
import type { VerifyResult } from './types';

/** A registry record that does not agree with the ledger. */
export interface RegistryProblem {
  kind: RecordKind;
  recordId: number;
  /** The block of the record's latest put transaction in the ledger, or null when it has none. */
  blockNumber: number | null;
  /**
   * `digest` (changed since put on chain), `chainDigest`, `chainVersion` (rolled back), `chain` (points at
   * a transaction that is not its latest, or another record's), `isBlock`.
   */
  field: 'digest' | 'chainDigest' | 'chainVersion' | 'chain' | 'isBlock';
  expected: string;
  found: string;
  message: string;
}

/** The checkpoint part of the answer. */
export interface CheckpointAudit {
  /** Checkpoints compared with the recomputed tree hashes. */
  checked: number;
  /** Signatures verified (the latest checkpoint of each channel; all with `allSignatures`). */
  signatures: number;
  /** The signing key's SHA-256 fingerprint (of its SPKI DER), or null when no key was given. */
  fingerprint: string | null;
  failure?: {
    channel: string;
    blockNumber: number;
    /**
     * `tree` (the stored Merkle log differs from the one recomputed from the transactions), `checkpoint`
     * (root hash differs), `signature`, `coverage` (log not covered).
     */
    field: 'checkpoint' | 'signature' | 'coverage' | 'tree';
    expected: string;
    found: string;
    message: string;
  };
}

/**
 * An on-chain record edited through the API after its latest put on chain (docs/ledger.md section 6):
 * its current digest differs from its latest transaction's, and its stored row is exactly the row after
 * its latest audited write (audit_log `after`, SHA-256 of the row's canonical JSON). Not a failure.
 */
export interface EditedRecord {
  kind: RecordKind;
  recordId: number;
  /** The latest version on chain and its transaction. */
  version: number;
  txId: string;
  blockNumber: number;
  /** The digest on chain (of that version) and the record's current digest. */
  chainDigest: string;
  digest: string;
  /** The audited write that explains the change: the latest edit of the record (audit_log row). */
  audit: { id: number; time: string; account: string; call: string };
  message: string;
}

/** The registry part of the answer. */
export interface RegistryAudit {
  /** Records checked (every author and artwork). */
  checked: number;
  /** Records on chain (a put transaction in the ledger). */
  onChain: number;
  /** On-chain records changed since their put by an audited API write: reported, not a failure. */
  edited: EditedRecord[];
  /** Records whose stored state matches no logged transaction and no audited write: failures. */
  problems: RegistryProblem[];
}

/** The answer of the verify call. */
export type AuditResult = VerifyResult & {
  /** The chain check alone. */
  chain: VerifyResult;
  checkpoints: CheckpointAudit;
  registry: RegistryAudit;
  /** Set when a registry record is the first failure. */
  kind?: RecordKind;
  recordId?: number;
  /**
   * Set when the server's signer halted a channel (its stored log does not extend the last checkpoint it
   * signed: docs/ledger.md section 10): then the first failure (`field: "alarm"`), whatever the rest says.
   */
  halted?: { channel: string; kind: 'fork' | 'rollback' | 'key'; reason: string };
};

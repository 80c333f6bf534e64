/**
 * The public verification of one record (docs/ledger.md section 10), run in the browser by the public
 * page `/#/verify/:kind/:id` (Web Crypto) and by the API tests on the same answer of
 * `GET /baas-api/public/record`. Five steps, each ok or failed with `expected` (the recomputed value) and
 * `found` (what the server sent):
 * 1. `digest`: SHA-256 of the record's canonical digest fields equals the digest carried by the ledger's
 *    latest put transaction of the record (`args[2]`);
 * 2. `merkle`: the transaction's leaf hash folded along the audit path equals the header's data hash;
 * 3. `header`: SHA-256 of the DER header equals the block hash;
 * 4. `signature`: the channel's latest checkpoint (C2SP tlog-checkpoint) carries a valid Ed25519
 *    signature of the published key, or of a published previous key after a rotation (key name = the
 *    checkpoint's origin), and the transaction's leaf
 *    hash with its RFC 6962 inclusion proof (`checkpoint.index`, `checkpoint.inclusion`) gives the
 *    checkpoint's root hash (common/ledger/tlog.ts `checkRecord`, Go's `tlog.CheckRecord`);
 * 5. `latest`: no newer version: the transaction is the ledger's latest of this record, and the record
 *    itself claims that version and that transaction.
 * A record whose channel the server halted (`halted`: its stored log does not extend the last checkpoint
 * it signed, docs/ledger.md section 10) is not verified, whatever the steps say: the check carries the
 * halt for the page to show.
 * Browser-safe.
 */
import { fromHex } from './hex';
import { fromBase64, parseCheckpoint, splitNote, verifyCheckpointNoteByAny } from './note';
import { checkRecord } from './tlog';
import type { RecordKind } from './recordFields';
import type { TxProof } from './types';
import { checkProofWeb, recordDigestWeb, txLeafHashWeb } from './webVerify';

/** The answer of `GET /baas-api/public/record`. */
export interface PublicRecord {
  kind: RecordKind;
  id: number;
  /** Every field the digest covers, and `id`. */
  record: Record<string, unknown>;
  /** Display-only values (an artwork's author name), not covered by the digest. */
  display: Record<string, unknown>;
  /** The record's own pointer to its chain transaction. */
  recordChain: { txId: string | null; version: number };
  /** The ledger's latest put transaction of this record. */
  latest: { txId: string; version: number; versions: number };
  proof: TxProof;
  /**
   * The channel's latest checkpoint, the transaction's entry index in the channel's log and its
   * inclusion proof in the tree of `size` entries (standard base64 hashes, leaf to root).
   */
  checkpoint: { size: number; note: string; index: number; inclusion: string[] } | null;
  key: {
    name: string;
    publicKey: string;
    fingerprint: string;
    vkey: string;
    keyId: string;
    spki: string;
    /**
     * Keys rotated out (`LEDGER_PREVIOUS_SIGNING_KEY`), same forms: a checkpoint signed before the
     * rotation carries only such a key's signature (docs/ledger.md section 10).
     */
    previous?: { name: string; publicKey: string; vkey: string; keyId: string }[];
  };
  /** The server's alarm on the record's channel (a fork or rollback of its log), or null / absent. */
  halted?: { kind: 'fork' | 'rollback' | 'key'; reason: string } | null;
}

export type StepName = 'digest' | 'merkle' | 'header' | 'signature' | 'latest';

export interface StepResult {
  step: StepName;
  ok: boolean;
  message?: string;
  expected?: string;
  found?: string;
}

export interface PublicCheck {
  ok: boolean;
  steps: StepResult[];
  /** Block number of the transaction, the checkpoint's size and its `time` line. */
  blockNumber: number;
  checkpointSize?: number;
  /** The transaction's own (hashed) timestamp, UTC. */
  txTime: string;
  version: number;
  /** The server halted the record's channel: not verified, for this reason. */
  halted?: { kind: 'fork' | 'rollback' | 'key'; reason: string };
}

/** Runs the five steps (never throws: a malformed answer fails the step it breaks). */
export async function verifyPublicRecord(r: PublicRecord): Promise<PublicCheck> {
  const steps: StepResult[] = [];
  const digest = await recordDigestWeb(r.kind, r.record);
  const tx = r.proof.tx;
  steps.push(
    digest === tx.args[2]
      ? { step: 'digest', ok: true }
      : {
          step: 'digest',
          ok: false,
          message: 'the record differs from its latest version on chain',
          expected: digest,
          found: tx.args[2],
        },
  );
  const proof = await checkProofWeb(r.proof);
  if (proof.ok) {
    steps.push({ step: 'merkle', ok: true }, { step: 'header', ok: true });
  } else if (proof.reason === 'header') {
    steps.push(
      { step: 'merkle', ok: true },
      { step: 'header', ok: false, message: proof.message, expected: proof.expected, found: proof.found },
    );
  } else {
    steps.push(
      { step: 'merkle', ok: false, message: proof.message, expected: proof.expected, found: proof.found },
      { step: 'header', ok: false, message: 'not checked: the Merkle proof failed' },
    );
  }
  let checkpointSize: number | undefined;
  steps.push(await checkSignature(r, (s) => (checkpointSize = s)));
  const latestOk =
    tx.txId === r.latest.txId &&
    Number(tx.args[1]) === r.latest.version &&
    r.recordChain.version === r.latest.version &&
    r.recordChain.txId === r.latest.txId &&
    Number(tx.args[0]) === r.id;
  steps.push(
    latestOk
      ? { step: 'latest', ok: true }
      : {
          step: 'latest',
          ok: false,
          message: `the ledger's latest version of this record is ${r.latest.version}; the record claims version ${r.recordChain.version}`,
          expected: `${r.latest.version} ${r.latest.txId}`,
          found: `${r.recordChain.version} ${r.recordChain.txId ?? 'none'}`,
        },
  );
  return {
    ok: steps.every((s) => s.ok) && !r.halted,
    ...(r.halted ? { halted: r.halted } : {}),
    steps,
    blockNumber: r.proof.header.number,
    checkpointSize,
    txTime: tx.timestamp,
    version: Number(tx.args[1]),
  };
}

async function checkSignature(r: PublicRecord, setSize: (n: number) => void): Promise<StepResult> {
  if (!r.checkpoint)
    return { step: 'signature', ok: false, message: 'no signed checkpoint covers this block yet' };
  let keys: { name: string; publicKey: Uint8Array }[];
  try {
    keys = [r.key, ...(r.key.previous ?? [])].map((k) => ({
      name: k.name,
      publicKey: fromBase64(k.publicKey),
    }));
  } catch (err) {
    return { step: 'signature', ok: false, message: (err as Error).message };
  }
  const v = await verifyCheckpointNoteByAny(r.checkpoint.note, keys[0], keys.slice(1));
  if (!v.ok) return { step: 'signature', ok: false, message: v.message };
  setSize(v.checkpoint.size);
  const leaf = await txLeafHashWeb(r.proof.tx);
  let included = false;
  try {
    included = checkRecord(
      r.checkpoint.inclusion.map(fromBase64),
      v.checkpoint.size,
      fromHex(v.checkpoint.rootHash),
      r.checkpoint.index,
      fromHex(leaf),
    );
  } catch {
    included = false;
  }
  if (!included)
    return {
      step: 'signature',
      ok: false,
      message: `the transaction is not entry ${r.checkpoint.index} of the signed log of ${v.checkpoint.size} entries`,
      expected: v.checkpoint.rootHash,
      found: leaf,
    };
  return { step: 'signature', ok: true };
}

/** The checkpoint's `time` line and size from a note, for display (no verification). */
export function checkpointInfo(note: string): { size: number; time?: string } | undefined {
  try {
    const c = parseCheckpoint(splitNote(note).body);
    return { size: c.size, time: c.extensions.find((e) => e.startsWith('time '))?.slice(5) };
  } catch {
    return undefined;
  }
}

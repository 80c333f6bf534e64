/**
 * Every visitor is a witness (docs/witnesses.md section 11), browser-safe: the public page remembers the
 * last checkpoint it verified per origin (localStorage) and, on every visit, checks that the log's latest
 * checkpoint is consistent with it, as Go's sumdb client does with its cached tree
 * (golang.org/x/mod/sumdb/client.go `checkTrees`):
 *
 * - no remembered checkpoint: remember the latest (`first`);
 * - same size: the root hashes must be equal (`same`), else a `fork`;
 * - larger: an RFC 6962 consistency proof from the remembered size must verify (tlog `checkTree`), then
 *   the latest is remembered (`extends`), else a `fork`;
 * - smaller (a stale server or cache): a proof that the latest is a prefix of the remembered one must
 *   verify (`older`; the remembered one is kept), else a `rollback` (the log cannot prove a tree it
 *   showed before).
 *
 * A fork or rollback comes with the evidence a visitor can download: both signed notes and the proof.
 * `pageVerdict` combines the record's own checks, the witness quorum and the visit into what the page
 * says: "Verified, witnessed by k of n" or "Not verified" with the reasons.
 */
import { fromHex } from './hex';
import { toBase64, verifyCheckpointNote, verifyCheckpointNoteByAny, type Checkpoint } from './note';
import type { QuorumResult } from './policy';
import { checkTree } from './tlog';

/** Where the page keeps the last verified checkpoint note of each origin. */
export interface CheckpointMemory {
  get(origin: string): string | undefined;
  set(origin: string, note: string): void;
}

/** The memory in a Web Storage (localStorage), one key per origin. */
export function storageMemory(storage: Storage, prefix = 'baas-ledger-checkpoint:'): CheckpointMemory {
  return {
    get: (origin) => storage.getItem(prefix + origin) ?? undefined,
    set: (origin, note) => {
      try {
        storage.setItem(prefix + origin, note);
      } catch {
        // A full or disabled storage: the next visit starts afresh.
      }
    },
  };
}

/** What a fork or rollback leaves for the visitor to download. */
export interface ForkEvidence {
  kind: 'fork' | 'rollback';
  message: string;
  origin: string;
  /** The checkpoint note this browser had verified before. */
  previous: string;
  /** The checkpoint note the log serves now. */
  latest: string;
  /** The consistency proof the log sent (base64 hashes), from the smaller size to the larger. */
  proof: string[];
  detectedAt: string;
}

/** The outcome of a visit. */
export type VisitResult =
  | { kind: 'first' | 'same' | 'extends' | 'older'; previousSize?: number }
  | { kind: 'unchecked'; message: string }
  | { kind: 'fork' | 'rollback'; message: string; evidence: ForkEvidence };

/**
 * Checks the latest checkpoint note (signed by `key`) against the remembered one (signed by `key` or,
 * before a rotation, by one of `key.previous`). `fetchProof(m, n)` answers the log's
 * consistency proof from size m to size n (m < n), or throws when the log cannot give one.
 * Never throws: a failure to fetch is `unchecked` (nothing remembered changes).
 */
export async function checkVisit(
  latestNote: string,
  key: { name: string; publicKey: Uint8Array; previous?: { name: string; publicKey: Uint8Array }[] },
  memory: CheckpointMemory,
  fetchProof: (oldSize: number, newSize: number) => Promise<Uint8Array[]>,
  now = () => new Date().toISOString(),
): Promise<VisitResult> {
  const latest = await verifyCheckpointNote(latestNote, key);
  if (!latest.ok) return { kind: 'unchecked', message: latest.message };
  const cp = latest.checkpoint;
  const stored = memory.get(cp.origin);
  // The remembered note may predate a key rotation: the previous keys verify it too.
  const prev = stored ? await verifyCheckpointNoteByAny(stored, key, key.previous) : undefined;
  if (!prev || !prev.ok) {
    memory.set(cp.origin, latestNote);
    return { kind: 'first' };
  }
  const old = prev.checkpoint;
  const alarm = (kind: 'fork' | 'rollback', message: string, proof: Uint8Array[] = []): VisitResult => ({
    kind,
    message,
    evidence: {
      kind,
      message,
      origin: cp.origin,
      previous: stored!,
      latest: latestNote,
      proof: proof.map(toBase64),
      detectedAt: now(),
    },
  });
  if (cp.size === old.size)
    return cp.rootHash === old.rootHash
      ? { kind: 'same', previousSize: old.size }
      : alarm('fork', `two different trees of size ${cp.size}`);
  const [small, big] = cp.size > old.size ? [old, cp] : [cp, old];
  let proof: Uint8Array[];
  try {
    proof = await fetchProof(small.size, big.size);
  } catch (err) {
    if (cp.size < old.size)
      return alarm(
        'rollback',
        `the log serves size ${cp.size} and cannot prove the tree of size ${old.size} it showed before: ${(err as Error).message}`,
      );
    return { kind: 'unchecked', message: (err as Error).message };
  }
  if (!consistent(proof, small, big))
    return alarm(
      'fork',
      `the tree of size ${big.size} does not extend the tree of size ${small.size}: the consistency proof fails`,
      proof,
    );
  if (cp.size > old.size) {
    memory.set(cp.origin, latestNote);
    return { kind: 'extends', previousSize: old.size };
  }
  return { kind: 'older', previousSize: old.size };
}

function consistent(proof: Uint8Array[], small: Checkpoint, big: Checkpoint): boolean {
  try {
    return checkTree(proof, big.size, fromHex(big.rootHash), small.size, fromHex(small.rootHash));
  } catch {
    return false;
  }
}

/** What the page says. */
export interface PageVerdict {
  ok: boolean;
  /** "witnessed by k of n", when the log has witnesses (a policy, or configured ones). */
  witnessed?: { k: number; n: number };
  /** Why not verified: `record` (a step failed), `quorum`, `fork`, `rollback`. */
  reasons: ('record' | 'quorum' | 'fork' | 'rollback')[];
}

/**
 * The page's verdict: the record's checks must pass; where a policy is set its quorum must be met
 * (`policyRequired`); and the visit must not have found a fork or rollback.
 */
export function pageVerdict(
  recordOk: boolean,
  quorum: QuorumResult | undefined,
  policyRequired: boolean,
  visit: VisitResult | undefined,
): PageVerdict {
  const reasons: PageVerdict['reasons'] = [];
  if (!recordOk) reasons.push('record');
  if (policyRequired && !quorum?.ok) reasons.push('quorum');
  if (visit?.kind === 'fork' || visit?.kind === 'rollback') reasons.push(visit.kind);
  return {
    ok: reasons.length === 0,
    witnessed: quorum && quorum.witnesses > 0 ? { k: quorum.cosigned, n: quorum.witnesses } : undefined,
    reasons,
  };
}

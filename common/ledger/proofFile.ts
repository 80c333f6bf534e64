/**
 * Offline proofs as C2SP `tlog-proof` files (https://c2sp.org/tlog-proof), browser-safe:
 *
 * ```
 * c2sp.org/tlog-proof@v1
 * extra <base64 of the entry: the transaction's canonical JSON, the bytes the log hashed as its leaf>
 * index <the entry's zero-based index in the log>
 * <inclusion proof, RFC 6962 section 2.1.1: one base64 hash per line, from the leaf's sibling up>
 *
 * <the checkpoint, verbatim: log signature then witness cosignatures>
 * ```
 *
 * `verifyProofFile` checks one with no network: the checkpoint's signature by the log's vkey (its key
 * name is the origin), the cosignatures of the policy's witnesses and its quorum, and the inclusion of
 * the entry's leaf hash (RFC 6962 `SHA-256(0x00 ‖ entry)`) in the checkpoint's tree.
 */
import { fromHex } from './hex';
import { checkRecord, recordHash } from './tlog';
import { fromBase64, splitNote, toBase64, verifyCheckpointNote, type Checkpoint } from './note';
import { evaluatePolicy, policyWitnesses, type Policy, type QuorumResult } from './policy';
import { verifiedCosigners, type Vkey } from './witness';

/** The first line of a tlog-proof file. */
export const PROOF_HEADER = 'c2sp.org/tlog-proof@v1';

/** A tlog-proof file as data. */
export interface ProofFile {
  /** The `extra` bytes (here the logged entry), or undefined when the line is absent. */
  extra?: Uint8Array;
  index: number;
  /** The inclusion proof, 32-byte hashes. */
  proof: Uint8Array[];
  /** The checkpoint note with its signatures. */
  note: string;
}

/** The file text. @throws Error on a bad index or hash length. */
export function formatProofFile(p: ProofFile): string {
  if (!Number.isSafeInteger(p.index) || p.index < 0) throw new Error('index must be an integer >= 0');
  for (const h of p.proof) if (h.length !== 32) throw new Error('a proof hash is 32 bytes');
  return [
    PROOF_HEADER,
    ...(p.extra ? [`extra ${toBase64(p.extra)}`] : []),
    `index ${p.index}`,
    ...p.proof.map(toBase64),
    '',
    p.note,
  ].join('\n');
}

/** Parses a tlog-proof file. @throws Error naming the malformed line. */
export function parseProofFile(text: string): ProofFile {
  const split = text.indexOf('\n\n');
  if (split < 0) throw new Error('no empty line between the proof and the checkpoint');
  const lines = text.slice(0, split).split('\n');
  if (lines[0] !== PROOF_HEADER) throw new Error(`the first line must be "${PROOF_HEADER}"`);
  let at = 1;
  let extra: Uint8Array | undefined;
  if (lines[at]?.startsWith('extra ')) {
    try {
      extra = fromBase64(lines[at].slice(6));
    } catch {
      throw new Error('the extra line is not base64');
    }
    at++;
  }
  const m = /^index (0|[1-9][0-9]*)$/.exec(lines[at] ?? '');
  if (!m || !Number.isSafeInteger(Number(m[1]))) throw new Error(`line ${at + 1} must be "index <decimal>"`);
  const proof = lines.slice(at + 1).map((l, i) => {
    let h: Uint8Array;
    try {
      h = fromBase64(l);
    } catch {
      throw new Error(`proof line ${i + 1} is not base64`);
    }
    if (h.length !== 32) throw new Error(`proof line ${i + 1} is not a 32-byte hash`);
    return h;
  });
  const note = text.slice(split + 2);
  splitNote(note);
  return { extra, index: Number(m[1]), proof, note };
}

/** The result of checking a proof file. */
export interface ProofFileCheck {
  ok: boolean;
  /** What failed, when not ok. */
  message?: string;
  checkpoint?: Checkpoint;
  index?: number;
  /** The entry's text (the `extra` bytes as UTF-8). */
  entry?: string;
  /** The cosigners among the policy's witnesses and the quorum, when a policy was given. */
  quorum?: QuorumResult;
}

/**
 * Checks a tlog-proof file offline against the log's vkey and an optional policy (whose quorum must
 * then be met). Never throws: every failure is a result naming the step.
 */
export async function verifyProofFile(text: string, log: Vkey, policy?: Policy): Promise<ProofFileCheck> {
  let p: ProofFile;
  try {
    p = parseProofFile(text);
  } catch (err) {
    return { ok: false, message: `malformed proof file: ${(err as Error).message}` };
  }
  const v = await verifyCheckpointNote(p.note, { name: log.name, publicKey: log.publicKey });
  if (!v.ok) return { ok: false, message: `checkpoint: ${v.message}` };
  const checkpoint = v.checkpoint;
  if (checkpoint.origin !== log.name)
    return {
      ok: false,
      checkpoint,
      message: `the origin "${checkpoint.origin}" is not the key name ${log.name}`,
    };
  if (!p.extra) return { ok: false, checkpoint, message: 'the proof carries no entry (no extra line)' };
  const entry = new TextDecoder().decode(p.extra);
  let quorum: QuorumResult | undefined;
  if (policy) {
    const cosigners = await verifiedCosigners(p.note, policyWitnesses(policy));
    quorum = evaluatePolicy(
      policy,
      cosigners.map((c) => c.name),
    );
  }
  let included: boolean;
  let why = 'the proof does not lead from the entry to the root hash';
  try {
    included = checkRecord(
      p.proof,
      checkpoint.size,
      fromHex(checkpoint.rootHash),
      p.index,
      recordHash(p.extra),
    );
  } catch (err) {
    included = false;
    why = (err as Error).message;
  }
  const checked = { checkpoint, index: p.index, entry, quorum };
  if (!included)
    return {
      ok: false,
      ...checked,
      message: `inclusion proof of index ${p.index} in tree ${checkpoint.size}: ${why}`,
    };
  if (quorum && !quorum.ok)
    return {
      ok: false,
      ...checked,
      message: `the policy's quorum is not met: witnessed by ${quorum.cosigned} of ${quorum.witnesses}`,
    };
  return { ok: true, ...checked };
}

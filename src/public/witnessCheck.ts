/**
 * The public page's witness checks (docs/witnesses.md section 11), run in the browser after the record's own
 * steps (common/ledger/publicVerify.ts):
 *
 * - the log's witnesses and policy (`GET /baas-api/public/witnesses`): the cosignatures on the record's
 *   checkpoint are verified against the witnesses' vkeys (tlog-cosignature v1); with a policy its quorum
 *   decides, else every configured witness counts ("witnessed by k of n");
 * - every visitor is a witness: the latest checkpoint (`GET /baas-api/public/checkpoint`) is checked
 *   against the one this browser saw last for the origin (localStorage), through the log's consistency
 *   proof (common/ledger/visitorWitness.ts); a fork or rollback comes back with its evidence.
 */
import { useEffect, useState } from 'react';
import { fromBase64 } from '../../common/ledger/note';
import { evaluatePolicy, parsePolicy, policyWitnesses, type QuorumResult } from '../../common/ledger/policy';
import {
  checkVisit,
  storageMemory,
  type CheckpointMemory,
  type VisitResult,
} from '../../common/ledger/visitorWitness';
import { parseVkey, verifiedCosigners } from '../../common/ledger/witness';

/** The answer of `GET /baas-api/public/witnesses`. */
export interface PublicWitnesses {
  /** The tlog-policy text, or null when the log sets none. */
  policy: string | null;
  /** The witnesses the log pushes to: key name and cosigner vkey. */
  witnesses: { name: string; vkey: string }[];
}

/** What the witness checks found. */
export interface WitnessCheck {
  quorum?: QuorumResult;
  /** Whether a policy is set (then its quorum is required). */
  policyRequired: boolean;
  visit?: VisitResult;
  /** A failure to load the witnesses or the latest checkpoint (the record steps still stand). */
  error?: string;
}

async function json<T>(url: string): Promise<T> {
  const res = await fetch(url);
  const body = (await res.json()) as { code: number; msg: string; data: T };
  if (body.code !== 0) throw new Error(body.msg);
  return body.data;
}

/**
 * Counts the cosignatures on `note`: under the policy when one is set, else over the configured
 * witnesses (quorum met whatever the count).
 */
export async function witnessQuorum(
  note: string,
  w: PublicWitnesses,
): Promise<{ quorum: QuorumResult; policyRequired: boolean }> {
  if (w.policy) {
    const policy = await parsePolicy(w.policy);
    const signed = await verifiedCosigners(note, policyWitnesses(policy));
    return {
      quorum: evaluatePolicy(
        policy,
        signed.map((s) => s.name),
      ),
      policyRequired: true,
    };
  }
  const known = await Promise.all(w.witnesses.map((x) => parseVkey(x.vkey)));
  const signed = await verifiedCosigners(
    note,
    known.map((k) => ({ name: k.name, publicKey: k.publicKey })),
  );
  return {
    quorum: {
      ok: true,
      cosigned: signed.length,
      witnesses: known.length,
      cosigners: signed.map((s) => s.name),
    },
    policyRequired: false,
  };
}

/**
 * Runs the witness checks for a record's checkpoint `note` of `channel`, signed by `key`.
 * `memory` defaults to the browser's localStorage.
 */
export async function runWitnessCheck(
  channel: string,
  note: string | undefined,
  key: { name: string; publicKey: string; previous?: { name: string; publicKey: string }[] },
  memory: CheckpointMemory = storageMemory(window.localStorage),
): Promise<WitnessCheck> {
  const out: WitnessCheck = { policyRequired: false };
  try {
    const w = await json<PublicWitnesses>('/baas-api/public/witnesses');
    out.policyRequired = !!w.policy;
    if (note) Object.assign(out, await witnessQuorum(note, w));
  } catch (err) {
    out.error = (err as Error).message;
  }
  try {
    const latest = await json<{ note: string }>(
      `/baas-api/public/checkpoint?channel=${encodeURIComponent(channel)}`,
    );
    out.visit = await checkVisit(
      latest.note,
      {
        name: key.name,
        publicKey: fromBase64(key.publicKey),
        previous: key.previous?.map((k) => ({ name: k.name, publicKey: fromBase64(k.publicKey) })),
      },
      memory,
      (m, n) =>
        json<{ proof: string[] }>(
          `/baas-api/public/log/${encodeURIComponent(channel)}/proof/consistency?from=${m}&to=${n}`,
        ).then((d) => d.proof.map(fromBase64)),
    );
  } catch (err) {
    out.error ??= (err as Error).message;
  }
  return out;
}

/** The witness checks of a loaded record, or undefined while they run. */
export function useWitnessCheck(
  channel: string | undefined,
  note: string | undefined,
  key: { name: string; publicKey: string; previous?: { name: string; publicKey: string }[] } | undefined,
): WitnessCheck | undefined {
  const [state, setState] = useState<WitnessCheck | undefined>();
  useEffect(() => {
    if (!channel || !key) return;
    let live = true;
    setState(undefined);
    runWitnessCheck(channel, note, key).then(
      (r) => live && setState(r),
      (err: Error) => live && setState({ policyRequired: false, error: err.message }),
    );
    return () => {
      live = false;
    };
  }, [channel, note, key?.name, key?.publicKey]);
  return state;
}

/** Saves the fork evidence as a JSON file (both notes and the proof). */
export function downloadEvidence(visit: VisitResult): void {
  if (visit.kind !== 'fork' && visit.kind !== 'rollback') return;
  const blob = new Blob([JSON.stringify(visit.evidence, null, 2)], { type: 'application/json' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `ledger-${visit.kind}-evidence-${visit.evidence.detectedAt.replace(/[:.]/g, '-')}.json`;
  a.click();
  URL.revokeObjectURL(a.href);
}

/**
 * The witness part of `npm run ledger:verify` (docs/witnesses.md section 11.4, issue 31): for each channel,
 * the quorum is judged on the channel's **head**, its latest checkpoint, never on an older one: a log
 * whose witnesses cosigned checkpoint 4 and then refused every later one is not witnessed. The head's
 * cosigned note (server/ledger/witnessPush.ts `cosignedNote`) is checked against the policy's witnesses
 * (C2SP tlog-policy) or, without a policy, the configured ones (counted, never required). Under a
 * policy, `lastWitnessed` is the newest checkpoint that meets the quorum (0 if none), for the report
 * "not witnessed: head N, last witnessed M".
 */
import type { Kysely } from 'kysely';
import { evaluatePolicy, policyWitnesses, type Policy, type QuorumResult } from '../../common/ledger/policy';
import { verifiedCosigners, type Vkey } from '../../common/ledger/witness';
import { latestCheckpoint, type StoredCheckpoint } from './checkpoints';
import type { LedgerTables } from './tables';
import { cosignedNote } from './witnessPush';

/** One channel's witness summary. */
export interface ChannelWitnessSummary {
  channel: string;
  /** The head's size (entries of the channel's latest checkpoint), 0 when the channel has none. */
  size: number;
  /** The quorum on the head. */
  quorum: QuorumResult;
  /** Whether a policy requires the quorum. */
  required: boolean;
  /**
   * The size of the newest checkpoint that meets the quorum (the head's when it does), 0 if none;
   * without a policy, the head's size.
   */
  lastWitnessed: number;
}

/** The quorum of one checkpoint: under the policy, else counted over the configured witnesses. */
async function quorumOf(
  db: Kysely<any>,
  channelId: number,
  cp: StoredCheckpoint | undefined,
  policy: Policy | undefined,
  configured: Vkey[],
): Promise<QuorumResult> {
  const note = cp ? await cosignedNote(db, channelId, cp) : '';
  if (policy) {
    const signed = note ? await verifiedCosigners(note, policyWitnesses(policy)) : [];
    return evaluatePolicy(
      policy,
      signed.map((s) => s.name),
    );
  }
  const signed = note
    ? await verifiedCosigners(
        note,
        configured.map((k) => ({ name: k.name, publicKey: k.publicKey })),
      )
    : [];
  return {
    ok: true,
    cosigned: signed.length,
    witnesses: configured.length,
    cosigners: signed.map((s) => s.name),
  };
}

/**
 * Summarises every channel (or `channel` only): the quorum on its head and, under a policy, the newest
 * checkpoint that meets it (checked from the newest cosigned size down; only sizes with a stored
 * cosignature can meet a quorum that needs one).
 */
export async function witnessSummary(
  db: Kysely<any>,
  policy: Policy | undefined,
  configured: Vkey[],
  channel?: string,
): Promise<ChannelWitnessSummary[]> {
  const ldb = db as Kysely<LedgerTables>;
  let q = ldb.selectFrom('ledger_channel').select(['id', 'name']).orderBy('id');
  if (channel) q = q.where('name', '=', channel);
  const out: ChannelWitnessSummary[] = [];
  for (const ch of await q.execute()) {
    const head = await latestCheckpoint(db, ch.id);
    const size = Number(head?.size ?? 0);
    const quorum = await quorumOf(db, ch.id, head, policy, configured);
    let lastWitnessed = quorum.ok ? size : 0;
    if (policy && !quorum.ok) {
      const sizes = await ldb
        .selectFrom('ledger_cosignature')
        .select('size')
        .distinct()
        .where('channelId', '=', ch.id)
        .where('size', '<', size)
        .orderBy('size', 'desc')
        .execute();
      for (const { size: s } of sizes) {
        const cp = await ldb
          .selectFrom('ledger_checkpoint')
          .selectAll()
          .where('channelId', '=', ch.id)
          .where('size', '=', s)
          .executeTakeFirst();
        if (cp && (await quorumOf(db, ch.id, cp, policy, configured)).ok) {
          lastWitnessed = Number(s);
          break;
        }
      }
    }
    out.push({ channel: ch.name, size, quorum, required: !!policy, lastWitnessed });
  }
  return out;
}

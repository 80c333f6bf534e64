/**
 * The witness part of `npm run ledger:verify` (docs/ledger.md section 11.4): for each channel, the
 * latest checkpoint that carries cosignatures (`ledger_cosignature`; else the latest checkpoint), its
 * cosigned note (server/ledger/witnessPush.ts `cosignedNote`), and the cosignatures that verify against
 * the policy's witnesses (C2SP tlog-policy) or, without a policy, the configured ones. The quorum is
 * required only where a policy is given.
 */
import type { Kysely } from 'kysely';
import { evaluatePolicy, policyWitnesses, type Policy, type QuorumResult } from '../../common/ledger/policy';
import { verifiedCosigners, type Vkey } from '../../common/ledger/witness';
import { latestCheckpoint } from './checkpoints';
import type { LedgerTables } from './tables';
import { cosignedNote } from './witnessPush';

/** One channel's witness summary. */
export interface ChannelWitnessSummary {
  channel: string;
  /** The size of the checkpoint counted, 0 when the channel has none. */
  size: number;
  quorum: QuorumResult;
  /** Whether a policy requires the quorum. */
  required: boolean;
}

/** Summarises every channel (or `channel` only). */
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
    const top = await ldb
      .selectFrom('ledger_cosignature')
      .select(['size'])
      .where('channelId', '=', ch.id)
      .orderBy('size', 'desc')
      .limit(1)
      .executeTakeFirst();
    const cp = top
      ? await ldb
          .selectFrom('ledger_checkpoint')
          .selectAll()
          .where('channelId', '=', ch.id)
          .where('size', '=', top.size)
          .executeTakeFirst()
      : await latestCheckpoint(db, ch.id);
    const note = cp ? await cosignedNote(db, ch.id, cp) : '';
    let quorum: QuorumResult;
    if (policy) {
      const signed = note ? await verifiedCosigners(note, policyWitnesses(policy)) : [];
      quorum = evaluatePolicy(
        policy,
        signed.map((s) => s.name),
      );
    } else {
      const signed = note
        ? await verifiedCosigners(
            note,
            configured.map((k) => ({ name: k.name, publicKey: k.publicKey })),
          )
        : [];
      quorum = {
        ok: true,
        cosigned: signed.length,
        witnesses: configured.length,
        cosigners: signed.map((s) => s.name),
      };
    }
    out.push({ channel: ch.name, size: cp?.size ?? 0, quorum, required: !!policy });
  }
  return out;
}

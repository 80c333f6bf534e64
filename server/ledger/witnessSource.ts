/**
 * The pusher's view of the log (server/ledger/witnessPush.ts `CheckpointSource`): the channels, each
 * channel's latest signed checkpoint, and RFC 6962 consistency proofs from the stored hashes
 * (`app.ledger.consistencyProof`, server/ledger/tree.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { latestCheckpoint } from './checkpoints';
import type { LedgerTables } from './tables';
import type { CheckpointSource } from './witnessPush';

/** The log of `app` as a checkpoint source. */
export function logCheckpointSource(app: FastifyInstance): CheckpointSource {
  const db = app.db as unknown as Kysely<LedgerTables>;
  return {
    channels: () => db.selectFrom('ledger_channel').select(['id', 'name']).orderBy('id').execute(),
    latest: async (channelId) => {
      const cp = await latestCheckpoint(db, channelId);
      return cp && { size: Number(cp.size), rootHash: cp.rootHash, note: cp.note };
    },
    consistency: (channelId, oldSize, newSize) => app.ledger.consistencyProof(channelId, newSize, oldSize),
  };
}

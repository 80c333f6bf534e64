/**
 * The witnesses plugin (docs/witnesses.md section 11): reads the witness policy (`LEDGER_WITNESS_POLICY`, a
 * C2SP tlog-policy file) and the witnesses to push to (`LEDGER_WITNESSES`, plus the policy's witnesses
 * with a URL), refusing to start on a malformed one, and runs the pusher (server/ledger/witnessPush.ts):
 * after every committed block and every `LEDGER_WITNESS_INTERVAL_MS`, the latest checkpoint of each
 * channel goes to each witness; on PostgreSQL only the orderer pushes. Decorates `app.witnesses`.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Policy } from '../../../common/ledger/policy';
import type { LedgerTables } from '../../ledger/tables';
import { logCheckpointSource } from '../../ledger/witnessSource';
import { WitnessPusher, type ConfiguredWitness } from '../../ledger/witnessPush';

declare module 'fastify' {
  interface FastifyInstance {
    witnesses: {
      /** The policy, when `LEDGER_WITNESS_POLICY` is set. */
      policy?: Policy;
      /** Every witness the log pushes to. */
      list: ConfiguredWitness[];
      pusher: WitnessPusher;
    };
  }
}

export default fp(
  async function witnesses(app: FastifyInstance) {
    const { policy, list } = app.witnessMemory.config;
    const db = app.db as unknown as Kysely<LedgerTables>;
    const pusher = new WitnessPusher(app.db as Kysely<any>, list, logCheckpointSource(app), {
      active: () => (app.ledger as { isOrderer?: () => boolean }).isOrderer?.() ?? true,
      log: (msg, err) => (err ? app.log.warn({ err }, msg) : app.log.warn(msg)),
      memory: app.witnessMemory,
      // A refusal: ask that witness what it holds now and check the head against it (alarm if not).
      onRefusal: async (channelId, w) => {
        const channels = await db.selectFrom('ledger_channel').select(['id', 'name']).execute();
        const origins = channels.map((c) => app.checkpoints.origin(c.name));
        await app.witnessMemory.ask(w, origins, app.checkpoints.checkOriginNote);
        const ch = channels.find((c) => c.id === channelId);
        if (ch) await app.checkpoints.reviewWitnessed(ch.id, ch.name);
      },
    });
    app.decorate('witnesses', { policy, list, pusher });
    // After each block (its checkpoint is signed in the block's transaction, the last commit hook): push
    // soon after the commit. A round that starts before the commit pushes the previous checkpoint; the
    // next block or the timer sends the latest.
    if (list.length > 0)
      app.ledger.onCommit(async () => {
        setTimeout(() => pusher.nudge(), 20).unref();
      });
    if (list.length > 0)
      app.log.info(
        `pushing checkpoints to ${list.length} witness(es): ${list.map((w) => `${w.vkey.name} at ${w.url}`).join(', ')}`,
      );
    app.addHook('onReady', async () => pusher.start(app.config.ledgerWitnessIntervalMs));
    app.addHook('preClose', async () => pusher.stop());
  },
  { name: 'witnesses', dependencies: ['ledger'] },
);

/**
 * The ledger plugin: creates the embedded ledger over `app.db` (docs/ledger.md), registers the commit
 * hooks that mark records on chain and move chaincodes through their lifecycle, opens the default channel, cuts whatever a previous run left pending
 * (crash recovery), and decorates `app.ledger` (the `Ledger` interface). Block cutting follows
 * `LEDGER_BATCH_SIZE` / `LEDGER_BATCH_TIMEOUT_MS` (server/config.ts). Closing the app cuts what is
 * pending, then stops the cutter. On PostgreSQL (`DATABASE_URL`) several server processes may share the
 * database: one of them, elected through an advisory lock, cuts the blocks (server/ledger/orderer.ts).
 * It also loads the checkpoint signing key (server/ledger/checkpoints.ts),
 * logs its fingerprint, signs a checkpoint in every block's database transaction and decorates `app.checkpoints`.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { applyLifecycle } from '../../ledger/chaincode';
import { createEmbeddedLedger } from '../../ledger/embedded';
import { PgOrdererElection } from '../../ledger/orderer';
import { CheckpointSigner, loadSigningKey } from '../../ledger/checkpoints';
import { markRecordsOnChain, RECORD_CHANNEL } from '../../ledger/records';
import type { Ledger } from '../../../common/ledger/types';

declare module 'fastify' {
  interface FastifyInstance {
    ledger: Ledger;
    checkpoints: CheckpointSigner;
  }
}

export default fp(
  async function ledger(app: FastifyInstance) {
    const key = await loadSigningKey({
      dataDir: app.config.dataDir,
      envKey: app.config.ledgerSigningKey,
      name: app.config.ledgerKeyName,
    });
    app.log.info(
      { fingerprint: key.fingerprint, vkey: key.vkey, source: key.source },
      `ledger signing key ${key.name}, SHA-256 fingerprint ${key.fingerprint}`,
    );
    const signer = new CheckpointSigner(app.db, key, (err, msg) => app.log.error({ err }, msg));
    const ledger = createEmbeddedLedger(app.db, {
      batchSize: app.config.ledgerBatchSize,
      batchTimeoutMs: app.config.ledgerBatchTimeoutMs,
      logError: (err, msg) => app.log.error({ err }, msg),
      election:
        app.config.databaseUrl && /^postgres(ql)?:\/\//.test(app.config.databaseUrl)
          ? new PgOrdererElection(app.config.databaseUrl, {
              log: (msg, err) => (err ? app.log.warn({ err }, msg) : app.log.info(msg)),
            })
          : undefined,
    });
    ledger.onCommit(markRecordsOnChain);
    ledger.onCommit(applyLifecycle);
    // Last of the commit hooks: the channel's checkpoint is signed and stored in the block's own
    // database transaction (one commit for both; answered callers find it signed).
    ledger.onCommit(signer.signInBlock);
    await ledger.start();
    await ledger.ensureChannel(RECORD_CHANNEL);
    await signer.signHeads();
    app.decorate('ledger', ledger as Ledger);
    app.decorate('checkpoints', signer);
    // preClose runs before every onClose hook, so the block cutter stops before the db plugin closes the connection.
    app.addHook('preClose', async () => ledger.close());
  },
  { name: 'ledger', dependencies: [] },
);

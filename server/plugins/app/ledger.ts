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
import { isPostgresUrl } from '../../db/connect';
import { join } from 'node:path';
import { CheckpointSigner, loadSigningKey, SIGNED_STATE_FILE } from '../../ledger/checkpoints';
import { ed25519PrivateKey } from '../../ledger/ed25519Key';
import { originOf, resolveOriginPrefix } from '../../ledger/origin';
import { markRecordsOnChain, RECORD_CHANNEL } from '../../ledger/records';
import { LedgerError, type Ledger } from '../../../common/ledger/types';
import type { Kysely } from 'kysely';
import type { LedgerTables } from '../../ledger/tables';
import { loadWitnessConfig } from '../../ledger/witnessConfig';
import { WitnessMemory } from '../../ledger/witnessMemory';

declare module 'fastify' {
  interface FastifyInstance {
    ledger: Ledger;
    checkpoints: CheckpointSigner;
    /** What the witnesses remember of the log (server/ledger/witnessMemory.ts). */
    witnessMemory: WitnessMemory;
  }
}

export default fp(
  async function ledger(app: FastifyInstance) {
    const prefix = await resolveOriginPrefix(app.db, app.config.ledgerOrigin, app.config.ledgerOriginShared);
    const key = await loadSigningKey({
      dataDir: app.config.ledgerKeyDir,
      envKey: app.config.ledgerSigningKey,
      name: originOf(prefix, RECORD_CHANNEL),
    });
    app.log.info(
      { fingerprint: key.fingerprint, vkey: key.vkey, source: key.source },
      `ledger signing key ${key.name}, SHA-256 fingerprint ${key.fingerprint}`,
    );
    const memory = new WitnessMemory(await loadWitnessConfig(app.config), {
      log: (m) => app.log.warn(m),
    });
    const ledger = createEmbeddedLedger(app.db, {
      batchSize: app.config.ledgerBatchSize,
      batchTimeoutMs: app.config.ledgerBatchTimeoutMs,
      logError: (err, msg) => app.log.error({ err }, msg),
      election: isPostgresUrl(app.config.databaseUrl)
        ? new PgOrdererElection(app.config.databaseUrl, {
            log: (msg, err) => (err ? app.log.warn({ err }, msg) : app.log.info(msg)),
          })
        : undefined,
    });
    const signer = new CheckpointSigner(app.db, key, ledger.writes.tree, {
      prefix,
      previousKey: app.config.ledgerPreviousSigningKey
        ? ed25519PrivateKey(app.config.ledgerPreviousSigningKey, 'LEDGER_PREVIOUS_SIGNING_KEY')
        : undefined,
      logRotation: (origin, size) =>
        app.log.warn(
          `ledger key rotation: the checkpoint of ${size} entries of ${origin} now carries the new key's signature beside the previous key's (the transition checkpoint); publish the new vkey ${key.vkey}`,
        ),
      stateFile: join(app.config.ledgerKeyDir, SIGNED_STATE_FILE),
      witnessed: (origin) => memory.checkpoints(origin),
      logError: (err, msg) => app.log.error({ err }, msg),
      logAlarm: (alarm) =>
        app.log.error(
          { alarm },
          `LEDGER ALARM (${alarm.kind}) on ${alarm.origin}: ${alarm.reason}. Nothing is signed and put on chain answers 503 until an operator resolves it (docs/ledger.md section 10)`,
        ),
    });
    ledger.writes.setHalt(signer.halted);
    ledger.onBlockCommitted(signer.committed);
    ledger.onCommit(markRecordsOnChain);
    ledger.onCommit(applyLifecycle);
    // Last of the commit hooks: the channel's checkpoint is signed and stored in the block's own
    // database transaction (one commit for both; answered callers find it signed).
    ledger.onCommit(signer.signInBlock);
    // The log's memory outside the box: before anything is signed, ask each witness what it cosigned of
    // every channel's origin; the signer refuses a head that does not extend it (issue 31).
    if (memory.witnesses.length > 0) {
      const channels = await (app.db as unknown as Kysely<LedgerTables>)
        .selectFrom('ledger_channel')
        .select('name')
        .execute();
      const names = new Set([RECORD_CHANNEL, ...channels.map((c) => c.name)]);
      await memory.askAll(
        [...names].map((n) => signer.origin(n)),
        signer.checkOriginNote,
      );
    }
    // The signer first: it loads the last signed checkpoints (and raises any alarm) before recovery cuts blocks.
    await signer.start();
    await ledger.start();
    try {
      await ledger.ensureChannel(RECORD_CHANNEL);
    } catch (err) {
      // A halted log (an alarm at its genesis: the key directory remembers a longer log of this origin)
      // still starts, to show the alarm; it signs nothing.
      if (!(err instanceof LedgerError && err.code === 'halted')) throw err;
    }
    app.decorate('ledger', ledger as Ledger);
    app.decorate('checkpoints', signer);
    app.decorate('witnessMemory', memory);
    // preClose runs before every onClose hook, so the block cutter stops before the db plugin closes the connection.
    app.addHook('preClose', async () => ledger.close());
  },
  { name: 'ledger', dependencies: [] },
);

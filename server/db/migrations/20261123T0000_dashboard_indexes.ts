/**
 * Index for the Fabric dashboard's chaincode count (server/ledger/explorer.ts `chaincodeNames`): the
 * chaincodes the committed transactions use, found by a loose index scan of `ledger_tx_chaincode`.
 * (The registry dashboard's per-day on-chain counts use `artworks_blockTime` / `authors_blockTime`,
 * declared in the schemas' `x-storage.indexes`.) Frozen: never edit after it lands.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('ledger_tx_chaincode')
    .ifNotExists()
    .on('ledger_tx')
    .column('chaincode')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ledger_tx_chaincode').ifExists().execute();
}

/**
 * Indexes for the dashboards' aggregates (server/routes/artmanager/dashboard, server/ledger/explorer.ts
 * `countChaincodes`). Frozen: never edit after it lands.
 * - `artworks_acquisition_year`: the expression the "acquisitions per year" chart groups by (Tate's
 *   `dealInfo.acquisitionYear`), so the count is an index scan, not a JSON parse per row;
 * - `artworks_blockTime`, `authors_blockTime`: the "on chain over time" chart (records per day put on chain);
 * - `ledger_tx_chaincode`: the chaincodes the committed transactions use (a loose index scan).
 */
import { sql, type Kysely } from 'kysely';

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

/** The SQL expression of an artwork's acquisition year (integer or null), per dialect. */
export function acquisitionYearSql(pg: boolean) {
  return pg
    ? sql`((("dealInfo")::jsonb ->> 'acquisitionYear')::integer)`
    : sql`json_extract("dealInfo", '$.acquisitionYear')`;
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await sql`CREATE INDEX IF NOT EXISTS artworks_acquisition_year ON artworks (${acquisitionYearSql(pg)})`.execute(
    db,
  );
  await db.schema
    .createIndex('artworks_blockTime')
    .ifNotExists()
    .on('artworks')
    .column('blockTime')
    .execute();
  await db.schema.createIndex('authors_blockTime').ifNotExists().on('authors').column('blockTime').execute();
  await db.schema
    .createIndex('ledger_tx_chaincode')
    .ifNotExists()
    .on('ledger_tx')
    .column('chaincode')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of [
    'artworks_acquisition_year',
    'artworks_blockTime',
    'authors_blockTime',
    'ledger_tx_chaincode',
  ])
    await db.schema.dropIndex(name).ifExists().execute();
}

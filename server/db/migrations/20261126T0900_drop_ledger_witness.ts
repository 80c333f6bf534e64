/**
 * Drops `ledger_witness`, the table of the admin-only cosign call that issue 19 removed: nothing reads or
 * writes it since witnesses are called by the log (C2SP tlog-witness; their cosignatures are in
 * `ledger_cosignature`, their state in `ledger_witness_status`, migration 20261126T0200). `down` leaves it
 * dropped. Frozen once landed: never edit, add a new migration
 * instead. Portable SQL (SQLite and PostgreSQL).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ledger_witness').ifExists().execute();
}

/** Not recreated: nothing used the table (its rows were cosignatures of the removed call). */
export async function down(): Promise<void> {}

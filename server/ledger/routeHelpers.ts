/** Small pieces shared by the ledger's routes (put on chain, /baas-api). */
import { MAX_ID } from '../../kernel/dialect/schemaRegistry';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database';
import { compiledSql, readQuery } from '../db/connect';
import type { RecordTable } from './records';

/** Body `{id}`: a positive integer, nothing else. */
export const idBody = {
  type: 'object',
  properties: { id: { type: 'integer', minimum: 1, maximum: MAX_ID } },
  required: ['id'],
  additionalProperties: false,
} as const;

/**
 * The chain columns of a stored record (tx id, last digest and version), read through `readQuery`
 * (server/db/connect.ts: a prepared statement outside a transaction, Kysely inside one).
 * @throws Error when the record does not exist (the routes read it, with its 404, first).
 */
export async function storedChainState(db: Kysely<Database>, table: RecordTable, id: number) {
  // Compiled once per dialect and table (Kysely would rebuild it per call).
  const text = compiledSql(db, `chainState:${table}`, () =>
    db.selectFrom(table).select(['chain', 'chainDigest', 'chainVersion']).where('id', '=', 0).compile(),
  );
  const [row] = await readQuery<{ chain: string | null; chainDigest: string | null; chainVersion: number }>(
    db,
    text,
    [id],
  );
  if (!row) throw new Error(`${table} ${id} does not exist`);
  return { chain: row.chain, chainDigest: row.chainDigest, chainVersion: Number(row.chainVersion) };
}

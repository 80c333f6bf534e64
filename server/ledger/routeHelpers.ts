/** Small pieces shared by the ledger's routes (put on chain, /baas-api). */
import { MAX_ID } from '../../common/schemaRegistry';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database';

/** Body `{id}`: a positive integer, nothing else. */
export const idBody = {
  type: 'object',
  properties: { id: { type: 'integer', minimum: 1, maximum: MAX_ID } },
  required: ['id'],
  additionalProperties: false,
} as const;

/** The chain columns of a stored record (tx id, last digest and version). */
export async function storedChainState(db: Kysely<Database>, table: 'authors' | 'artworks', id: number) {
  const row = await db
    .selectFrom(table)
    .select(['chain', 'chainDigest', 'chainVersion'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { chain: row.chain, chainDigest: row.chainDigest, chainVersion: Number(row.chainVersion) };
}

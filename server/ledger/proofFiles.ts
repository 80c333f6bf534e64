/**
 * A record's offline proof as a C2SP tlog-proof file (docs/witnesses.md section 11.6,
 * common/ledger/proofFile.ts): the entry is the record's latest put-on-chain transaction (its canonical
 * JSON, the bytes the log hashed as its leaf), at its index in the channel's log, with the inclusion proof
 * in the checkpoint that the most witnesses cosigned among the latest ones (the latest checkpoint
 * carrying cosignatures, else the latest), and that checkpoint's note with the log's signature and every
 * stored cosignature.
 */
import type { Kysely } from 'kysely';
import { formatProofFile } from '../../common/ledger/proofFile';
import type { Hash } from '../../common/ledger/tlog';
import { checkpointAt, latestCheckpoint, type StoredCheckpoint } from './checkpoints';
import type { LedgerTables } from './tables';
import { storedTx, txCanonicalJson } from './tx';
import { cosignedNote } from './witnessPush';

/** What the proof file needs of the stored log (server/ledger/tree.ts `TreeStore`). */
export interface ProofTree {
  entryIndex(channelId: number, blockNumber: number, txIndex: number): Promise<number | undefined>;
  inclusionProof(channelId: number, size: number, index: number): Promise<Hash[]>;
}

/**
 * The checkpoint a proof should use for a channel: the latest carrying cosignatures when it covers
 * `index`, else the latest.
 */
export async function proofCheckpoint(
  db: Kysely<any>,
  channelId: number,
  index: number,
): Promise<StoredCheckpoint | undefined> {
  const top = await (db as Kysely<LedgerTables>)
    .selectFrom('ledger_cosignature')
    .select('size')
    .where('channelId', '=', channelId)
    .where('size', '>', index)
    .orderBy('size', 'desc')
    .limit(1)
    .executeTakeFirst();
  const cosigned = top && (await checkpointAt(db, channelId, top.size));
  if (cosigned) return cosigned;
  const latest = await latestCheckpoint(db, channelId);
  return latest && latest.size > index ? latest : undefined;
}

/**
 * The tlog-proof file of transaction `txId`, or undefined when it is not in a signed checkpoint yet.
 * @throws Error when the transaction is unknown.
 */
export async function txProofFile(
  db: Kysely<any>,
  tree: ProofTree,
  txId: string,
): Promise<string | undefined> {
  const ldb = db as Kysely<LedgerTables>;
  const tx = await ldb
    .selectFrom('ledger_tx')
    .innerJoin('ledger_channel', 'ledger_channel.id', 'ledger_tx.channelId')
    .select([
      'ledger_tx.channelId',
      'ledger_channel.name as channel',
      'ledger_tx.blockNumber',
      'ledger_tx.txIndex',
      'ledger_tx.txId',
      'ledger_tx.chaincode',
      'ledger_tx.function',
      'ledger_tx.args',
      'ledger_tx.creator',
      'ledger_tx.timestamp',
      'ledger_tx.validationCode',
    ])
    .where('ledger_tx.txId', '=', txId)
    .executeTakeFirst();
  if (!tx) throw new Error(`transaction ${txId} not found`);
  const index = await tree.entryIndex(tx.channelId, Number(tx.blockNumber), Number(tx.txIndex));
  if (index === undefined) return undefined;
  const cp = await proofCheckpoint(db, tx.channelId, index);
  if (!cp) return undefined;
  const entry = new TextEncoder().encode(txCanonicalJson(storedTx(tx, tx.channel)));
  return formatProofFile({
    extra: entry,
    index,
    proof: await tree.inclusionProof(tx.channelId, Number(cp.size), index),
    note: await cosignedNote(db, tx.channelId, cp),
  });
}

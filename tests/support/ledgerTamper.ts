/**
 * Test helper: forging the ledger the way an attacker with write access to the database would, so the
 * tamper and witness tests can show that signed checkpoints and witnesses catch it.
 */
import type { Kysely } from 'kysely';
import { fromHex, toHex } from '../../common/ledger/hex';
import { arrayHashReader, storedHashesForRecordHash, treeHash, type Hash } from '../../common/ledger/tlog';
import { merkleRoot } from '../../server/ledger/merkle';
import type { LedgerTables } from '../../server/ledger/tables';
import { blockHashHex, sha256Hex, txLeafHash } from '../../server/ledger/tx';

/** Re-hashes block `from` and every later block of channel 1 from their stored transactions. */
export async function rehashFrom(db: Kysely<any>, from: number): Promise<void> {
  const ldb = () => db as Kysely<LedgerTables>;
  const blocks = await ldb()
    .selectFrom('ledger_block')
    .selectAll()
    .where('channelId', '=', 1)
    .orderBy('number')
    .execute();
  let previous = blocks.find((b) => b.number === from - 1)?.blockHash ?? '';
  for (const b of blocks.filter((x) => x.number >= from)) {
    const txs = await ldb()
      .selectFrom('ledger_tx')
      .selectAll()
      .where('channelId', '=', 1)
      .where('blockNumber', '=', b.number)
      .orderBy('txIndex')
      .execute();
    const leaves = [];
    for (const r of txs) {
      const leaf = txLeafHash({ ...r, channel: 'artchannel', args: JSON.parse(r.args) as string[] });
      leaves.push(leaf);
      await ldb()
        .updateTable('ledger_tx')
        .set({ leafHash: toHex(leaf) })
        .where('txId', '=', r.txId)
        .execute();
    }
    const dataHash = toHex(merkleRoot(leaves));
    const blockHash = blockHashHex({ number: b.number, previousHash: previous, dataHash });
    await ldb()
      .updateTable('ledger_block')
      .set({ previousHash: previous, dataHash, blockHash: `tmp${b.number}` })
      .where('channelId', '=', 1)
      .where('number', '=', b.number)
      .execute();
    await ldb()
      .updateTable('ledger_block')
      .set({ blockHash })
      .where('channelId', '=', 1)
      .where('number', '=', b.number)
      .execute();
    previous = blockHash;
  }
}

/**
 * Rewrites channel 1's stored Merkle log (`ledger_tree`) from its stored leaf hashes, as a forger who
 * re-hashed the blocks would, so that the log is consistent with the forged transactions.
 */
export async function rebuildTree(db: Kysely<any>): Promise<void> {
  const ldb = db as Kysely<LedgerTables>;
  const stored: Hash[] = [];
  const read = arrayHashReader(stored);
  let size = 0;
  const blocks = await ldb
    .selectFrom('ledger_block')
    .select('number')
    .where('channelId', '=', 1)
    .orderBy('number')
    .execute();
  for (const { number } of blocks) {
    const start = stored.length;
    const txs = await ldb
      .selectFrom('ledger_tx')
      .select('leafHash')
      .where('channelId', '=', 1)
      .where('blockNumber', '=', number)
      .orderBy('txIndex')
      .execute();
    for (const t of txs) stored.push(...storedHashesForRecordHash(size++, fromHex(t.leafHash), read));
    await ldb
      .updateTable('ledger_tree')
      .set({
        size,
        hashStart: start,
        rootHash: toHex(treeHash(size, read)),
        hashes: stored.slice(start).map(toHex).join(''),
      })
      .where('channelId', '=', 1)
      .where('blockNumber', '=', number)
      .execute();
  }
}

/**
 * The attacker's forgery: the put transaction of block `blockNumber` (or the transaction `txId`) of
 * channel 1 gets another record digest (`args[2]`), then every later block and the Merkle log are
 * re-hashed consistently, so only the signed checkpoints and the witnesses can tell.
 */
export async function forgeRecordTx(
  db: Kysely<any>,
  at: { blockNumber: number } | { txId: string },
): Promise<void> {
  const ldb = db as Kysely<LedgerTables>;
  const q = ldb.selectFrom('ledger_tx').selectAll();
  const tx = await (
    'txId' in at
      ? q.where('txId', '=', at.txId)
      : q.where('channelId', '=', 1).where('blockNumber', '=', at.blockNumber)
  ).executeTakeFirstOrThrow();
  const args = JSON.parse(tx.args) as string[];
  args[2] = sha256Hex('forged');
  await ldb
    .updateTable('ledger_tx')
    .set({ args: JSON.stringify(args) })
    .where('txId', '=', tx.txId)
    .execute();
  await rehashFrom(db, Number(tx.blockNumber));
  await rebuildTree(db);
}

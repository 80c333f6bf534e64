/**
 * Test helper: forging the ledger the way an attacker with write access to the database would, so the
 * tamper and witness tests can show that signed checkpoints and witnesses catch it.
 */
import type { Kysely } from 'kysely';
import { toHex } from '../../common/ledger/hex';
import { merkleRoot } from '../../server/ledger/merkle';
import type { LedgerTables } from '../../server/ledger/tables';
import { blockHashHex, txLeafHash } from '../../server/ledger/tx';

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

/**
 * The public proof calls' cache of upper stored hashes (hashCache.ts, tree.ts `readCached`): proofs
 * through it are the proofs of the stored rows and verify (RFC 6962 section 2.1), for generated sizes
 * and indexes; a block that rolls back never leaves its hashes in the cache.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { checkRecord, checkTree, storedHashIndex } from '../../common/ledger/tlog';
import { connect } from '../db/connect';
import { migrateToLatest } from '../db/migrator';
import { TreeStore } from './tree';

const leaves = (n: number) => Array.from({ length: n }, () => randomBytes(32).toString('hex'));

describe('the upper-hash cache of the proof calls', () => {
  let db: Kysely<any>;
  let tree: TreeStore;
  let ch: number;
  let blocks = 0;
  const append = (trx: Kysely<any>, n: number) => tree.appendBlock(trx, ch, blocks++, leaves(n));

  beforeAll(async () => {
    db = connect({ dataDir: '', sqliteFile: ':memory:' }).db as Kysely<any>;
    await migrateToLatest(db);
    ({ id: ch } = await db
      .insertInto('ledger_channel')
      .values({ name: 'cachechannel', createdAt: '2026-11-26 00:00:00' })
      .returning('id')
      .executeTakeFirstOrThrow());
    tree = new TreeStore(db);
    // 4,000 entries: levels 8 to 11 complete (cached), block sizes that do not align with tiles.
    for (let i = 0; i < 40; i++) await db.transaction().execute((trx) => append(trx, 100));
  });
  afterAll(() => db.destroy());

  it('answers the stored rows’ proofs, which verify, for any size and index', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 4000 }), fc.nat(), fc.nat(), async (size, a, b) => {
        const index = a % size;
        const from = 1 + (b % size);
        const root = Buffer.from(await tree.treeHashAt(ch, size), 'hex');
        const proof = await tree.inclusionProof(ch, size, index);
        expect(proof).toEqual(await tree.inclusionProof(ch, size, index, db));
        const [leaf] = await tree.readHashes(ch, [storedHashIndex(0, index)]);
        expect(checkRecord(proof, size, root, index, leaf)).toBe(true);
        const cons = await tree.consistencyProof(ch, size, from);
        expect(cons).toEqual(await tree.consistencyProof(ch, size, from, db));
        const old = Buffer.from(await tree.treeHashAt(ch, from), 'hex');
        expect(checkTree(cons, size, root, from, old)).toBe(true);
      }),
      { numRuns: 100 },
    );
  }, 30_000);

  it('never keeps a hash read inside a block that then rolls back', async () => {
    // 96 entries complete the subtree of 4,096 entries (level 12): read through the cache inside the
    // block's transaction, then rolled back.
    await expect(
      db.transaction().execute(async (trx) => {
        await append(trx, 96);
        await tree.inclusionProof(ch, 4096, 5);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    blocks--;
    await db.transaction().execute((trx) => append(trx, 96));
    const root = Buffer.from(await tree.treeHashAt(ch, 4096), 'hex');
    const [leaf] = await tree.readHashes(ch, [storedHashIndex(0, 5)]);
    expect(checkRecord(await tree.inclusionProof(ch, 4096, 5), 4096, root, 5, leaf)).toBe(true);
  });
});

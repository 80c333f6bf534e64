/**
 * C2SP tlog-tiles "Partial Tiles" (issue 31; docs/ledger.md section 10): the log serves the partial tile
 * (and partial entry bundle) of every size it signed a checkpoint for, also once the full tile exists, so
 * that a client holding an older checkpoint reads that tree; a width no checkpoint ever had, and anything
 * beyond the latest signed size, answers 404. Blocks of exactly 10 transactions (10 puts at once, batch
 * size 10) make the checkpoint sizes 1, 11, 21, ..., 261: widths such as 5 at tile 0/000 were never a
 * checkpoint's. Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL. Go's reading of such tiles
 * through tlog.TileHashReader is in tlog-interop.test.ts.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAuthor, createTestApp, type TestApp } from './helpers';
import { putOnChain } from './ledgerHelpers';
import type { LedgerTables } from '../../server/ledger/tables';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const PREFIX = '/baas-api/public/log/artchannel';
const BATCH = 10;
const BLOCKS = 26;

let t: TestApp;
beforeAll(async () => {
  // The batch timeout never fires first: each block is cut when its 10th transaction arrives.
  t = await createTestApp({
    ledgerBatchSize: BATCH,
    ledgerBatchTimeoutMs: 30_000,
    publicRateLimit: 1_000_000,
  });
  for (let b = 0; b < BLOCKS; b++) {
    const ids: number[] = [];
    for (let i = 0; i < BATCH; i++) ids.push(await addAuthor(t, `Author ${b}.${i}`));
    await Promise.all(ids.map((id) => putOnChain(t, 'authors', id)));
  }
}, 300_000);
afterAll(async () => t?.close());

/** `GET <prefix>/<path>` without a token: status, Cache-Control and the raw bytes. */
async function served(path: string): Promise<{ status: number; cache?: string; bytes: Buffer }> {
  const r = await t.app.inject({ method: 'GET', url: `${PREFIX}/${path}` });
  return {
    status: r.statusCode,
    cache: r.headers['cache-control'] as string | undefined,
    bytes: r.rawPayload,
  };
}

describe('partial tiles of older checkpoints', () => {
  it('checkpoint sizes are 1, 11, ..., 261 (blocks of 10 after the genesis transaction)', async () => {
    const rows = await (t.app.db as unknown as Kysely<LedgerTables>)
      .selectFrom('ledger_checkpoint')
      .select('size')
      .orderBy('size')
      .execute();
    const sizes = rows.map((r) => Number(r.size));
    expect(sizes).toEqual(Array.from({ length: BLOCKS + 1 }, (_, i) => 1 + BATCH * i));
    const status = (await t.get(`${PREFIX}/status`, null)).body.data;
    expect(status.signedSize).toBe(261);
  });

  it("serves an older checkpoint's partial tile and entry bundle: the prefix of the full tile's bytes, immutable", async () => {
    const full = await served('tile/0/000');
    expect(full).toMatchObject({ status: 200, cache: IMMUTABLE });
    expect(full.bytes.length).toBe(256 * 32);
    const fullBundle = await served('tile/entries/000');
    expect(fullBundle).toMatchObject({ status: 200, cache: IMMUTABLE });
    for (const w of [1, 11, 121, 251]) {
      const tile = await served(`tile/0/000.p/${w}`);
      expect(tile, `0/000.p/${w}`).toMatchObject({ status: 200, cache: IMMUTABLE });
      expect(tile.bytes.equals(full.bytes.subarray(0, w * 32)), `0/000.p/${w}`).toBe(true);
      const bundle = await served(`tile/entries/000.p/${w}`);
      expect(bundle, `entries/000.p/${w}`).toMatchObject({ status: 200, cache: IMMUTABLE });
      expect(fullBundle.bytes.subarray(0, bundle.bytes.length).equals(bundle.bytes)).toBe(true);
      expect(countEntries(bundle.bytes)).toBe(w);
    }
  });

  it('a width no checkpoint ever had answers 404', async () => {
    for (const path of [
      'tile/0/000.p/5',
      'tile/0/000.p/12',
      'tile/0/000.p/255',
      'tile/entries/000.p/5',
      'tile/entries/000.p/250',
      'tile/0/001.p/3', // below the signed size's width 5, but 259 was never signed
      'tile/entries/001.p/4',
    ])
      expect((await served(path)).status, path).toBe(404);
  });

  it("the latest size's partial tiles and the full ones are unchanged; beyond the signed size is 404", async () => {
    const latest = await served('tile/0/001.p/5');
    expect(latest).toMatchObject({ status: 200, cache: IMMUTABLE });
    expect(latest.bytes.length).toBe(5 * 32);
    expect(countEntries((await served('tile/entries/001.p/5')).bytes)).toBe(5);
    expect((await served('tile/1/000.p/1')).bytes.length).toBe(32);
    for (const path of [
      'tile/0/001.p/6',
      'tile/0/001',
      'tile/entries/001.p/6',
      'tile/entries/001',
      'tile/0/002.p/1',
      'tile/1/000.p/2',
      'tile/1/000',
      'tile/2/000.p/1',
      'tile/0/1', // not a canonical path
    ])
      expect((await served(path)).status, path).toBe(404);
  });
});

/** The number of entries of a C2SP entry bundle (each a big-endian uint16 length, then its bytes). */
function countEntries(bundle: Buffer): number {
  let n = 0;
  for (let at = 0; at < bundle.length; n++) at += 2 + bundle.readUInt16BE(at);
  return n;
}

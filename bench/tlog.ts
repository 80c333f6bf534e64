/**
 * Transparency-log figures of issue 19 item 10 (printed, never asserted), part `tlog` of bench/ledger.ts:
 *
 * - inclusion and consistency proof time on a log of 10^6 entries (BENCH_TLOG_ENTRIES): the log is
 *   stored as the server stores it (`ledger_tree` rows of blocks of 100 entries, server/ledger/tree.ts,
 *   on a SQLite file), and each proof is the server's own call (`TreeStore.inclusionProof` /
 *   `consistencyProof`: O(log n) stored hashes read, never re-hashed), then checked as a client checks it
 *   (common/ledger/tlog.ts `checkRecord` / `checkTree`, RFC 6962 section 2.1); median and p99 of 1,000
 *   random proofs each;
 * - a hash tile's read (`TreeStore.tileData`, what `GET <prefix>/tile/0/<N>` serves), median and p99 of
 *   200 random full level-0 tiles;
 * - what a witness that missed half of that log receives to catch up: the C2SP tlog-witness
 *   add-checkpoint body (old size, consistency proof from 5·10^5 to 10^6, the signed checkpoint),
 *   in bytes, and the proof's hashes alone.
 *
 * With `TEST_DATABASE_URL` naming PostgreSQL (a role allowed to create databases), the same figures
 * follow on a scratch database there, after SQLite's (`BENCH_TLOG_PG_ENTRIES`, default 10^5: building the
 * log is the slow part on PostgreSQL).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { formatAddCheckpoint } from '../common/ledger/witness';
import { fromHex, toHex } from '../common/ledger/hex';
import { checkRecord, checkTree, storedHashIndex } from '../common/ledger/tlog';
import { connect, isPostgresUrl } from '../server/db/connect';
import { migrateToLatest } from '../server/db/migrator';
import { describeKey, signNote } from '../server/ledger/checkpoints';
import { formatCheckpoint } from '../common/ledger/note';
import type { LedgerTables } from '../server/ledger/tables';
import { TreeStore } from '../server/ledger/tree';
import { createScratchDatabase } from '../tests/support/pgAdmin';

/** Median and 99th percentile of `xs` (ms). */
function stats(xs: number[]): { p50: number; p99: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: s[Math.floor(s.length / 2)], p99: s[Math.min(s.length - 1, Math.floor(s.length * 0.99))] };
}

/** Runs the part on SQLite, then on PostgreSQL when `TEST_DATABASE_URL` names one; `out` prints a line. */
export async function runTlog(scratch: string, out: (s: string) => void): Promise<void> {
  await runTlogOn(scratch, out, 'SQLite', Number(process.env.BENCH_TLOG_ENTRIES || 1_000_000));
  const admin = process.env.TEST_DATABASE_URL;
  if (!isPostgresUrl(admin)) return;
  const pgDb = await createScratchDatabase(admin, 'baas_bench_tlog');
  try {
    await runTlogOn(
      scratch,
      out,
      'PostgreSQL',
      Number(process.env.BENCH_TLOG_PG_ENTRIES || 100_000),
      pgDb.url,
    );
  } finally {
    await pgDb.drop();
  }
}

/** The figures of the module doc on one database (`databaseUrl`, else a SQLite file under `scratch`). */
async function runTlogOn(
  scratch: string,
  out: (s: string) => void,
  label: string,
  N: number,
  databaseUrl?: string,
): Promise<void> {
  const { db } = connect({ dataDir: join(scratch, 'tlog'), databaseUrl });
  await migrateToLatest(db);
  const ldb = db as unknown as Kysely<LedgerTables>;
  const { id: channelId } = await ldb
    .insertInto('ledger_channel')
    .values({ name: 'benchchannel', createdAt: '2026-11-26 00:00:00' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const tree = new TreeStore(db);
  const t0 = performance.now();
  const PER_BLOCK = 100;
  for (let block = 0; block * PER_BLOCK < N;) {
    await db.transaction().execute(async (trx) => {
      for (let k = 0; k < 100 && block * PER_BLOCK < N; k++, block++) {
        const n = Math.min(PER_BLOCK, N - block * PER_BLOCK);
        await tree.appendBlock(
          trx,
          channelId,
          block,
          Array.from({ length: n }, () => toHex(randomBytes(32))),
        );
      }
    });
  }
  const head = (await tree.head(channelId))!;
  out(
    `\ntransparency log (RFC 6962 / C2SP tlog-tiles) on ${label}, ${N.toLocaleString('en')} entries stored as the server stores them (${Math.round((performance.now() - t0) / 1000)} s to build, ${(N / PER_BLOCK).toLocaleString('en')} blocks of ${PER_BLOCK}):`,
  );
  const root = fromHex(head.rootHash);
  const RUNS = 1000;
  const incl: number[] = [];
  const cons: number[] = [];
  const inclCheck: number[] = [];
  const consCheck: number[] = [];
  let inclHashes = 0;
  let consHashes = 0;
  for (let i = 0; i < RUNS; i++) {
    const index = Math.floor(Math.random() * N);
    let s = performance.now();
    const proof = await tree.inclusionProof(channelId, N, index);
    incl.push(performance.now() - s);
    const [leaf] = await tree.readHashes(channelId, [storedHashIndex(0, index)]);
    s = performance.now();
    if (!checkRecord(proof, N, root, index, leaf)) throw new Error(`inclusion proof of ${index} failed`);
    inclCheck.push(performance.now() - s);
    inclHashes = Math.max(inclHashes, proof.length);

    const m = 1 + Math.floor(Math.random() * (N - 1));
    s = performance.now();
    const cproof = await tree.consistencyProof(channelId, N, m);
    cons.push(performance.now() - s);
    const old = fromHex(await tree.treeHashAt(channelId, m));
    s = performance.now();
    if (!checkTree(cproof, N, root, m, old)) throw new Error(`consistency proof from ${m} failed`);
    consCheck.push(performance.now() - s);
    consHashes = Math.max(consHashes, cproof.length);
  }
  const f = (x: { p50: number; p99: number }) => `p50 ${x.p50.toFixed(3)} ms, p99 ${x.p99.toFixed(3)} ms`;
  out(
    `  inclusion proof (server, from stored hashes): ${f(stats(incl))}; checked by a client: ${f(stats(inclCheck))}; at most ${inclHashes} hashes`,
  );
  out(
    `  consistency proof (server, from stored hashes): ${f(stats(cons))}; checked by a client: ${f(stats(consCheck))}; at most ${consHashes} hashes`,
  );
  const tiles: number[] = [];
  for (let i = 0; i < 200; i++) {
    const n = Math.floor(Math.random() * Math.floor(N / 256));
    const s = performance.now();
    const data = await tree.tileData(channelId, { H: 8, L: 0, N: n, W: 256 });
    tiles.push(performance.now() - s);
    if (data.length !== 256 * 32) throw new Error(`tile 0/${n}: ${data.length} bytes`);
  }
  out(`  hash tile (level 0, 256 hashes, from stored hashes): ${f(stats(tiles))}`);
  out(
    `  goal: under 1 ms each on a log of 10^6 entries (load average ${loadavg()[0].toFixed(1)} while measured)`,
  );

  // A witness that cosigned the log at half its size catches up: one add-checkpoint call.
  const half = Math.floor(N / 2);
  const proof = await tree.consistencyProof(channelId, N, half);
  const { privateKey } = generateKeyPairSync('ed25519');
  const key = await describeKey('bench.invalid/benchchannel', privateKey, 'bench');
  const note = await signNote(
    key,
    formatCheckpoint({
      origin: key.name,
      size: N,
      rootHash: head.rootHash,
      extensions: [`time ${new Date().toISOString()}`],
    }),
  );
  const body = formatAddCheckpoint({ oldSize: half, proof, note });
  out(
    `  witness catching up from ${half.toLocaleString('en')} to ${N.toLocaleString('en')} entries: ${proof.length} proof hashes (${proof.length * 32} bytes); the whole add-checkpoint body ${Buffer.byteLength(body)} bytes (goal: at most 2 kB of proof)`,
  );
  await db.destroy();
}

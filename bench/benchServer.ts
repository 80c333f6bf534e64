/**
 * What the load benchmarks (bench/run.ts, bench/scale.ts, bench/multiInstance.ts, bench/ledger.ts)
 * share: the environment of a server process under load, waiting for a process to answer, signing in
 * as admin once it does, and inserting plain authors in bulk for put-on-chain calls.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import type { Database } from '../server/db/database';
import { connect } from '../server/db/connect';
import { migrateToLatest } from '../server/db/migrator';
import { importTate } from '../server/import/importer';
import { ensureBuilt } from '../scripts/build';

/**
 * The environment of a benchmarked server: `process.env` plus DATA_DIR, PORT on 127.0.0.1, the admin
 * `password` (a random user password), LOG_LEVEL warn and no seed.
 */
export function benchServerEnv(dataDir: string, port: number, password: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_PASSWORD: password,
    USER_PASSWORD: randomBytes(12).toString('hex'),
    LOG_LEVEL: 'warn',
    SEED: '0',
  };
}

/**
 * Runs `run` when the module at `moduleUrl` (its `import.meta.url`) is the process's entry
 * (`npx tsx bench/<name>.ts`), then exits 0, or prints the error and exits 1.
 */
export function runIfMain(moduleUrl: string, run: () => Promise<unknown>): void {
  if (!process.argv[1] || resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  run().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}

/**
 * The Tate collection files in `tateDir` (artworks.json.gz, artists.json.gz).
 * @throws `missing <file> (set TATE_DIR to the Tate data folder)` when one is absent
 */
export function tateFiles(tateDir: string): { artworksFile: string; artistsFile: string } {
  const artworksFile = join(tateDir, 'artworks.json.gz');
  const artistsFile = join(tateDir, 'artists.json.gz');
  for (const f of [artworksFile, artistsFile])
    if (!existsSync(f)) throw new Error(`missing ${f} (set TATE_DIR to the Tate data folder)`);
  return { artworksFile, artistsFile };
}

/**
 * Polls `probe` every 300 ms (a rejection counts as not yet) until it answers true.
 * @throws `<what> did not answer within <seconds> s`
 */
export async function waitFor(what: string, probe: () => Promise<boolean>, seconds: number): Promise<void> {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${what} did not answer within ${seconds} s`);
}

/**
 * Signs in as admin at `base` (POST /dev-api/user/login), retrying until the server answers with a
 * token (envelope code 0); resolves the token.
 */
export async function adminToken(
  base: string,
  password: string,
  what: string,
  seconds: number,
): Promise<string> {
  let token = '';
  await waitFor(
    what,
    async () => {
      const res = await fetch(`${base}/dev-api/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password }),
      });
      const body = (await res.json()) as { code?: number; data?: { token?: string } };
      token = body.data?.token ?? '';
      return body.code === 0 && !!token;
    },
    seconds,
  );
  return token;
}

/**
 * Inserts `n` authors named `Bench author <i>` (no introduction, portrait, chain state or mini-program
 * code), `batch` rows an INSERT; resolves their ids in order.
 */
export async function insertBenchAuthors(db: Kysely<Database>, n: number, batch: number): Promise<number[]> {
  const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
  const ids: number[] = [];
  for (let i = 0; i < n; i += batch) {
    const rows = await db
      .insertInto('authors')
      .values(
        Array.from({ length: Math.min(batch, n - i) }, (_, j) => ({
          authorName: `Bench author ${i + j}`,
          introduction: null,
          portrait: null,
          chain: null,
          chainDigest: null,
          blockTime: null,
          createTime: now,
          updateTime: now,
          wxCode: null,
          wxUrl: null,
          wxCreateTime: null,
          sourceId: null,
        })),
      )
      .returning('id')
      .execute();
    ids.push(...rows.map((r) => r.id));
  }
  return ids;
}

/**
 * Builds the server bundle, opens a fresh SQLite database under `dataDir`, migrates it and imports the
 * Tate files into it (`importTate`, its JSON-lines report to `reportFile`): the start of the benches
 * that measure a registry of the Tate's size. The caller destroys `db`.
 */
export async function importedTateDb(
  dataDir: string,
  files: { artworksFile: string; artistsFile: string },
  reportFile: string,
) {
  await ensureBuilt({ serverOnly: true });
  const { db } = connect({ dataDir });
  await migrateToLatest(db);
  return { db, summary: await importTate(db, { ...files, reportFile }) };
}

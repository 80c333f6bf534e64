/**
 * Several server processes on one PostgreSQL database (issue 10 item 5, docs/ledger.md "Several
 * instances"): three real servers share a fresh database; a token from one is accepted by all; one of
 * them, elected through the advisory lock, cuts the blocks. 1,000 put-on-chain calls are spread over the
 * three, and the orderer is killed with SIGKILL in the middle. Another process takes over; every
 * acknowledged transaction is in the ledger exactly once, in the block it was acknowledged in, with its
 * author marked on chain; block numbers are contiguous; the verify call and `npm run ledger:verify` pass.
 *
 * Needs PostgreSQL: runs when TEST_DATABASE_URL is set (`bash scripts/postgres-test-db.sh`), skipped
 * otherwise. Not a timing: the takeover time is printed, not asserted.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ORDERER_LOCK_KEY } from '../../server/ledger/orderer';
import { commandArgs, ROOT, startServerProcess, type ServerProcess } from '../support/serverProcess';
import { httpApi as api } from '../support/httpApi';
import { isPostgresUrl } from '../../server/db/connect';
import { databaseUrl } from '../support/pgAdmin';

const ADMIN_URL = process.env.TEST_DATABASE_URL;
/** The instances' shared checkpoint signing key (a base64 Ed25519 seed, LEDGER_SIGNING_KEY). */
const signingKey = randomBytes(32).toString('base64');
const onPg = isPostgresUrl(ADMIN_URL);
const PASSWORD = 'multi-instance-password';
const CALLS = 1000;

const dbName = `baas_multi_${randomBytes(6).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'baas-multi-'));
const servers: ServerProcess[] = [];

function dbUrl(): string {
  return databaseUrl(ADMIN_URL!, dbName);
}

async function query<T extends pg.QueryResultRow>(url: string, text: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** The pid of the process holding the orderer lock (from its connection's application_name). */
async function ordererPid(): Promise<number | undefined> {
  const rows = await query<{ application_name: string }>(
    dbUrl(),
    `SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND ((l.classid::bigint << 32) | l.objid::bigint) = $1::bigint`,
    [ORDERER_LOCK_KEY],
  );
  const m = /^baas-ledger-(\d+)-/.exec(rows[0]?.application_name ?? '');
  return m ? Number(m[1]) : undefined;
}

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  if (onPg) await query(ADMIN_URL!, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(!onPg)('three instances on one PostgreSQL', () => {
  it('SIGKILL of the orderer during 1,000 put-on-chain calls loses no acknowledged transaction', async () => {
    await query(ADMIN_URL!, `CREATE DATABASE ${dbName}`);
    // One signing key for every instance: whichever is the orderer signs the checkpoints, and every
    // instance (and ledger:verify) checks them against the same published key (docs/ledger.md).
    const env = {
      LEDGER_SIGNING_KEY: signingKey,
      DATABASE_URL: dbUrl(),
      ADMIN_PASSWORD: PASSWORD,
      USER_PASSWORD: PASSWORD,
      LEDGER_BATCH_SIZE: '20',
      LEDGER_BATCH_TIMEOUT_MS: '20',
    };
    // One after the other: the first migrates and creates the accounts and the channel.
    for (let i = 0; i < 3; i++)
      servers.push(await startServerProcess({ dataDir: join(dataDir, `i${i}`), env }));
    const urls = servers.map((s) => s.url);

    // A token issued by one instance is accepted by the others (tokens live in the database).
    const token = (
      await api(urls[0], null, 'POST', '/dev-api/user/login', { username: 'admin', password: PASSWORD })
    ).body.data.token as string;
    for (const u of urls) expect((await api(u, token, 'GET', '/dev-api/user/info')).status).toBe(200);

    const ids: number[] = [];
    for (let i = 0; i < CALLS; i += 100) {
      const rows = await query<{ id: number }>(
        dbUrl(),
        `INSERT INTO authors ("authorName", "createTime", "updateTime")
         SELECT 'Instance author ' || g, '2026-11-22 00:00:00', '2026-11-22 00:00:00' FROM generate_series($1::int, $2::int) g
         RETURNING id`,
        [i, i + 99],
      );
      ids.push(...rows.map((r) => r.id));
    }
    expect(ids).toHaveLength(CALLS);

    const pid = await ordererPid();
    const victim = servers.find((s) => s.proc.pid === pid);
    expect(victim, `orderer pid ${pid} is one of the three`).toBeDefined();
    const survivors = servers.filter((s) => s !== victim);

    const acked: { id: number; txId: string; blockNumber: number }[] = [];
    let failed = 0;
    let killedAt = 0;
    let next = 0;
    const worker = async (w: number) => {
      while (next < ids.length) {
        const id = ids[next++];
        // Spread over the three; once the orderer is dead, over the two left.
        const alive = killedAt ? survivors : servers;
        const target = alive[(w + id) % alive.length];
        try {
          const r = await api(target.url, token, 'POST', '/artmanager/authors/blockChain', { id });
          if (r.status === 200 && r.body.code === 0)
            acked.push({ id, txId: r.body.data.txId, blockNumber: r.body.data.blockNumber });
          else failed++;
        } catch {
          failed++; // connection reset by the kill
        }
        if (acked.length >= 300 && !killedAt) {
          killedAt = Date.now();
          victim!.proc.kill('SIGKILL');
        }
      }
    };
    const load = Promise.all(Array.from({ length: 24 }, (_, w) => worker(w)));

    // Another instance takes the orderer role.
    let newPid: number | undefined;
    while (!killedAt) await new Promise((r) => setTimeout(r, 20));
    for (let i = 0; i < 300 && (newPid === undefined || newPid === pid); i++) {
      await new Promise((r) => setTimeout(r, 100));
      newPid = await ordererPid();
    }
    console.log(
      `orderer ${pid} killed; ${newPid} took over after ${Date.now() - killedAt} ms (measured by polling pg_locks)`,
    );
    expect(survivors.map((s) => s.proc.pid)).toContain(newPid);
    await load;

    expect(
      victim!.proc.signalCode ?? (await new Promise((r) => victim!.proc.once('exit', (_c, s) => r(s)))),
    ).toBe('SIGKILL');
    expect(acked.length).toBeGreaterThan(300); // calls were acknowledged after the kill too
    console.log(`${acked.length} acknowledged, ${failed} failed (in flight on the killed instance)`);

    // Every acknowledged transaction exactly once, in the acknowledged block, its author on chain.
    const txs = await query<{ txId: string; blockNumber: number }>(
      dbUrl(),
      `SELECT "txId", "blockNumber" FROM ledger_tx WHERE "txId" = ANY($1::text[])`,
      [acked.map((a) => a.txId)],
    );
    expect(txs).toHaveLength(acked.length);
    const byId = new Map(txs.map((t) => [t.txId, Number(t.blockNumber)]));
    for (const a of acked) expect(byId.get(a.txId)).toBe(a.blockNumber);
    const authors = await query<{ id: number; chain: string; isBlock: number }>(
      dbUrl(),
      `SELECT id, chain, "isBlock" FROM authors WHERE id = ANY($1::int[])`,
      [acked.map((a) => a.id)],
    );
    const chainOf = new Map(authors.map((a) => [a.id, a]));
    for (const a of acked) expect(chainOf.get(a.id)).toMatchObject({ chain: a.txId, isBlock: 1 });

    // Contiguous block numbers, and nothing left pending once the survivors are idle.
    const blocks = await query<{ n: string; max: number }>(
      dbUrl(),
      `SELECT count(*) AS n, max(number) AS max FROM ledger_block b JOIN ledger_channel c ON c.id = b."channelId" WHERE c.name = 'artchannel'`,
    );
    expect(Number(blocks[0].n)).toBe(Number(blocks[0].max) + 1);
    const verify = (await api(survivors[0].url, token, 'GET', '/baas-api/verify')).body.data;
    expect(verify.ok, verify.message).toBe(true);

    await Promise.all(survivors.map((s) => s.stop('SIGTERM')));
    const cli = spawnSync(process.execPath, commandArgs('ledger-verify'), {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: dbUrl(), LEDGER_SIGNING_KEY: signingKey },
      encoding: 'utf8',
    });
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/^verified \d+ blocks, \d+ transactions in channel artchannel/);
  });
});

/**
 * The log no restore can rewind (issue 31): the witnesses are the log's memory outside the box it
 * protects. Each case is what an operator or an attacker with the operator's files does, on SQLite and on
 * PostgreSQL (TEST_DATABASE_URL), with our witness (server/witness) running in this process on its own
 * port and state file:
 * - (a) a copy of the database taken earlier, more blocks, the copy restored, put on chain: nothing is
 *   signed, `/readyz` answers 503 and the alarm names both sizes; restored onto a key directory that
 *   lost its state, the witness's memory raises the same alarm;
 * - (b) a record forged, the blocks and the Merkle log re-hashed consistently, the checkpoints, the
 *   cosignatures and the signer's state file deleted, restart with two witnesses running: refused with
 *   an alarm naming a witness, nothing signed, the verify call not ok, the public record not verified;
 * - (c) the same with the witnesses stopped: `/readyz` says degraded, naming both witnesses, and the
 *   metrics say they are unreachable; when they come back, their refusal raises the alarm and halts.
 * On the code before issue 31, (a) answered `/readyz` 200 and (b) re-signed the forged head with no alarm.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig, type AppConfig } from '../../server/config';
import { connect, isPostgresUrl } from '../../server/db/connect';
import { ensureAccounts } from '../../server/plugins/app/auth';
import type { LedgerTables } from '../../server/ledger/tables';
import { SIGNED_STATE_FILE } from '../../server/ledger/checkpoints';
import { buildWitnessApp } from '../../server/witness/app';
import { cosignerKey } from '../../server/witness/key';
import { WitnessStore } from '../../server/witness/store';
import { ed25519PrivateKey } from '../../server/ledger/ed25519Key';
import { parseVkey } from '../../common/ledger/witness';
import { verifyPublicRecord, type PublicRecord } from '../../common/ledger/publicVerify';
import { forgeRecordTx } from '../support/ledgerTamper';
import { databaseUrl, runPgStatement } from '../support/pgAdmin';

const root = mkdtempSync(join(tmpdir(), 'baas-memory-'));
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  rmSync(root, { recursive: true, force: true });
});
const PG = isPostgresUrl(process.env.TEST_DATABASE_URL);

/** One deployment: a data directory, a key directory apart from it, and (PostgreSQL) a database. */
async function deployment(name: string) {
  const dataDir = join(root, name, 'data');
  const keyDir = join(root, name, 'keys');
  let databaseUrl: string | undefined;
  if (PG) {
    databaseUrl = await pgDatabase();
  }
  return { dataDir, keyDir, databaseUrl };
}

async function pgDatabase(template?: string): Promise<string> {
  const admin = process.env.TEST_DATABASE_URL!;
  const db = `baas_mem_${randomBytes(5).toString('hex')}`;
  await runPgStatement(admin, `CREATE DATABASE ${db}${template ? ` TEMPLATE ${template}` : ''}`);
  cleanups.push(() => runPgStatement(admin, `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`));
  return databaseUrl(admin, db);
}

type Deployment = Awaited<ReturnType<typeof deployment>>;

/** Starts the server on a deployment (block per put, so sizes are predictable). */
async function start(d: Deployment, extra: Partial<AppConfig> = {}) {
  const app = await buildApp({
    ...loadConfig({}),
    dataDir: d.dataDir,
    ledgerKeyDir: d.keyDir,
    consoleDir: join(d.dataDir, 'no-console'),
    seed: false,
    ledgerOrigin: 'memory.test',
    ledgerBatchSize: 1,
    ledgerBatchTimeoutMs: 0,
    ledgerWitnessIntervalMs: 3_600_000,
    ...(d.databaseUrl ? { databaseUrl: d.databaseUrl } : {}),
    ...extra,
  });
  await app.ready();
  await ensureAccounts(app.db, { admin: 'memory-admin-pw', user: 'memory-user-pw' }, () => {});
  const login = await app.inject({
    method: 'POST',
    url: '/dev-api/user/login',
    payload: { username: 'admin', password: 'memory-admin-pw' },
  });
  const token = login.json().data.token as string;
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await app.inject({ method, url, payload, headers: { 'x-token': token } });
    return { status: res.statusCode, body: res.json() };
  };
  const putAuthor = async (authorName: string) => {
    const a = await call('POST', '/artmanager/authors/addAuthors', { authorName });
    const put = await call('POST', '/artmanager/authors/blockChain', { id: a.body.data.id });
    return { id: a.body.data.id as number, put };
  };
  return { app, call, putAuthor };
}

/** Our witness, in this process, on its own port and state file. */
async function witness(dir: string, name: string, logVkey: string) {
  const seed = randomBytes(32).toString('base64');
  const key = await cosignerKey(name, ed25519PrivateKey(seed, 'seed'), 'test');
  const logs = [await parseVkey(logVkey)];
  const dbFile = join(dir, `${name.replace(/\W/g, '_')}.sqlite`);
  let store = new WitnessStore(dbFile);
  let app = buildWitnessApp({ key, store, logs });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const port = Number(new URL(address).port);
  const w = {
    url: `http://127.0.0.1:${port}`,
    vkey: key.vkey,
    entry: () => `${w.url} ${key.vkey}`,
    async stop() {
      await app.close();
      store.close();
    },
    /** Starts again on the same port and state. */
    async restart() {
      store = new WitnessStore(dbFile);
      app = buildWitnessApp({ key, store, logs });
      await app.listen({ host: '127.0.0.1', port });
    },
  };
  cleanups.push(() => w.stop().catch(() => {}));
  return w;
}

const db = (app: FastifyInstance) => app.db as unknown as Kysely<LedgerTables>;
const checkpointSizes = async (app: FastifyInstance) =>
  (await db(app).selectFrom('ledger_checkpoint').select('size').orderBy('size').execute()).map((r) =>
    Number(r.size),
  );

/** The attacker with the database: forge block `n`'s record, re-hash every later block and the log. */
async function forge(d: Deployment, n: number, deleteFrom: number) {
  const { db: kdb } = connect({ dataDir: d.dataDir, databaseUrl: d.databaseUrl });
  const ldb = kdb as unknown as Kysely<LedgerTables>;
  await forgeRecordTx(kdb, { blockNumber: n });
  await ldb.deleteFrom('ledger_checkpoint').where('size', '>=', deleteFrom).execute();
  await ldb.deleteFrom('ledger_cosignature').execute();
  await ldb.deleteFrom('ledger_witness_status').execute();
  await kdb.destroy();
  rmSync(join(d.keyDir, SIGNED_STATE_FILE), { force: true });
}

async function readyz(app: FastifyInstance) {
  const res = await app.inject({ method: 'GET', url: '/readyz' });
  return { status: res.statusCode, body: res.json() };
}

/** A log with two witnesses that cosigned every checkpoint: six authors on chain (log of 7 entries). */
async function witnessedLog(name: string) {
  const d = await deployment(name);
  let s = await start(d);
  const logVkey = s.app.checkpoints.key.vkey;
  await s.app.close();
  const w1 = await witness(join(root, name), 'witness.test/w1', logVkey);
  const w2 = await witness(join(root, name), 'witness.test/w2', logVkey);
  const withWitnesses = { ledgerWitnesses: `${w1.entry()}, ${w2.entry()}` };
  s = await start(d, withWitnesses);
  const ids: number[] = [];
  for (let i = 0; i < 6; i++) {
    const r = await s.putAuthor(`Author ${i}`);
    expect(r.put.body.code).toBe(0);
    ids.push(r.id);
  }
  await s.app.witnesses.pusher.pushAll();
  const status = await s.call('GET', '/baas-api/witnesses');
  expect(JSON.stringify(status.body.data)).toContain('witness.test/w2');
  expect(s.app.witnessMemory.newest(s.app.checkpoints.origin('artchannel'))?.size).toBe(7);
  await s.app.close();
  return { d, w1, w2, withWitnesses, ids };
}

describe(`the log no restore can rewind (${PG ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('(a) an older copy restored: nothing signed, /readyz 503, an alarm naming both sizes', async () => {
    const d = await deployment('restore');
    let s = await start(d);
    for (let i = 0; i < 3; i++) expect((await s.putAuthor(`Before ${i}`)).put.body.code).toBe(0);
    await s.app.close();
    // The copy (the operator's backup): the data directory and, on PostgreSQL, the database.
    const copy: Deployment = { ...d, dataDir: join(root, 'restore', 'copy') };
    cpSync(d.dataDir, copy.dataDir, { recursive: true });
    if (d.databaseUrl) copy.databaseUrl = await pgDatabase(new URL(d.databaseUrl).pathname.slice(1));
    s = await start(d);
    for (let i = 0; i < 3; i++) expect((await s.putAuthor(`After ${i}`)).put.body.code).toBe(0);
    expect(await checkpointSizes(s.app)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    await s.app.close();

    // Restored: the copy's data with the key directory that signed up to 7.
    s = await start(copy);
    try {
      const put = await s.putAuthor('After restore');
      expect(put.put.status).toBe(503);
      expect(put.put.body.key).toBe('ledger.halted');
      expect(await checkpointSizes(s.app)).toEqual([1, 2, 3, 4]);
      const r = await readyz(s.app);
      expect(r.status).toBe(503);
      expect(r.body.data.checks.ledger.ok).toBe(false);
      expect(r.body.msg).toMatch(/ledger halted on artchannel \(rollback\): signed 7 entries, stored 4/);
      const status = await s.call('GET', '/baas-api/public/log/artchannel/status');
      expect(status.body.data.alarm).toMatchObject({
        kind: 'rollback',
        signed: { size: 7 },
        head: { size: 4 },
      });
      const metrics = await s.app.metrics.text();
      expect(metrics).toMatch(/baas_ledger_halted\{channel="artchannel"\} 1/);
    } finally {
      await s.app.close();
    }
  });

  it('(a) an empty database under a key directory that remembers the origin: starts halted, signs nothing', async () => {
    const d = await deployment('emptied');
    let s = await start(d);
    for (let i = 0; i < 2; i++) expect((await s.putAuthor(`Lost ${i}`)).put.body.code).toBe(0);
    await s.app.close();
    const empty: Deployment = { ...(await deployment('emptied-new')), keyDir: d.keyDir };
    s = await start(empty);
    try {
      expect(s.app.checkpoints.alarms.get('artchannel')).toMatchObject({
        kind: 'rollback',
        signed: { size: 3 },
        head: { size: 1 },
      });
      expect(await checkpointSizes(s.app)).toEqual([]);
      expect((await s.putAuthor('after')).put.status).toBe(503);
      expect(await checkpointSizes(s.app)).toEqual([]);
      expect((await readyz(s.app)).body.msg).toMatch(/signed 3 entries, stored 1/);
    } finally {
      await s.app.close();
    }
  });

  it('(a) a restored database beside an empty key directory: the new key signs nothing', async () => {
    const d = await deployment('new-key');
    let s = await start(d);
    for (let i = 0; i < 2; i++) expect((await s.putAuthor(`Old key ${i}`)).put.body.code).toBe(0);
    await s.app.close();
    s = await start({ ...d, keyDir: join(root, 'new-key', 'empty-keys') });
    try {
      expect(s.app.checkpoints.alarms.get('artchannel')).toMatchObject({
        kind: 'key',
        signed: { size: 3 },
        head: { size: 3 },
      });
      expect(s.app.checkpoints.alarms.get('artchannel')?.reason).toMatch(/not signed by this log's key/);
      expect((await s.putAuthor('after')).put.status).toBe(503);
      expect(await checkpointSizes(s.app)).toEqual([1, 2, 3]);
      expect((await readyz(s.app)).status).toBe(503);
    } finally {
      await s.app.close();
    }
  });

  it('(a) restored onto a key directory without its state: the witnesses remember, nothing signed', async () => {
    const { d, withWitnesses } = await witnessedLog('restore-fresh-keys');
    // An older copy: the log as it was at 4 entries (the attacker or the operator removes the rest).
    const { db: kdb } = connect({ dataDir: d.dataDir, databaseUrl: d.databaseUrl });
    const ldb = kdb as unknown as Kysely<LedgerTables>;
    await ldb.deleteFrom('ledger_tx').where('blockNumber', '>=', 4).execute();
    await ldb.deleteFrom('ledger_block').where('number', '>=', 4).execute();
    await ldb.deleteFrom('ledger_tree').where('blockNumber', '>=', 4).execute();
    await ldb.deleteFrom('ledger_checkpoint').where('size', '>', 4).execute();
    await ldb.deleteFrom('ledger_cosignature').execute();
    await ldb.deleteFrom('ledger_witness_status').execute();
    await kdb.destroy();
    rmSync(join(d.keyDir, SIGNED_STATE_FILE), { force: true });
    const s = await start(d, withWitnesses);
    try {
      const alarm = s.app.checkpoints.alarms.get('artchannel');
      expect(alarm).toMatchObject({ kind: 'rollback', signed: { size: 7 }, head: { size: 4 } });
      expect(alarm?.witness).toMatch(/^witness\.test\/w[12]$/);
      expect(alarm?.reason).toMatch(/the log has 4 entries, fewer than the 7 of the checkpoint witness/);
      expect((await s.putAuthor('after')).put.status).toBe(503);
      expect((await readyz(s.app)).status).toBe(503);
      expect(await checkpointSizes(s.app)).toEqual([1, 2, 3, 4]);
    } finally {
      await s.app.close();
    }
  });

  it('a history rewritten under the running server: the put is refused, nothing signed, the server closes', async () => {
    const d = await deployment('running-fork');
    const s = await start(d);
    for (let i = 0; i < 3; i++) expect((await s.putAuthor(`Running ${i}`)).put.body.code).toBe(0);
    const signed = await checkpointSizes(s.app);
    await forgeRecordTx(s.app.db as Kysely<any>, { blockNumber: 2 });
    const put = await s.putAuthor('refused');
    expect(put.put.status).toBe(503);
    expect(await checkpointSizes(s.app)).toEqual(signed);
    expect((await readyz(s.app)).status).toBe(503);
    // Its refused transaction stays pending (cut once an operator resolves the alarm); closing does
    // not wait for a halted channel (it waited 30 s on PostgreSQL and failed the close).
    await s.app.close();
  });

  it('(b) forge, re-hash, delete checkpoints, cosignatures and state, restart with two witnesses: refused', async () => {
    const { d, withWitnesses, ids } = await witnessedLog('forge-witnesses');
    await forge(d, 3, 4);
    const s = await start(d, withWitnesses);
    try {
      const alarm = s.app.checkpoints.alarms.get('artchannel');
      expect(alarm?.kind).toBe('fork');
      expect(alarm?.witness).toMatch(/^witness\.test\/w[12]$/);
      expect(alarm?.reason).toMatch(
        /does not extend the checkpoint of 7 entries .* witness witness\.test\/w[12] cosigned/,
      );
      expect(await checkpointSizes(s.app)).toEqual([1, 2, 3]);
      const put = await s.putAuthor('after forgery');
      expect(put.put.status).toBe(503);
      expect(await checkpointSizes(s.app)).toEqual([1, 2, 3]);
      const v = await s.call('GET', '/baas-api/verify');
      expect(v.body.data.ok).toBe(false);
      expect((await readyz(s.app)).status).toBe(503);
      // The public page of the forged record (block 3 holds the third author's put): not verified.
      const pub = await s.call('GET', `/baas-api/public/record?kind=author&id=${ids[2]}`);
      if (pub.status === 200) {
        const verdict = await verifyPublicRecord(pub.body.data as PublicRecord);
        expect(verdict.ok).toBe(false);
      } else expect(pub.status).toBeGreaterThanOrEqual(400);
    } finally {
      await s.app.close();
    }
  });

  it('(c) the same with the witnesses stopped: degraded, named; their refusal later halts the log', async () => {
    const { d, w1, w2, withWitnesses } = await witnessedLog('forge-no-witnesses');
    await forge(d, 3, 4);
    await w1.stop();
    await w2.stop();
    const s = await start(d, withWitnesses);
    try {
      const r = await readyz(s.app);
      expect(r.status).toBe(200);
      expect(r.body.data.status).toBe('degraded');
      expect(r.body.data.checks.witnesses.degraded).toMatch(/witness\.test\/w1: unreachable/);
      expect(r.body.data.checks.witnesses.degraded).toMatch(/witness\.test\/w2: unreachable/);
      const metrics = await s.app.metrics.text();
      expect(metrics).toMatch(/baas_ledger_witness_reachable\{witness="witness\.test\/w1"\} 0/);
      // The witnesses come back and refuse the re-signed forged head: the log halts.
      await w1.restart();
      await w2.restart();
      await s.app.witnesses.pusher.pushAll();
      const alarm = s.app.checkpoints.alarms.get('artchannel');
      expect(alarm?.kind).toBe('fork');
      expect(alarm?.witness).toMatch(/^witness\.test\/w[12]$/);
      const signed = await checkpointSizes(s.app);
      expect((await s.putAuthor('after')).put.status).toBe(503);
      expect(await checkpointSizes(s.app)).toEqual(signed);
      const again = await readyz(s.app);
      expect(again.status).toBe(503);
      expect(again.body.data.checks.witnesses.ok).toBe(true);
    } finally {
      await s.app.close();
    }
  });
});

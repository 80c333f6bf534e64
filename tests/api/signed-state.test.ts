/**
 * Verifiers tell the truth about the signer's state (issue 31, docs/ledger.md sections 6 and 10), on
 * SQLite and on PostgreSQL (TEST_DATABASE_URL):
 * - `npm run ledger:verify` in the server's environment (LEDGER_KEY_DIR: the key and
 *   `ledger-signed-checkpoints.json`) against a database older than the last signed checkpoint (SQLite: a
 *   copy made with VACUUM INTO before more blocks; PostgreSQL: the newer rows deleted consistently) exits
 *   1 "rollback: the log has N entries, the last signed checkpoint has M"; the same copy with an empty
 *   state verifies (exit 0);
 * - the state of another history signed with the same key (`--state`): "fork", exit 1; an origin of
 *   another prefix: not checked; a state file that is not JSON: one line, exit 2;
 * - a history forked while the server was stopped: after its restart `GET /baas-api/verify` answers not ok with the alarm first
 *   (`field: "alarm"`, its reason), and the public record answer carries `halted: {kind, reason}`, which
 *   the page's check turns into "Not verified".
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { verifyPublicRecord, type PublicRecord } from '../../common/ledger/publicVerify';
import { SIGNED_STATE_FILE } from '../../server/ledger/checkpoints';
import type { LedgerTables } from '../../server/ledger/tables';

import { forgeRecordTx } from '../support/ledgerTamper';
import { addAuthor, ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers';
import { buildApp } from '../../server/app';
import { connect } from '../../server/db/connect';
import { ledgerVerifyProcess, ledgerVerifyScript, putOnChain } from './ledgerHelpers';

const SEED = Buffer.alloc(32, 5).toString('base64');
const PREFIX = 'registry.test';
const dir = mkdtempSync(join(tmpdir(), 'baas-signed-state-'));
const apps: TestApp[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A test app with the fixed key and origin, a block per put. */
async function open(): Promise<TestApp> {
  const t = await createTestApp({
    ledgerSigningKey: SEED,
    ledgerOrigin: PREFIX,
    ledgerBatchSize: 1,
    ledgerBatchTimeoutMs: 0,
  });
  apps.push(t);
  return t;
}

const put = async (t: TestApp, name: string) =>
  putOnChain(t, 'authors', await addAuthor(t, name, { wxIsEnable: 1 }));
const head = async (t: TestApp) =>
  (await t.get('/baas-api/public/checkpoint?channel=artchannel', null)).body.data.size as number;
/** ledger:verify on the live database: it extends the state file (`size` entries). */
async function liveExtends(t: TestApp, size: number) {
  const live = await ledgerVerifyScript(t, [], { LEDGER_SIGNING_KEY: SEED });
  expect(live.out).toContain(
    `Verified, signed state: ${PREFIX}/artchannel: the log of ${size} entries extends`,
  );
  expect(live.code).toBe(0);
}
const ldb = (t: TestApp) => t.app.db as unknown as Kysely<LedgerTables>;

describe('ledger:verify and the signed state', () => {
  it('a database older than the last signed checkpoint: exit 1 naming both sizes', async () => {
    const t = await open();
    await put(t, 'Before 1');
    await put(t, 'Before 2');
    const older = await head(t);
    const olderDir = mkdtempSync(join(dir, 'older-'));
    let vars: Record<string, string>;
    let signed: number;
    if (t.app.config.databaseUrl) {
      // PostgreSQL: the later blocks are put, then their rows deleted as a restore of an older dump would.
      const p = await put(t, 'After 1');
      await put(t, 'After 2');
      signed = await head(t);
      await liveExtends(t, signed);
      const db = ldb(t);
      await db.deleteFrom('ledger_tx').where('blockNumber', '>=', p.blockNumber).execute();
      await db.deleteFrom('ledger_tree').where('blockNumber', '>=', p.blockNumber).execute();
      await db.deleteFrom('ledger_block').where('number', '>=', p.blockNumber).execute();
      await db.deleteFrom('ledger_checkpoint').where('size', '>', older).execute();
      await db.deleteFrom('ledger_cosignature').where('size', '>', older).execute();
      await (t.app.db as Kysely<any>).deleteFrom('authors').where('authorName', 'like', 'After %').execute();
      vars = { DATA_DIR: t.dataDir, DATABASE_URL: t.app.config.databaseUrl };
    } else {
      // SQLite: a copy of the file at this point; the server goes on.
      await sql.raw(`VACUUM INTO '${join(olderDir, 'baas.sqlite')}'`).execute(t.app.db);
      await put(t, 'After 1');
      await put(t, 'After 2');
      signed = await head(t);
      await liveExtends(t, signed);
      vars = { DATA_DIR: olderDir, DATABASE_URL: '' };
    }
    expect(signed).toBeGreaterThan(older);
    const env = { ...vars, LEDGER_KEY_DIR: t.dataDir, LEDGER_SIGNING_KEY: SEED };
    const v = await ledgerVerifyProcess(env);
    expect(v.out).toMatch(/^verified \d+ blocks/);
    expect(v.out).toContain(
      `rollback: the log has ${older} entries, the last signed checkpoint has ${signed}`,
    );
    expect(v.code).toBe(1);
    // Without the state the older copy is a valid ledger of its own: only the state catches it.
    const empty = join(dir, 'empty-state.json');
    writeFileSync(empty, '{}');
    const alone = await ledgerVerifyProcess(env, ['--state', empty]);
    expect(alone.code).toBe(0);
  });

  it('the state of another history signed with the same key: "fork"; a state that is not JSON: exit 2', async () => {
    const a = await open();
    for (const n of ['A 1', 'A 2', 'A 3']) await put(a, n);
    const b = await open();
    for (const n of ['B 1', 'B 2']) await put(b, n);
    const env = { LEDGER_SIGNING_KEY: SEED };
    const v = await ledgerVerifyScript(a, ['--state', join(b.dataDir, SIGNED_STATE_FILE)], env);
    expect(v.out).toContain(
      `fork: the log of ${await head(a)} entries does not extend the last signed checkpoint (${await head(b)} entries`,
    );
    expect(v.code).toBe(1);
    // Another deployment's origin (another prefix) is not this database's log: not checked, as the signer.
    const other = join(dir, 'other-state.json');
    const bState = JSON.parse(readFileSync(join(b.dataDir, SIGNED_STATE_FILE), 'utf8'));
    writeFileSync(other, JSON.stringify({ 'other.test/artchannel': bState[`${PREFIX}/artchannel`] }));
    const o = await ledgerVerifyScript(a, ['--state', other], env);
    expect(o.out).toContain(
      'other.test/artchannel: not a log of this database (another origin prefix), not checked',
    );
    expect(o.code).toBe(0);
    const bad = join(dir, 'bad-state.json');
    writeFileSync(bad, 'not json');
    const u = await ledgerVerifyScript(a, ['--state', bad], env);
    expect(u.code).toBe(2);
    expect(u.out.trim().split('\n')).toEqual([expect.stringMatching(/bad-state\.json: not JSON/)]);
  });
});

describe('a channel the signer halted', () => {
  it('GET /baas-api/verify answers the alarm first; the public record carries the halt: "Not verified"', async () => {
    const t = await open();
    const first = await put(t, 'Halt 1');
    await put(t, 'Halt 2');
    const id = await addAuthor(t, 'Halt 3', { wxIsEnable: 1 });
    await putOnChain(t, 'authors', id);
    // The server stops; the database's history is rewritten from the first put on; the server starts
    // again (its state file in the key directory): the signer raises the fork alarm.
    await t.app.close();
    const { db } = connect({ dataDir: t.dataDir, databaseUrl: t.app.config.databaseUrl });
    await forgeRecordTx(db, { txId: first.txId });
    await db.destroy();
    const again = await buildApp(t.app.config);
    try {
      await again.ready();
      const alarm = again.checkpoints.alarms.get('artchannel')!;
      expect(alarm.kind).toBe('fork');
      const login = await again.inject({
        method: 'POST',
        url: '/dev-api/user/login',
        payload: { username: 'admin', password: ADMIN_PASSWORD },
      });
      const token = login.json().data.token as string;
      const v = (
        await again.inject({ method: 'GET', url: '/baas-api/verify', headers: { 'x-token': token } })
      ).json().data;
      expect(v).toMatchObject({
        ok: false,
        channel: 'artchannel',
        field: 'alarm',
        halted: { channel: 'artchannel', kind: 'fork', reason: alarm.reason },
      });
      expect(v.message).toBe(`channel artchannel is halted (fork): ${alarm.reason}`);

      const rec = (
        await again.inject({ method: 'GET', url: `/baas-api/public/record?kind=author&id=${id}` })
      ).json().data as PublicRecord;
      expect(rec.halted).toEqual({ kind: 'fork', reason: alarm.reason });
      const check = await verifyPublicRecord(rec);
      expect(check.ok).toBe(false);
      expect(check.halted).toEqual({ kind: 'fork', reason: alarm.reason });
    } finally {
      await again.close();
    }
  });

  it('a channel not halted: the record answer says halted: null', async () => {
    const t = await open();
    const id = await addAuthor(t, 'Calm', { wxIsEnable: 1 });
    await putOnChain(t, 'authors', id);
    const rec = (await t.get(`/baas-api/public/record?kind=author&id=${id}`, null)).body.data as PublicRecord;
    expect(rec.halted).toBeNull();
    expect((await verifyPublicRecord(rec)).ok).toBe(true);
  });
});

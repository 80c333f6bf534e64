/**
 * Never sign a fork (issue 19, docs/ledger.md section 10), in the manner of an attacker who can write the
 * database but not read the signing key's directory:
 * - forge a record's transaction, re-hash every later block and the Merkle log, delete the checkpoints
 *   above the forgery, restart: the server signs nothing, shows the alarm, and put on chain answers 503
 *   with the reason (en and zh); the verify call fails;
 * - fork the head while the server runs: the next block is refused, nothing is signed.
 * On the code before the Merkle log, the first case re-signed the forged head and verified.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { ensureAccounts } from '../../server/plugins/app/auth';
import type { LedgerTables } from '../../server/ledger/tables';
import { forgeRecordTx } from '../support/ledgerTamper';

const root = mkdtempSync(join(tmpdir(), 'baas-tamper-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function start(dataDir: string) {
  const app = await buildApp({
    ...loadConfig({}),
    dataDir,
    ledgerKeyDir: dataDir, // not the repository's ./data-keys
    consoleDir: join(dataDir, 'no-console'),
    seed: false,
    ledgerBatchSize: 1,
    ledgerBatchTimeoutMs: 0,
  });
  await app.ready();
  await ensureAccounts(app.db, { admin: 'tamper-admin-pw', user: 'tamper-user-pw' }, () => {});
  const login = await app.inject({
    method: 'POST',
    url: '/dev-api/user/login',
    payload: { username: 'admin', password: 'tamper-admin-pw' },
  });
  const token = login.json().data.token as string;
  const call = async (method: 'GET' | 'POST', url: string, payload?: object, lang = 'en') => {
    const res = await app.inject({
      method,
      url,
      payload,
      headers: { 'x-token': token, 'accept-language': lang },
    });
    return { status: res.statusCode, body: res.json() };
  };
  return { app, call };
}

async function putAuthor(call: Awaited<ReturnType<typeof start>>['call'], name: string, lang = 'en') {
  const a = await call('POST', '/artmanager/authors/addAuthors', { authorName: name });
  return call('POST', '/artmanager/authors/blockChain', { id: a.body.data.id }, lang);
}

/** Forges the transaction of block `number`: another digest, every later block and the log re-hashed. */
const forge = (db: Kysely<any>, number: number) => forgeRecordTx(db, { blockNumber: number });

const checkpointSizes = async (app: FastifyInstance) =>
  (
    await (app.db as Kysely<any>).selectFrom('ledger_checkpoint').select('size').orderBy('size').execute()
  ).map((r) => Number(r.size));

describe('the server never signs a fork', () => {
  it('forge, re-hash, delete checkpoints, restart: no signature, an alarm, put on chain 503', async () => {
    const dataDir = join(root, 'restart');
    let s = await start(dataDir);
    for (let i = 0; i < 6; i++) expect((await putAuthor(s.call, `A${i}`)).body.code).toBe(0);
    const before = await checkpointSizes(s.app);
    expect(before).toEqual([1, 2, 3, 4, 5, 6, 7]);
    await s.app.close();

    // The attacker: the database only.
    const { connect } = await import('../../server/db/connect');
    const { db } = connect({ dataDir });
    await forge(db, 3);
    await (db as unknown as Kysely<LedgerTables>)
      .deleteFrom('ledger_checkpoint')
      .where('size', '>=', 4)
      .execute();
    await db.destroy();

    s = await start(dataDir);
    try {
      const status = await s.call('GET', '/baas-api/public/log/artchannel/status');
      expect(status.body.data.halted).toBe(true);
      expect(status.body.data.alarm.kind).toBe('fork');
      expect(status.body.data.alarm.signed.size).toBe(7);
      // Nothing re-signed: the checkpoints are those the attacker left.
      expect(await checkpointSizes(s.app)).toEqual([1, 2, 3]);
      const put = await putAuthor(s.call, 'after');
      expect(put.status).toBe(503);
      expect(put.body.key).toBe('ledger.halted');
      expect(put.body.msg).toMatch(/does not extend the last signed checkpoint/);
      const zh = await putAuthor(s.call, 'zh', 'zh-CN');
      expect(zh.status).toBe(503);
      expect(zh.body.msg).toMatch(/账本拒绝新交易/);
      expect(await checkpointSizes(s.app)).toEqual([1, 2, 3]);
      const chains = await s.call('GET', '/baas-api/chains');
      expect(JSON.stringify(chains.body)).toMatch(/halted/);
      const v = await s.call('GET', '/baas-api/verify');
      expect(v.body.data.ok).toBe(false);
    } finally {
      await s.app.close();
    }
  });

  it('fork the head while running: the next block is refused and nothing is signed', async () => {
    const s = await start(join(root, 'running'));
    try {
      for (let i = 0; i < 4; i++) expect((await putAuthor(s.call, `B${i}`)).body.code).toBe(0);
      const signed = await checkpointSizes(s.app);
      await forge(s.app.db, 4);
      const put = await putAuthor(s.call, 'next');
      expect(put.status).toBe(503);
      expect(put.body.data.reason).toMatch(/does not extend the last signed checkpoint/);
      expect(await checkpointSizes(s.app)).toEqual(signed);
      const status = await s.call('GET', '/baas-api/public/log/artchannel/status');
      expect(status.body.data.halted).toBe(true);
    } finally {
      await s.app.close();
    }
  });
});

/**
 * The witness (`npm run ledger:witness`, scripts/ledger-witness.ts) against real HTTP servers: two server
 * data directories forked from one (SQLite files, the same signing key). The witness cosigns the first
 * (the cosignature shows in `GET /baas-api/witnesses`), then alerts (exit 1, evidence file) on the
 * second: a rollback while it is shorter, a fork once it has a block of its own; and on the first after
 * a record was forged and the chain re-hashed consistently.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { ensureAccounts } from '../../server/plugins/app/auth';
import { recordDigest } from '../../server/ledger/records';
import { rehashFrom } from '../support/ledgerTamper';

const run = promisify(execFile);
const root = mkdtempSync(join(tmpdir(), 'baas-witness-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Server {
  app: FastifyInstance;
  url: string;
  token: string;
  call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<any>;
}

async function start(dataDir: string): Promise<Server> {
  const config = {
    ...loadConfig({}),
    dataDir,
    consoleDir: join(dataDir, 'no-console'),
    seed: false,
    ledgerBatchSize: 1,
    ledgerBatchTimeoutMs: 0,
  };
  const app = await buildApp(config);
  await app.ready();
  await ensureAccounts(app.db, { admin: 'witness-admin-pw', user: 'witness-user-pw' }, () => {});
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  const login = await (
    await fetch(`${url}/dev-api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'witness-admin-pw' }),
    })
  ).json();
  const token = login.data.token as string;
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) =>
    (
      await fetch(`${url}${path}`, {
        method,
        headers: { 'x-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      })
    ).json();
  return { app, url, token, call };
}

async function addAndPut(
  s: Server,
  name: string,
): Promise<{ id: number; txId: string; blockNumber: number }> {
  const a = await s.call('POST', '/artmanager/authors/addAuthors', { authorName: name, wxIsEnable: 1 });
  const p = await s.call('POST', '/artmanager/authors/blockChain', { id: a.data.id });
  expect(p.code).toBe(0);
  return { id: a.data.id, txId: p.data.txId, blockNumber: p.data.blockNumber };
}

async function witness(s: Server, state: string): Promise<{ code: number; out: string }> {
  const env = { ...process.env, WITNESS_TOKEN: s.token };
  try {
    const r = await run(
      'npx',
      [
        'tsx',
        'scripts/ledger-witness.ts',
        '--url',
        s.url,
        '--state',
        state,
        '--name',
        'test-witness',
        '--once',
      ],
      { env },
    );
    return { code: 0, out: r.stdout + r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

const alerts = (state: string) =>
  readdirSync(root).filter((f) => f.startsWith(`${state.split('/').pop()}.alert-`));

describe('ledger:witness', () => {
  it('cosigns the first of two forked data directories and alerts on the second (rollback, then fork)', async () => {
    const d1 = join(root, 'one');
    const d2 = join(root, 'two');
    const state = join(root, 'state.json');
    let s = await start(d1);
    await addAndPut(s, 'Shared Ancestor');
    await s.app.close();
    cpSync(d1, d2, { recursive: true });

    s = await start(d1);
    await addAndPut(s, 'Only In One');
    const first = await witness(s, state);
    expect(first.out).toMatch(/cosigned artchannel size \d+ as test-witness/);
    expect(first.code).toBe(0);
    const saved = JSON.parse(readFileSync(state, 'utf8'));
    const list = (await s.call('GET', '/baas-api/witnesses')).data.list;
    expect(list).toEqual([
      expect.objectContaining({ name: 'test-witness', channel: 'artchannel', size: saved.size, behind: 0 }),
    ]);
    await s.app.close();

    // The fork, shorter: a rollback.
    const s2 = await start(d2);
    const rollback = await witness(s2, state);
    expect(rollback.code).toBe(1);
    expect(rollback.out).toContain('ALERT rollback');
    expect(alerts(state)).toHaveLength(1);
    // The fork with a block of its own at the same height: a fork.
    await addAndPut(s2, 'Only In Two');
    const fork = await witness(s2, state);
    expect(fork.code).toBe(1);
    expect(fork.out).toContain('ALERT fork');
    expect(fork.out).toContain('two different heads');
    expect(alerts(state)).toHaveLength(2);
    const evidence = JSON.parse(readFileSync(join(root, alerts(state).sort()[1]), 'utf8'));
    expect(evidence).toMatchObject({ alert: 'fork', previous: saved.note });
    // The state still holds the checkpoint of the first directory.
    expect(JSON.parse(readFileSync(state, 'utf8')).note).toBe(saved.note);
    // The witness has not cosigned the second directory.
    expect((await s2.call('GET', '/baas-api/witnesses')).data.list).toEqual([]);
    await s2.app.close();

    // Back on the first: a forged record re-hashed consistently is a fork once the next block is signed.
    s = await start(d1);
    const victim = (await s.call('GET', '/artmanager/authors/getList?page=1&pageSize=10')).data.list[0];
    const victimTx = await (s.app.db as Kysely<any>)
      .selectFrom('ledger_tx')
      .select(['txId', 'blockNumber'])
      .where('txId', '=', victim.chain)
      .executeTakeFirstOrThrow();
    await s.app.db.updateTable('authors').set({ authorName: 'Forged' }).where('id', '=', victim.id).execute();
    const forged = (await s.call('GET', `/artmanager/authors/getInfo?id=${victim.id}`)).data;
    const digest = recordDigest('author', forged);
    await (s.app.db as Kysely<any>)
      .updateTable('ledger_tx')
      .set({ args: JSON.stringify([String(victim.id), '1', digest]) })
      .where('txId', '=', victimTx.txId)
      .execute();
    await s.app.db.updateTable('authors').set({ chainDigest: digest }).where('id', '=', victim.id).execute();
    await rehashFrom(s.app.db, victimTx.blockNumber);
    await addAndPut(s, 'After The Forgery');
    const caught = await witness(s, state);
    expect(caught.code).toBe(1);
    expect(caught.out).toContain('ALERT fork');
    expect(caught.out).toContain('no longer hashes to the head of the earlier checkpoint');
    await s.app.close();
    expect(existsSync(state)).toBe(true);
  });
});

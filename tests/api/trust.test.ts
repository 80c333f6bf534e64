/**
 * Issue 9 "What it must show": tamper tests, one fresh database each (SQLite, or PostgreSQL with
 * TEST_DATABASE_URL). Each kind is caught by `npm run ledger:verify` (the script, run as a process on the
 * same database), by `GET /baas-api/verify` and by the public record check the verification page runs
 * (common/ledger/publicVerify.ts on `GET /baas-api/public/record`), at the right block or record.
 * Also: the public calls without login, "not published", checkpoints signed per block, the cosign call.
 */
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { verifyCheckpointNote, fromBase64 } from '../../common/ledger/note';
import { verifyPublicRecord, type PublicRecord } from '../../common/ledger/publicVerify';
import { recordDigest } from '../../server/ledger/records';
import type { LedgerTables } from '../../server/ledger/tables';
import { rebuildTree, rehashFrom } from '../support/ledgerTamper';
import type { TestApp } from './helpers';
import { expectVerifyFails, ledgerVerifyScript, sceneSetup, verifyCall } from './ledgerHelpers';

let t: TestApp;
const openScene = sceneSetup((app) => (t = app));

/** Two authors and an artwork put on chain, then a third author put on chain in a later block. */
async function setup() {
  const scene = await openScene(
    { a: 'Alice Trust', b: 'Bob Trust', work: 'Trusted Work' },
    { wxIsEnable: 1 },
  );
  await scene.put('authors', await scene.author('Carol Later'));
  return scene;
}

const ldb = () => t.app.db as unknown as Kysely<LedgerTables>;

async function publicCheck(kind: 'author' | 'artwork', id: number) {
  const r = await t.get(`/baas-api/public/record?kind=${kind}&id=${id}`, null);
  expect(r.status).toBe(200);
  return verifyPublicRecord(r.body.data as PublicRecord);
}

const failedSteps = (c: { steps: { step: string; ok: boolean }[] }) =>
  c.steps.filter((s) => !s.ok).map((s) => s.step);

describe('public calls', () => {
  it('answer without login: the key, signed checkpoints after every block, consistency headers, a record', async () => {
    const s = await setup();
    const key = (await t.get('/baas-api/public/key', null)).body.data;
    expect(key).toMatchObject({ algorithm: 'Ed25519' });
    // The key name is the log's origin (C2SP tlog-checkpoint): <LEDGER_ORIGIN or a unique default>/<channel>.
    expect(key.name).toMatch(/^[^\s+]+\/artchannel$/);
    expect(key.spki).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(key.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const ch = (await t.get('/baas-api/channels')).body.data.list[0];
    const cp = (await t.get('/baas-api/public/checkpoint?channel=artchannel', null)).body.data;
    expect(cp.size).toBe(ch.txCount); // the tree size counts entries (transactions), not blocks
    const v = await verifyCheckpointNote(cp.note, { name: key.name, publicKey: fromBase64(key.publicKey) });
    expect(v).toMatchObject({ ok: true, checkpoint: { origin: key.name, size: ch.txCount } });
    // One checkpoint per block, each at its tree size: the one of the latest is found by its size.
    const at = await t.get(`/baas-api/public/checkpoint?channel=artchannel&height=${cp.size}`, null);
    expect(at.status).toBe(200);
    expect(at.body.data.rootHash).toBe(cp.rootHash);
    const cons = (await t.get(`/baas-api/public/consistency?channel=artchannel&from=2&to=${ch.height}`, null))
      .body.data;
    expect(cons.headers.map((h: { number: number }) => h.number)).toEqual(
      Array.from({ length: ch.height - 1 }, (_, i) => i + 1),
    );
    expect(
      (await t.get('/baas-api/public/consistency?channel=artchannel&from=3&to=2', null)).body.data.errors[0]
        .field,
    ).toBe('from');
    const check = await publicCheck('artwork', s.w);
    expect(check).toMatchObject({ ok: true, blockNumber: s.putW.blockNumber, version: 1 });
    expect(failedSteps(check)).toEqual([]);
    const all = await verifyCall(t);
    expect(all.ok).toBe(true);
    expect(all.registry).toMatchObject({ onChain: 4, problems: [] });
    expect(all.checkpoints.signatures).toBe(1);
    const script = await ledgerVerifyScript(t);
    expect(script.out).toMatch(/^verified \d+ blocks/);
    expect(script.code).toBe(0);
  });

  it('"not published" for a record not on chain, with its public page off, or unknown', async () => {
    const s = await setup();
    const off = await t.post('/artmanager/authors/addAuthors', {
      authorName: 'Private Person',
      wxIsEnable: 0,
    });
    await s.put('authors', off.body.data.id);
    const notOn = await t.post('/artmanager/authors/addAuthors', {
      authorName: 'Not On Chain',
      wxIsEnable: 1,
    });
    for (const [kind, id] of [
      ['author', off.body.data.id],
      ['author', notOn.body.data.id],
      ['artwork', 999_999],
    ] as const) {
      const r = await t.get(`/baas-api/public/record?kind=${kind}&id=${id}`, null);
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ code: 404, data: { published: false, kind, id } });
      expect(r.body.msg).toMatch(/not published/);
    }
    expect((await t.get('/baas-api/public/record?kind=x&id=1', null)).status).toBe(400);
  });

  it('record calls return chainDigest and chainVersion; the digest ignores the public-page switch', async () => {
    const s = await setup();
    const info = (await t.get(`/artmanager/authors/getInfo?id=${s.a}`)).body.data;
    expect(info).toMatchObject({ chainDigest: s.putA.digest, chainVersion: 1 });
    expect(recordDigest('author', info)).toBe(s.putA.digest);
    expect(recordDigest('author', { ...info, wxIsEnable: 0, wxUrl: 'x' })).toBe(s.putA.digest);
    const art = (await t.get(`/artmanager/artwork/ArtInfoByArtId?artId=${s.w}`)).body.data;
    expect(art).toMatchObject({ chainDigest: s.putW.digest, chainVersion: 1 });
  });
});

describe('tamper tests (one fresh database each)', () => {
  it("a transaction's payload changed: caught at its block and transaction", async () => {
    const s = await setup();
    const row = await ldb()
      .selectFrom('ledger_tx')
      .selectAll()
      .where('txId', '=', s.putA.txId)
      .executeTakeFirstOrThrow();
    const args = JSON.parse(row.args) as string[];
    await ldb()
      .updateTable('ledger_tx')
      .set({ args: JSON.stringify([args[0], args[1], 'ab'.repeat(32)]) })
      .where('txId', '=', s.putA.txId)
      .execute();
    await expectVerifyFails(
      t,
      { blockNumber: s.putA.blockNumber, txId: s.putA.txId, field: 'leafHash', found: row.leafHash },
      `block ${s.putA.blockNumber}, transaction ${s.putA.txId}`,
    );
    const c = await publicCheck('author', s.a);
    expect(c.ok).toBe(false);
    expect(failedSteps(c)).toEqual(expect.arrayContaining(['digest', 'merkle']));
    expect(c.blockNumber).toBe(s.putA.blockNumber);
  });

  it('a header field changed: caught at its block', async () => {
    const s = await setup();
    await ldb()
      .updateTable('ledger_block')
      .set({ dataHash: 'cd'.repeat(32) })
      .where('channelId', '=', 1)
      .where('number', '=', s.putB.blockNumber)
      .execute();
    await expectVerifyFails(
      t,
      { blockNumber: s.putB.blockNumber, field: 'dataHash', found: 'cd'.repeat(32) },
      `block ${s.putB.blockNumber}:`,
    );
    const c = await publicCheck('author', s.b);
    expect(c.ok).toBe(false);
    expect(failedSteps(c)).toContain('merkle');
    expect(failedSteps(c)).toContain('header');
  });

  it('an on-chain record edited in the database: caught at that record', async () => {
    const s = await setup();
    await t.app.db
      .updateTable('artworks')
      .set({ artWorkName: 'Forged Title' })
      .where('id', '=', s.w)
      .execute();
    const v = await expectVerifyFails(
      t,
      { kind: 'artwork', recordId: s.w, field: 'digest', found: s.putW.digest },
      `artwork ${s.w}: changed since it was put on chain`,
    );
    expect(v.chain.ok).toBe(true);
    const c = await publicCheck('artwork', s.w);
    expect(failedSteps(c)).toEqual(['digest']);
  });

  it('a record rolled back to an older version: caught at that record', async () => {
    const s = await setup();
    const v1 = await t.app.db
      .selectFrom('authors')
      .selectAll()
      .where('id', '=', s.a)
      .executeTakeFirstOrThrow();
    const edit = await t.post('/artmanager/authors/updateInfo', { id: s.a, introduction: 'Version two' });
    expect(edit.status).toBe(200);
    const put2 = await s.put('authors', s.a);
    expect(put2.version).toBe(2);
    // Roll the row back to version 1, content and chain columns.
    await t.app.db.updateTable('authors').set(v1).where('id', '=', s.a).execute();
    const v = await expectVerifyFails(
      t,
      { kind: 'author', recordId: s.a, blockNumber: put2.blockNumber },
      `author ${s.a}: rolled back to an older version (expected 2, found 1)`,
    );
    expect(v.registry.problems).toContainEqual(
      expect.objectContaining({ recordId: s.a, field: 'chainVersion', expected: '2', found: '1' }),
    );
    const c = await publicCheck('author', s.a);
    expect(c.ok).toBe(false);
    expect(failedSteps(c)).toEqual(['digest', 'latest']);
    expect(c.version).toBe(2);
  });

  it("a record pointing at another record's transaction: caught at that record", async () => {
    const s = await setup();
    await t.app.db.updateTable('authors').set({ chain: s.putB.txId }).where('id', '=', s.a).execute();
    const v = await expectVerifyFails(
      t,
      { kind: 'author', recordId: s.a, field: 'chain', found: s.putB.txId, expected: s.putA.txId },
      `author ${s.a}: claims the transaction of author ${s.b}`,
    );
    expect(v.message).toContain(`claims the transaction of author ${s.b}`);
    const c = await publicCheck('author', s.a);
    expect(failedSteps(c)).toEqual(['latest']);
  });

  it('the chain re-hashed consistently after a forged record: caught by the checkpoint signatures', async () => {
    const s = await setup();
    // Forge: a new name for author A, its transaction's digest to match, every hash from its block re-done.
    await t.app.db.updateTable('authors').set({ authorName: 'Mallory' }).where('id', '=', s.a).execute();
    const forged = (await t.get(`/artmanager/authors/getInfo?id=${s.a}`)).body.data;
    const digest = recordDigest('author', forged);
    await ldb()
      .updateTable('ledger_tx')
      .set({ args: JSON.stringify([String(s.a), '1', digest]) })
      .where('txId', '=', s.putA.txId)
      .execute();
    await t.app.db.updateTable('authors').set({ chainDigest: digest }).where('id', '=', s.a).execute();
    await rehashFrom(t.app.db, s.putA.blockNumber);
    await rebuildTree(t.app.db); // and the stored Merkle log re-done from the forged transactions
    const v = await expectVerifyFails(
      t,
      { field: 'checkpoint' },
      `block ${s.putA.blockNumber}: the signed checkpoint of 2 entries names another root than the log recomputed`,
    );
    expect(v.chain.ok).toBe(true); // the chain alone passes
    expect(v.registry.problems).toEqual([]); // and so does the registry
    const c = await publicCheck('author', s.a);
    expect(failedSteps(c)).toEqual(['signature']);
    // Deleting the signed checkpoints does not help: the head is then not covered.
    await ldb().deleteFrom('ledger_checkpoint').where('size', '>', s.putA.blockNumber).execute();
    expect(await verifyCall(t)).toMatchObject({
      ok: false,
      field: 'coverage',
      blockNumber: s.putA.blockNumber,
    });
    expect(failedSteps(await publicCheck('author', s.a))).toEqual(['signature']);
  });
});

describe('witnesses need no account on the log', () => {
  it('the admin-only cosign call is gone; the witness list answers the configured witnesses (none here)', async () => {
    await setup();
    const cp = (await t.get('/baas-api/public/checkpoint?channel=artchannel', null)).body.data;
    const body = { name: 'w1', publicKey: 'A'.repeat(43) + '=', channel: 'artchannel', note: cp.note };
    expect((await t.call({ method: 'POST', url: '/baas-api/witness/cosign', payload: body })).status).toBe(
      404,
    );
    expect(
      (await t.call({ method: 'GET', url: '/baas-api/witnesses', token: t.userToken })).body.data,
    ).toEqual({ list: [], total: 0, policy: null });
  });
});

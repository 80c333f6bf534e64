/**
 * Ledger integration tests over app.inject: put on chain (author-before-artwork rule, idempotency,
 * new version after an edit, artwork status), 200 concurrent put-on-chain calls, the /baas-api read
 * calls with their roles, verification, and chaincode upload and lifecycle.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordDigest } from '../../server/ledger/records';
import { checkProofWeb, recordDigestWeb } from '../../common/ledger/webVerify';
import { addArtwork, addAuthor, createTestApp, multipart, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ledgerBatchSize: 10, ledgerBatchTimeoutMs: 20 });
});
afterAll(async () => t?.close());

const newAuthor = (name: string) => addAuthor(t, name);
const newArtwork = (author: number, name: string) => addArtwork(t, author, name);
const putAuthor = (id: number, token?: string | null) =>
  t.call({ method: 'POST', url: '/artmanager/authors/blockChain', payload: { id }, token });
const putArtwork = (id: number) => t.post('/artmanager/artwork/blockChain', { id });

describe('put on chain', () => {
  it('refuses an artwork whose author is not on chain, then accepts it once the author is', async () => {
    const author = await newAuthor('Put On Chain Author');
    const art = await newArtwork(author, 'First work');
    const refused = await putArtwork(art);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe(409);
    expect(refused.body.msg).toMatch(/"Put On Chain Author".*is not on chain yet/);
    const before = await t.get(`/artmanager/artwork/ArtInfoByArtId?artId=${art}`);
    expect(before.body.data).toMatchObject({ status: 0, isBlock: 0, chain: null });

    const a = await putAuthor(author);
    expect(a.status).toBe(200);
    expect(a.body.data).toMatchObject({ channel: 'artchannel', version: 1, repeated: false });
    expect(a.body.data.record).toMatchObject({ id: author, isBlock: 1, chain: a.body.data.txId });
    expect(a.body.data.record.blockTime).toBe(a.body.data.blockTime);
    expect(a.body.data.digest).toBe(recordDigest('author', a.body.data.record));

    const w = await putArtwork(art);
    expect(w.status).toBe(200);
    expect(w.body.data.record).toMatchObject({ id: art, status: 2, isBlock: 1, chain: w.body.data.txId });
    expect(w.body.data.blockNumber).toBeGreaterThanOrEqual(a.body.data.blockNumber);

    const tx = await t.get(`/baas-api/transaction?txId=${w.body.data.txId}`);
    expect(tx.body.data).toMatchObject({
      chaincode: 'artregistry',
      function: 'putArtwork',
      args: [String(art), '1', w.body.data.digest],
      creator: 'admin',
    });
  });

  it('is idempotent for an unchanged record and writes a new version after an edit', async () => {
    const author = await newAuthor('Idempotent Author');
    const first = await putAuthor(author);
    const totals = async () => (await t.get('/baas-api/dashboard')).body.data.transactions;
    const n = await totals();
    const again = await putAuthor(author);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ txId: first.body.data.txId, repeated: true, version: 1 });
    expect(await totals()).toBe(n);

    // Edited after it went on chain: the page shows the digest mismatch, the proof still holds for the old version.
    await t.post('/artmanager/authors/updateInfo', { id: author, introduction: 'edited later' });
    const edited = (await t.get(`/artmanager/authors/getInfo?id=${author}`)).body.data;
    const proof = (await t.get(`/baas-api/proof?txId=${edited.chain}`)).body.data;
    expect(await checkProofWeb(proof, await recordDigestWeb('author', edited))).toMatchObject({
      ok: false,
      reason: 'digest',
    });

    const second = await putAuthor(author);
    expect(second.body.data).toMatchObject({ version: 2, repeated: false });
    expect(second.body.data.txId).not.toBe(first.body.data.txId);
    expect(await totals()).toBe(n + 1);
    const fresh = (await t.get(`/artmanager/authors/getInfo?id=${author}`)).body.data;
    expect(fresh.chain).toBe(second.body.data.txId);
    const proof2 = (await t.get(`/baas-api/proof?txId=${fresh.chain}`)).body.data;
    expect(await checkProofWeb(proof2, await recordDigestWeb('author', fresh))).toMatchObject({
      ok: true,
      channel: 'artchannel',
    });
  });

  it('a record changed directly in the database no longer matches its on-chain digest', async () => {
    const author = await newAuthor('Tampered Author');
    const put = await putAuthor(author);
    await t.app.db
      .updateTable('authors')
      .set({ authorName: 'Someone Else' })
      .where('id', '=', author)
      .execute();
    const now = (await t.get(`/artmanager/authors/getInfo?id=${author}`)).body.data;
    const proof = (await t.get(`/baas-api/proof?txId=${put.body.data.txId}`)).body.data;
    const check = await checkProofWeb(proof, await recordDigestWeb('author', now));
    expect(check).toMatchObject({ ok: false, reason: 'digest', found: put.body.data.digest });
    // The chain itself is intact; the registry check names the record.
    const v = (await t.get('/baas-api/verify')).body.data;
    expect(v.chain.ok).toBe(true);
    expect(v.ok).toBe(false);
    expect(v.registry.problems).toContainEqual(
      expect.objectContaining({
        kind: 'author',
        recordId: author,
        field: 'digest',
        found: put.body.data.digest,
      }),
    );
    // Restored: the registry matches the ledger again.
    await t.app.db
      .updateTable('authors')
      .set({ authorName: 'Tampered Author' })
      .where('id', '=', author)
      .execute();
    expect((await t.get('/baas-api/verify')).body.data.ok).toBe(true);
  });

  it('answers 404 for an unknown record, 400 for a bad body, 403 for role user, 401 without a token', async () => {
    expect((await putAuthor(999_999)).status).toBe(404);
    expect((await t.post('/artmanager/authors/blockChain', { id: 'x' })).status).toBe(400);
    expect((await t.post('/artmanager/artwork/blockChain', { id: 1, extra: 1 })).status).toBe(400);
    expect((await putAuthor(1, t.userToken)).status).toBe(403);
    expect((await putAuthor(1, null)).status).toBe(401);
  });

  it('200 concurrent put-on-chain calls: every call answered, unique tx ids, contiguous block numbers, verified', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 200; i++) ids.push(await newAuthor(`Concurrent ${i}`));
    const answers = await Promise.all(ids.map((id) => putAuthor(id)));
    expect(answers.map((a) => a.status)).toEqual(ids.map(() => 200));
    const txIds = answers.map((a) => a.body.data.txId as string);
    expect(new Set(txIds).size).toBe(200);

    const ch = (await t.get('/baas-api/channels')).body.data.list[0];
    const numbers: number[] = [];
    for (let page = 1; (page - 1) * 100 < ch.height; page++) {
      const r = await t.get(`/baas-api/blocks?channelId=${ch.id}&page=${page}&pageSize=100&order=ASC`);
      numbers.push(...r.body.data.list.map((b: { number: number }) => b.number));
    }
    expect(numbers).toEqual(Array.from({ length: ch.height }, (_, i) => i));
    for (const a of answers) {
      const tx = await t.get(`/baas-api/transaction?txId=${a.body.data.txId}`);
      expect(tx.body.data.blockNumber).toBe(a.body.data.blockNumber);
    }
    const v = (await t.get('/baas-api/verify')).body.data;
    expect(v.ok).toBe(true);
    expect(v.message).toMatch(/^verified \d+ blocks, \d+ transactions/);
  });
});

describe('/baas-api reads', () => {
  it('role user reads the dashboard, channels, blocks, block detail, transactions, search; no token is refused', async () => {
    const u = (url: string) => t.call({ method: 'GET', url, token: t.userToken });
    const dash = await u('/baas-api/dashboard');
    expect(dash.status).toBe(200);
    expect(dash.body.data).toMatchObject({ channels: 1 });
    expect(dash.body.data.perMinute).toHaveLength(60);
    expect(dash.body.data.perHour).toHaveLength(24);
    expect(
      dash.body.data.perMinute.reduce((s: number, b: { count: number }) => s + b.count, 0),
    ).toBeGreaterThan(0);
    expect((await t.get('/baas-api/dashboard', null)).status).toBe(401);

    const ch = (await u('/baas-api/channels')).body.data.list[0];
    expect(ch).toMatchObject({ id: 1, name: 'artchannel' });
    expect((await u('/baas-api/channel?id=1')).body.data.height).toBe(ch.height);
    expect((await u('/baas-api/channel?id=99')).status).toBe(404);

    const page2 = (await u(`/baas-api/blocks?channelId=1&page=2&pageSize=5`)).body.data;
    expect(page2.total).toBe(ch.height);
    expect(page2.list.map((b: { number: number }) => b.number)).toEqual([
      ch.height - 6,
      ch.height - 7,
      ch.height - 8,
      ch.height - 9,
      ch.height - 10,
    ]);
    const none = (await u('/baas-api/blocks?channelId=1&from=2000-01-01&to=2000-01-02')).body.data;
    expect(none).toEqual({ list: [], total: 0 });
    const today = new Date().toISOString().slice(0, 10);
    expect((await u(`/baas-api/blocks?channelId=1&from=${today}&to=${today}T23:59`)).body.data.total).toBe(
      ch.height,
    );
    expect((await u('/baas-api/blocks?channelId=1&from=2001-01-02&to=2001-01-01')).status).toBe(400);
    expect((await u('/baas-api/blocks?channelId=1&from=yesterday')).status).toBe(400);
    expect((await u('/baas-api/blocks?channelId=1&pageSize=101')).status).toBe(400);

    const b1 = (await u('/baas-api/block?channelId=1&number=1')).body.data;
    expect(b1.transactions).toHaveLength(b1.txCount);
    expect((await u('/baas-api/block?channelId=1&number=100000')).status).toBe(404);

    const byNumber = (await u('/baas-api/search?q=1')).body.data.list;
    expect(byNumber).toEqual([
      expect.objectContaining({ type: 'block', number: 1, blockHash: b1.blockHash }),
    ]);
    const byHash = (await u(`/baas-api/search?q=${b1.blockHash.toUpperCase()}`)).body.data.list;
    expect(byHash).toEqual([expect.objectContaining({ type: 'block', number: 1 })]);
    const byTx = (await u(`/baas-api/search?q=${b1.transactions[0].txId}`)).body.data.list;
    expect(byTx).toEqual([
      expect.objectContaining({ type: 'transaction', number: 1, txId: b1.transactions[0].txId }),
    ]);
    expect((await u('/baas-api/search?q=not-a-hash')).status).toBe(400);
    expect((await u(`/baas-api/search?q=${'0'.repeat(64)}`)).body.data).toEqual({ list: [], total: 0 });

    const txs = (await u('/baas-api/transactions?channelId=1&blockNumber=1')).body.data;
    expect(txs.total).toBe(b1.txCount);
    expect((await u(`/baas-api/transaction?txId=${'0'.repeat(64)}`)).status).toBe(404);
    expect((await u('/baas-api/proof?txId=xyz')).status).toBe(400);
  });
});

describe('chaincode', () => {
  const GO =
    '// Package main: an asset-transfer chaincode.\npackage main\n\nimport "fmt"\n\nfunc main() { fmt.Println("ok") }\n';
  const form = (fields: Record<string, string>, file?: { name: string; content: Buffer | string }) =>
    multipart(fields, file && { bytes: Buffer.from(file.content), filename: file.name });
  const upload = (
    fields: Record<string, string>,
    file?: { name: string; content: Buffer | string },
    token?: string,
  ) => t.call({ method: 'POST', url: '/baas-api/chaincode/upload', ...form(fields, file), token });

  it('accepts Go source and walks installed → approved → committed, each a ledger transaction', async () => {
    const r = await upload(
      {
        name: 'asset',
        version: '1.0',
        initArgs: '["init","a","100"]',
        args: 'a, b',
        policy: "OR('Org1MSP.peer')",
        function: 'transfer',
        functionType: 'invoke',
      },
      { name: 'asset.go', content: GO },
    );
    expect(r.status).toBe(200);
    const cc = r.body.data;
    expect(cc).toMatchObject({
      name: 'asset',
      version: '1.0',
      status: 'installed',
      initArgs: ['init', 'a', '100'],
      args: ['a', 'b'],
      channel: 'artchannel',
      code: GO,
    });
    expect(cc.history).toEqual([expect.objectContaining({ status: 'installed' })]);

    expect((await t.post('/baas-api/chaincode/commit', { id: cc.id })).status).toBe(409);
    const approved = await t.post('/baas-api/chaincode/approve', { id: cc.id });
    expect(approved.body.data.status).toBe('approved');
    expect((await t.post('/baas-api/chaincode/approve', { id: cc.id })).status).toBe(409);
    const committed = await t.post('/baas-api/chaincode/commit', { id: cc.id });
    expect(committed.body.data.status).toBe('committed');
    expect(committed.body.data.history.map((h: { status: string }) => h.status)).toEqual([
      'installed',
      'approved',
      'committed',
    ]);
    for (const h of committed.body.data.history) {
      const tx = (await t.get(`/baas-api/transaction?txId=${h.txId}`)).body.data;
      expect(tx.chaincode).toBe('_lifecycle');
      expect(tx.args).toEqual(['asset', '1.0', cc.codeHash]);
    }
    const list = (await t.get('/baas-api/chaincodes', t.userToken)).body.data;
    expect(list.list[0]).toMatchObject({ id: cc.id, status: 'committed' });
    expect((await t.get(`/baas-api/chaincode?id=${cc.id}`, t.userToken)).body.data.code).toBe(GO);
    expect((await upload({ name: 'asset', version: '1.0' }, { name: 'asset.go', content: GO })).status).toBe(
      409,
    );
  });

  it('refuses anything that is not Go source, with a message saying why', async () => {
    const cases: [string, { name: string; content: Buffer | string }, RegExp][] = [
      ['extension', { name: 'asset.js', content: GO }, /must end in \.go/],
      ['binary', { name: 'asset.go', content: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]) }, /binary/],
      ['no package clause', { name: 'asset.go', content: '#!/bin/sh\nrm -rf /\n' }, /package clause/],
      ['not UTF-8', { name: 'asset.go', content: Buffer.from([0x70, 0x61, 0xff, 0xfe]) }, /not UTF-8/],
      ['too large', { name: 'asset.go', content: 'package main\n' + '// x\n'.repeat(110_000) }, /512 KiB/],
    ];
    for (const [what, file, msg] of cases) {
      const r = await upload({ name: 'bad', version: '1' }, file);
      expect(r.status, what).toBe(400);
      expect(r.body.msg, what).toMatch(msg);
    }
    expect((await upload({ name: 'bad', version: '1' })).body.msg).toMatch(/No file/);
    expect(
      (await upload({ name: 'bad name!', version: '1' }, { name: 'a.go', content: GO })).body.msg,
    ).toMatch(/name/);
    expect(
      (await upload({ name: 'ok', version: '1', color: 'red' }, { name: 'a.go', content: GO })).body.msg,
    ).toMatch(/color: is not a known field/);
    // `user` installs chaincode but may not approve it (tests/api/contracts.test.ts has the role table).
    expect((await t.post('/baas-api/chaincode/approve', { id: 1 }, t.userToken)).status).toBe(403);
    const dash = (await t.get('/baas-api/dashboard')).body.data;
    // The uploaded chaincode and `artregistry`, which the put-on-chain transactions above invoke.
    expect(dash.chaincodes).toBe(2);
  });
});

/**
 * Our witness (server/witness/app.ts) answering C2SP tlog-witness `add-checkpoint` as the spec says: a
 * log kept in memory (common/ledger/tlog.ts stored hashes) signs checkpoints whose origin is its key name;
 * the witness cosigns the first (old 0), then each consistent extension; answers 409 with its size as
 * `text/x.tlog.size`, 422 for a flipped proof byte or a fork at the same size, 404 for an unknown
 * origin, 403 for a bad or missing log signature, 400 when malformed; never rolls back under two
 * concurrent requests; and keeps its state across a restart on the same SQLite file.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Hash } from '../../common/ledger/tlog';
import { acceptCosignatures, formatAddCheckpoint, parseVkey } from '../../common/ledger/witness';
import { formatCheckpoint } from '../../common/ledger/note';
import { signNote, type SigningKey } from '../ledger/checkpoints';
import { MemLog, testLogKey } from '../../tests/support/memLog';
import { buildWitnessApp, originHash } from './app';
import { cosignerKey, type CosignerKey } from './key';
import { WitnessStore } from './store';

const root = mkdtempSync(join(tmpdir(), 'baas-witness-app-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ORIGIN = 'registry.example/artchannel';

const logKey = (name = ORIGIN) => testLogKey(name);

async function witnessKey(): Promise<CosignerKey> {
  return cosignerKey('witness.test/w1', generateKeyPairSync('ed25519').privateKey, 'test');
}

async function setup(file: string, log: SigningKey, wkey: CosignerKey) {
  const store = new WitnessStore(file);
  const app = buildWitnessApp({ key: wkey, store, logs: [await parseVkey(log.vkey)] });
  await app.ready();
  const add = (oldSize: number, proof: Hash[], note: string) =>
    app.inject({
      method: 'POST',
      url: '/add-checkpoint',
      payload: formatAddCheckpoint({ oldSize, proof, note }),
    });
  const close = async () => {
    await app.close();
    store.close();
  };
  return { app, store, add, close };
}

/** A fresh log key, witness key, in-memory log and witness on `file` (under the test's temp dir). */
async function fresh(file: string) {
  const key = await logKey();
  const wkey = await witnessKey();
  const log = new MemLog(key);
  const w = await setup(join(root, file), key, wkey);
  return { key, wkey, log, w };
}

describe('witness add-checkpoint (C2SP tlog-witness)', () => {
  it('cosigns consistent checkpoints and refuses everything else with the spec status', async () => {
    const { key, wkey, log, w } = await fresh('a.sqlite');
    log.append(5);
    const first = await log.note();
    const r1 = await w.add(0, [], first);
    expect(r1.statusCode).toBe(200);
    const got = await acceptCosignatures(first, r1.body, { name: wkey.name, publicKey: wkey.publicKey });
    expect(got.lines).toHaveLength(1);
    expect(got.time).toBeGreaterThan(0);

    log.append(12);
    const second = await log.note();
    // The log believes the witness is still at 0: 409 with the witness's size.
    const stale = await w.add(0, [], second);
    expect(stale.statusCode).toBe(409);
    expect(stale.headers['content-type']).toBe('text/x.tlog.size');
    expect(stale.body).toBe('5\n');
    // A proof with one flipped byte: 422, nothing stored.
    const proof = log.proof(5);
    expect(proof.length).toBeGreaterThan(0);
    expect(proof.length).toBeLessThanOrEqual(63);
    const bad = proof.map((h) => h.slice());
    bad[0][7] ^= 1;
    expect((await w.add(5, bad, second)).statusCode).toBe(422);
    expect(w.store.get(ORIGIN)).toMatchObject({ size: 5, rootHash: log.root(5) });
    // The right proof: cosigned.
    const r2 = await w.add(5, proof, second);
    expect(r2.statusCode).toBe(200);
    expect(w.store.get(ORIGIN)).toMatchObject({ size: 17, rootHash: log.root(17) });

    // A fork at the same size (another root hash, validly signed): 422, and kept as evidence.
    const fork = await log.note(17, 'ab'.repeat(32));
    const r3 = await w.add(17, [], fork);
    expect(r3.statusCode).toBe(422);
    expect(w.store.refusals(ORIGIN)[0]).toMatchObject({ status: 422, body: expect.stringContaining(fork) });
    // A fork that grows: the proof from the witness's tree does not verify.
    const other = new MemLog(key);
    other.append(20, 'forged');
    expect((await w.add(17, other.proof(17), await other.note())).statusCode).toBe(422);
    // Unknown origin: 404. Another key for the known origin, or a broken signature: 403.
    const stranger = await logKey('elsewhere.example/log');
    const foreign = await signNote(
      stranger,
      formatCheckpoint({ origin: 'elsewhere.example/log', size: 1, rootHash: log.root(1), extensions: [] }),
    );
    expect((await w.add(0, [], foreign)).statusCode).toBe(404);
    const impostor = await logKey(ORIGIN);
    expect((await w.add(17, [], await log.note(17, log.root(17), impostor))).statusCode).toBe(403);
    const broken = second.replace(
      /(\u2014 \S+ )(.)/,
      (_m, a: string, c: string) => a + (c === 'A' ? 'B' : 'A'),
    );
    expect((await w.add(17, [], broken)).statusCode).toBe(403);
    // Malformed: 400. Old size above the checkpoint's: 400.
    expect(
      (await w.app.inject({ method: 'POST', url: '/add-checkpoint', payload: 'old x\n\n' })).statusCode,
    ).toBe(400);
    expect((await w.add(18, [], second)).statusCode).toBe(400);
    // Whatever (or no) content type the client names, the body is read as text.
    for (const type of ['', 'application/octet-stream'])
      expect(
        (
          await w.app.inject({
            method: 'POST',
            url: '/add-checkpoint',
            payload: formatAddCheckpoint({ oldSize: 5, proof: [], note: second }),
            headers: { 'content-type': type },
          })
        ).statusCode,
      ).toBe(409);
    // Nothing above changed the state.
    expect(w.store.get(ORIGIN)).toMatchObject({ size: 17, rootHash: log.root(17) });
    // The monitoring call serves the cosigned checkpoint with both signatures.
    const mon = await w.app.inject({ method: 'GET', url: `/${originHash(ORIGIN)}/checkpoint` });
    expect(mon.statusCode).toBe(200);
    expect(mon.body.startsWith(second)).toBe(true);
    expect((await acceptCosignatures(second, mon.body.slice(second.length), wkey)).lines).toHaveLength(1);
    await w.close();
  });

  it('never rolls back: of two concurrent requests from the same size, one is cosigned, the other gets 409', async () => {
    const { log, w } = await fresh('race.sqlite');
    log.append(3);
    expect((await w.add(0, [], await log.note())).statusCode).toBe(200);
    log.append(4);
    const a = await log.note(7);
    log.append(4);
    const b = await log.note(11);
    const [ra, rb] = await Promise.all([w.add(3, log.proof(3, 7), a), w.add(3, log.proof(3, 11), b)]);
    expect([ra.statusCode, rb.statusCode].sort()).toEqual([200, 409]);
    const won = ra.statusCode === 200 ? 7 : 11;
    expect(w.store.get(ORIGIN)?.size).toBe(won);
    expect((ra.statusCode === 409 ? ra : rb).body).toBe(`${won}\n`);
    await w.close();
  });

  it('keeps its state across a restart on the same SQLite file', async () => {
    const { key, wkey, log, w: first } = await fresh('restart.sqlite');
    let w = first;
    log.append(9);
    expect((await w.add(0, [], await log.note())).statusCode).toBe(200);
    await w.close();

    w = await setup(join(root, 'restart.sqlite'), key, wkey);
    log.append(2);
    const next = await log.note();
    const stale = await w.add(0, [], next);
    expect(stale.statusCode).toBe(409);
    expect(stale.body).toBe('9\n');
    expect((await w.add(9, log.proof(9), next)).statusCode).toBe(200);
    expect(w.store.get(ORIGIN)).toMatchObject({ size: 11, rootHash: log.root(11) });
    await w.close();
  });
});

/**
 * The log's pusher (server/ledger/witnessPush.ts) against our witness app (server/witness/app.ts, called
 * through `inject` in place of the network): the first checkpoint goes with `old 0`, the next with the
 * consistency proof from the witness's size; a log that forgot what the witness holds follows its 409 and
 * is cosigned; a forked history is refused (422) and counted; an unreachable witness is an error; the
 * published note carries the cosignature only for the checkpoint it was made on. And LEDGER_WITNESSES is
 * parsed, naming a wrong entry.
 */
import { generateKeyPairSync } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { parseVkey, verifiedCosigners } from '../../common/ledger/witness';
import { MemLog, testLogKey } from '../../tests/support/memLog';
import { up } from '../db/migrations/20261126T0200_ledger_witness_push';
import { buildWitnessApp } from '../witness/app';
import { cosignerKey } from '../witness/key';
import { WitnessStore } from '../witness/store';
import { cosignedNote, parseWitnessList, WitnessPusher, type CheckpointSource } from './witnessPush';

const ORIGIN = 'registry.example/artchannel';

async function setup() {
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
  await db.schema
    .createTable('ledger_channel')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .execute();
  await db.insertInto('ledger_channel').values({ id: 1 }).execute();
  await up(db);
  const key = await testLogKey(ORIGIN);
  const wkey = await cosignerKey('w1.example', generateKeyPairSync('ed25519').privateKey, 'test');
  const store = new WitnessStore(':memory:');
  const witness = buildWitnessApp({ key: wkey, store, logs: [await parseVkey(key.vkey)] });
  const calls: { old: number; status: number }[] = [];
  let down = false;
  const fetchFn = (async (_url: string, init: RequestInit) => {
    if (down) throw new Error('connect ECONNREFUSED');
    const r = await witness.inject({ method: 'POST', url: '/add-checkpoint', payload: String(init.body) });
    calls.push({ old: Number(/^old (\d+)/.exec(String(init.body))![1]), status: r.statusCode });
    return new Response(r.body, {
      status: r.statusCode,
      headers: { 'content-type': r.headers['content-type'] as string },
    });
  }) as typeof fetch;
  let log = new MemLog(key);
  const source: CheckpointSource = {
    channels: async () => [{ id: 1, name: 'artchannel' }],
    latest: async () => ({ size: log.size, rootHash: log.root(), note: await log.note() }),
    consistency: async (_c, m, n) => log.proof(m, n),
  };
  const wv = await parseVkey(wkey.vkey);
  const pusher = new WitnessPusher(db, [{ vkey: wv, url: 'http://witness.test' }], source, {
    fetch: fetchFn,
  });
  const status = () => db.selectFrom('ledger_witness_status').selectAll().executeTakeFirstOrThrow();
  return {
    db,
    key,
    wv,
    store,
    calls,
    pusher,
    status,
    log: () => log,
    setLog: (l: MemLog) => (log = l),
    setDown: (d: boolean) => (down = d),
  };
}

describe('the log pushes checkpoints to its witnesses (C2SP tlog-witness)', () => {
  it('old 0 first, then a consistency proof; follows a 409; counts a 422 refusal and an unreachable witness', async () => {
    const s = await setup();
    s.log().append(4);
    await s.pusher.pushAll();
    expect(s.calls).toEqual([{ old: 0, status: 200 }]);
    expect(await s.status()).toMatchObject({ size: 4, cosignedSize: 4, refusals: 0, errors: 0 });
    const cp4 = { size: 4, rootHash: s.log().root(), note: await s.log().note() };
    const published = await cosignedNote(s.db, 1, cp4);
    expect(await verifiedCosigners(published, [s.wv])).toHaveLength(1);
    // Already cosigned: nothing sent.
    await s.pusher.pushAll();
    expect(s.calls).toHaveLength(1);

    s.log().append(9);
    await s.pusher.pushAll();
    expect(s.calls[1]).toEqual({ old: 4, status: 200 });
    expect(await s.status()).toMatchObject({ size: 13, cosignedSize: 13 });
    // The cosignature of size 4 is not carried by the checkpoint of size 13, and the other way round.
    const cp13 = { size: 13, rootHash: s.log().root(), note: await s.log().note() };
    expect(await verifiedCosigners(await cosignedNote(s.db, 1, cp13), [s.wv])).toHaveLength(1);
    expect((await cosignedNote(s.db, 1, cp4)).split('\n\u2014').length).toBe(3);

    // The log lost track of the witness's size: 409, then cosigned from the size it answered.
    await s.db.updateTable('ledger_witness_status').set({ size: 0, cosignedSize: 0 }).execute();
    s.log().append(2);
    await s.pusher.pushAll();
    expect(s.calls.slice(2)).toEqual([
      { old: 0, status: 409 },
      { old: 13, status: 200 },
    ]);
    expect(await s.status()).toMatchObject({ size: 15, cosignedSize: 15 });

    // A forked history, longer: 422, a refusal; the witness keeps its tree.
    const forked = new MemLog(s.key).append(3).append(1, 'forged').append(20);
    s.setLog(forked);
    await s.pusher.pushAll();
    expect(s.calls.at(-1)).toEqual({ old: 15, status: 422 });
    expect(await s.status()).toMatchObject({
      cosignedSize: 15,
      refusals: 1,
      lastError: expect.stringMatching(/^422: /),
    });
    expect(s.store.get(ORIGIN)?.size).toBe(15);

    // Unreachable: an error, nothing else changes.
    s.setDown(true);
    await s.pusher.pushAll();
    expect(await s.status()).toMatchObject({ cosignedSize: 15, refusals: 1, errors: 1 });
  });

  it('parses LEDGER_WITNESSES and names a wrong entry', async () => {
    const s = await setup();
    const list = await parseWitnessList(
      `https://w1.example/ ${s.wv.text},\n${s.wv.text.replace('w1', 'w1')} https://w1.example`,
    );
    expect(list).toEqual([
      { vkey: expect.objectContaining({ name: 'w1.example' }), url: 'https://w1.example' },
    ]);
    await expect(parseWitnessList('https://w1.example')).rejects.toThrow(
      /entry "https:\/\/w1.example" must be/,
    );
    await expect(parseWitnessList(`https://w1.example ${s.key.vkey}`)).rejects.toThrow(
      /type 0x01, expected 0x04/,
    );
    expect(await parseWitnessList(undefined)).toEqual([]);
  });
});

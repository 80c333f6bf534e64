/**
 * The witnesses' memory of the log (server/ledger/witnessMemory.ts), asked through a stand-in for the
 * network: a checkpoint counts only when the log's own key signed it under the origin asked and the
 * witness cosigned it; garbage, another origin, a note the log never signed, one without the witness's
 * cosignature, a 5xx and an unreachable witness each leave one line naming the witness, and nothing
 * remembered. 404 is "holds nothing". The largest size per witness and origin wins.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatCheckpoint, verifyCheckpointNote } from '../../common/ledger/note';
import { parseVkey, verifiedCosigners } from '../../common/ledger/witness';
import { testLogKey } from '../../tests/support/memLog';
import { cosign, cosignerKey } from '../witness/key';
import { signNote, type SigningKey } from './checkpoints';
import { originHash, WitnessMemory } from './witnessMemory';

const ORIGIN = 'registry.example/artchannel';
const ROOT = 'ab'.repeat(32);

async function setup(answer: (url: string) => Response | Promise<Response>) {
  const log = await testLogKey(ORIGIN);
  const other = await testLogKey(ORIGIN);
  const wkey = await cosignerKey('w1.example', generateKeyPairSync('ed25519').privateKey, 'test');
  const vkey = await parseVkey(wkey.vkey);
  const lines: string[] = [];
  const memory = new WitnessMemory(
    { list: [{ vkey, url: 'http://w1.test' }] },
    { fetch: (async (url: string) => answer(url)) as typeof fetch, log: (m) => lines.push(m) },
  );
  const note = async (size: number, origin = ORIGIN, key = log) =>
    signNote(key, formatCheckpoint({ origin, size, rootHash: ROOT, extensions: [] }));
  const cosigned = async (n: string) => {
    const body = n.slice(0, n.indexOf('\n\n') + 1);
    return n + cosign(wkey, body, 1_800_000_000);
  };
  const check = async (origin: string, text: string) => {
    const v = await verifyCheckpointNote(text, log as SigningKey);
    return v.ok && v.checkpoint.origin === origin ? v.checkpoint : undefined;
  };
  return { memory, note, cosigned, check, lines, other };
}

describe('WitnessMemory', () => {
  it('remembers a checkpoint the log signed and the witness cosigned, asked at its monitoring path', async () => {
    let asked = '';
    let body = '';
    const s = await setup((url) => {
      asked = url;
      return new Response(body, { status: 200 });
    });
    body = await s.cosigned(await s.note(12));
    await s.memory.askAll([ORIGIN], s.check);
    expect(asked).toBe(`http://w1.test/${originHash(ORIGIN)}/checkpoint`);
    expect(s.memory.newest(ORIGIN)).toMatchObject({ witness: 'w1.example', size: 12, rootHash: ROOT });
    expect(s.memory.unreachable()).toEqual([]);
    const got = s.memory.newest(ORIGIN)!;
    expect((await verifiedCosigners(got.note, [s.memory.witnesses[0].vkey])).length).toBe(1);
    // A smaller size later does not replace it.
    s.memory.remember({ witness: 'w1.example', origin: ORIGIN, size: 5, rootHash: ROOT, note: '' });
    expect(s.memory.newest(ORIGIN)?.size).toBe(12);
  });

  it('404: the witness holds nothing of that origin, and is reachable', async () => {
    const s = await setup(() => new Response('not found\n', { status: 404 }));
    await s.memory.askAll([ORIGIN], s.check);
    expect(s.memory.newest(ORIGIN)).toBeUndefined();
    expect(s.memory.unreachable()).toEqual([]);
  });

  const bad: [string, (s: Awaited<ReturnType<typeof setup>>) => Promise<string | Error>, RegExp][] = [
    ['garbage', async () => 'hello\x00world', /not a checkpoint for registry\.example\/artchannel/],
    [
      'a checkpoint of another origin',
      async (s) => s.cosigned(await s.note(3, 'other.example/log')),
      /another origin \(other\.example\/log\)/,
    ],
    [
      'a checkpoint another key signed',
      async (s) => s.cosigned(await s.note(3, ORIGIN, s.other)),
      /this log's key did not sign/,
    ],
    ['no cosignature of its own', async (s) => s.note(3), /without its own valid cosignature/],
    [
      'unreachable',
      async () => new Error('connect ECONNREFUSED'),
      /unreachable at http:\/\/w1\.test\/.*ECONNREFUSED/,
    ],
  ];
  for (const [name, make, reason] of bad)
    it(`${name}: one line naming the witness, nothing remembered`, async () => {
      let answer: string | Error = '';
      const s = await setup(() => {
        if (answer instanceof Error) throw answer;
        return new Response(answer, { status: 200 });
      });
      answer = await make(s);
      await s.memory.askAll([ORIGIN], s.check);
      expect(s.memory.newest(ORIGIN)).toBeUndefined();
      const [r] = s.memory.unreachable();
      expect(r).toMatchObject({ witness: 'w1.example', ok: false });
      expect(r.reason).toMatch(reason);
      expect(r.reason).not.toMatch(/\n/);
      expect(s.lines).toEqual([`witness w1.example: ${r.reason}`]);
    });

  it('a 5xx answer is a failure; the next good answer clears it', async () => {
    let status = 503;
    let body = 'busy';
    const s = await setup(() => new Response(body, { status }));
    await s.memory.askAll([ORIGIN], s.check);
    expect(s.memory.unreachable()[0].reason).toMatch(/answered 503/);
    status = 200;
    body = await s.cosigned(await s.note(4));
    await s.memory.askAll([ORIGIN], s.check);
    expect(s.memory.unreachable()).toEqual([]);
    expect(s.memory.newest(ORIGIN)?.size).toBe(4);
  });
});

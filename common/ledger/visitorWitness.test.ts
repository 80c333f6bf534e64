/**
 * The public page as a witness (common/ledger/visitorWitness.ts): a browser remembers the checkpoint it
 * saw, accepts a consistent growth, keeps its newer tree when served an older consistent one, and raises
 * the alarm, with both notes and the proof as evidence, on a fork (same size, other hash; or a proof
 * that fails) and on a rollback the log cannot prove. And the page's verdict: where a policy is set,
 * "Not verified" without its quorum even when every record step passed.
 */
import { describe, expect, it } from 'vitest';
import { MemLog, testLogKey } from '../../tests/support/memLog';
import { evaluatePolicy, parsePolicy } from './policy';
import { checkVisit, pageVerdict, type CheckpointMemory } from './visitorWitness';
import { cosignerVkey } from './witness';

const ORIGIN = 'registry.example/artchannel';

function memory(): CheckpointMemory & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, get: (o) => map.get(o), set: (o, n) => void map.set(o, n) };
}

describe('every visitor is a witness', () => {
  it('remembers, follows consistent growth, and alarms on a fork with downloadable evidence', async () => {
    const key = await testLogKey(ORIGIN);
    const log = new MemLog(key).append(6);
    const mem = memory();
    const prove = (m: number, n: number) => Promise.resolve(log.proof(m, n));
    const first = await log.note();
    expect(await checkVisit(first, key, mem, prove)).toEqual({ kind: 'first' });
    expect(mem.map.get(ORIGIN)).toBe(first);
    expect(await checkVisit(first, key, mem, prove)).toMatchObject({ kind: 'same' });
    log.append(30);
    const grown = await log.note();
    expect(await checkVisit(grown, key, mem, prove)).toEqual({ kind: 'extends', previousSize: 6 });
    expect(mem.map.get(ORIGIN)).toBe(grown);
    // An older, consistent checkpoint (a stale cache): fine, the newer one stays remembered.
    expect(await checkVisit(await log.note(20), key, mem, prove)).toEqual({
      kind: 'older',
      previousSize: 36,
    });
    expect(mem.map.get(ORIGIN)).toBe(grown);

    // A fork: a log that rewrote entry 3 and grew; its own proof cannot link to the remembered tree.
    const forked = new MemLog(key).append(3).append(1, 'forged').append(40);
    const forkNote = await forked.note();
    const fork = await checkVisit(forkNote, key, mem, (m, n) => Promise.resolve(forked.proof(m, n)));
    expect(fork).toMatchObject({
      kind: 'fork',
      evidence: { previous: grown, latest: forkNote, origin: ORIGIN },
    });
    expect(fork.kind === 'fork' && fork.evidence.proof.length).toBeGreaterThan(0);
    expect(mem.map.get(ORIGIN)).toBe(grown);
    // The same size with another hash.
    const same = await checkVisit(await forked.note(36), key, mem, prove);
    expect(same).toMatchObject({ kind: 'fork', message: 'two different trees of size 36' });
    // A log that shrank and cannot prove the tree it showed: a rollback.
    const short = new MemLog(key).append(10);
    const rollback = await checkVisit(await short.note(), key, mem, () => Promise.reject(new Error('404')));
    expect(rollback).toMatchObject({ kind: 'rollback', evidence: { previous: grown } });
    // A note the key did not sign changes nothing.
    const other = await testLogKey(ORIGIN);
    expect(await checkVisit(await log.note(36, log.root(), other), key, mem, prove)).toMatchObject({
      kind: 'unchecked',
    });
    expect(mem.map.get(ORIGIN)).toBe(grown);
  });
});

describe('the page verdict', () => {
  it('refuses "Verified" without the quorum where a policy is set, and says witnessed by k of n', async () => {
    const keys = await Promise.all(
      [1, 2, 3].map(async (i) => cosignerVkey(`w${i}.example`, (await testLogKey(`x${i}`)).publicKey)),
    );
    const policy = await parsePolicy(
      `${keys.map((k, i) => `witness W${i} ${k}`).join('\n')}\ngroup G 2 W0 W1 W2\nquorum G\n`,
    );
    const one = evaluatePolicy(policy, ['w1.example']);
    const two = evaluatePolicy(policy, ['w1.example', 'w3.example']);
    expect(pageVerdict(true, one, true, { kind: 'same' })).toEqual({
      ok: false,
      witnessed: { k: 1, n: 3 },
      reasons: ['quorum'],
    });
    expect(pageVerdict(true, two, true, { kind: 'extends' })).toEqual({
      ok: true,
      witnessed: { k: 2, n: 3 },
      reasons: [],
    });
    // No policy: the record's checks decide; the count is still shown.
    expect(pageVerdict(true, one, false, undefined)).toMatchObject({ ok: true, witnessed: { k: 1, n: 3 } });
    expect(pageVerdict(false, two, true, undefined)).toMatchObject({ ok: false, reasons: ['record'] });
    const fork = { kind: 'fork' as const, message: 'x', evidence: {} as never };
    expect(pageVerdict(true, two, true, fork)).toMatchObject({ ok: false, reasons: ['fork'] });
  });
});

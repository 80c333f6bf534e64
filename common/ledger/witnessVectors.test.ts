/**
 * The witness test vectors of docs/witnesses.md section 11.7, read from the document itself and recomputed:
 * the vkeys from the stated seeds, the tree roots of the stated entries (common/ledger/tlog.ts), the
 * add-checkpoint body the log sends (consistency proof 10 → 17), the witness's cosignature line at the
 * stated time (server/witness/key.ts), which our witness also accepts and Web Crypto verifies, and the
 * proof file of entry 5, which verifies offline with a policy requiring that witness.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeKey, signNote } from '../../server/ledger/checkpoints';
import { ed25519SeedKey } from '../../server/ledger/ed25519Key';
import { buildWitnessApp } from '../../server/witness/app';
import { cosign, cosignerKey } from '../../server/witness/key';
import { WitnessStore } from '../../server/witness/store';
import { toHex } from './hex';
import { formatCheckpoint, splitNote } from './note';
import { parsePolicy } from './policy';
import { formatProofFile, verifyProofFile } from './proofFile';
import { proveRecord, proveTree, storedHashes, treeHash, type Hash } from './tlog';
import { acceptCosignatures, formatAddCheckpoint, parseVkey } from './witness';

const doc = readFileSync(join(import.meta.dirname, '../../docs/witnesses.md'), 'utf8');
const block = doc.slice(
  doc.indexOf('<!-- witness-vectors:begin -->'),
  doc.indexOf('<!-- witness-vectors:end -->'),
);
const [table, request, line, proofFile] = [...block.matchAll(/```\n([\s\S]*?)```/g)].map((m) => m[1]);
const value = (label: string) => new RegExp(`^${label}\\s+(\\S+)$`, 'm').exec(table)![1];

/** The test key whose seed is the 32 bytes first, first + 1, …, first + 31. */
const keyOf = (first: number) => ed25519SeedKey(Uint8Array.from({ length: 32 }, (_, i) => first + i));

async function vectors() {
  const log = await describeKey('registry.example/artchannel', keyOf(0), 'vector');
  const w = await cosignerKey('witness.example/w1', keyOf(32), 'vector');
  const stored: Hash[] = [];
  const read = (ix: number[]) => ix.map((i) => stored[i]);
  const entries = Array.from({ length: 17 }, (_, i) => new TextEncoder().encode(`entry ${i}`));
  entries.forEach((e, i) => stored.push(...storedHashes(i, e, read)));
  const note = await signNote(
    log,
    formatCheckpoint({ origin: log.name, size: 17, rootHash: toHex(treeHash(17, read)), extensions: [] }),
  );
  return { log, w, read, entries, note };
}

describe('docs/witnesses.md section 11.7 witness test vectors', () => {
  it('the keys, the roots, the request, the cosignature and the proof file', async () => {
    const v = await vectors();
    expect(v.log.vkey).toBe(value('log vkey'));
    expect(v.w.vkey).toBe(value('witness vkey'));
    expect(toHex(treeHash(10, v.read))).toBe(value('root of size 10'));
    expect(toHex(treeHash(17, v.read))).toBe(value('root of size 17'));
    expect(formatAddCheckpoint({ oldSize: 10, proof: proveTree(17, 10, v.read), note: v.note })).toBe(
      request,
    );
    const cosignature = cosign(v.w, splitNote(v.note).body, 1795305600);
    expect(cosignature).toBe(line);
    const wk = { name: v.w.name, publicKey: v.w.publicKey };
    expect(await acceptCosignatures(v.note, line, wk)).toEqual({ lines: [line], time: 1795305600 });
    const file = formatProofFile({
      extra: v.entries[5],
      index: 5,
      proof: proveRecord(17, 5, v.read),
      note: v.note + cosignature,
    });
    expect(file).toBe(proofFile);
    const policy = await parsePolicy(`log ${v.log.vkey}\nwitness W1 ${v.w.vkey}\nquorum W1\n`);
    expect(await verifyProofFile(proofFile, await parseVkey(value('log vkey')), policy)).toMatchObject({
      ok: true,
      index: 5,
      entry: 'entry 5',
      quorum: { ok: true, cosigned: 1, witnesses: 1 },
    });
  });

  it('our witness holding the tree of size 10 cosigns the documented request', async () => {
    const v = await vectors();
    const store = new WitnessStore(':memory:');
    const body10 = formatCheckpoint({
      origin: v.log.name,
      size: 10,
      rootHash: value('root of size 10'),
      extensions: [],
    });
    expect(
      store.advance(undefined, {
        origin: v.log.name,
        size: 10,
        rootHash: value('root of size 10'),
        note: await signNote(v.log, body10),
      }),
    ).toBe(true);
    const app = buildWitnessApp({
      key: v.w,
      store,
      logs: [await parseVkey(v.log.vkey)],
      now: () => 1795305600,
    });
    const res = await app.inject({ method: 'POST', url: '/add-checkpoint', payload: request });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(line);
    await app.close();
    store.close();
  });
});

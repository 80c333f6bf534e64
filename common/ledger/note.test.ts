/**
 * The signed-checkpoint test vectors of docs/ledger.md section 10, read from the document itself: the
 * values are recomputed here with node:crypto from the stated seeds and names (signing), the root hash
 * as the RFC 6962 tree hash of the stated entries (tlog.ts) and checked with Web Crypto
 * (common/ledger/note.ts, verification), so the document, the signer and the verifier cannot drift apart.
 * Also: parsing errors, a changed body, consistency (fork, rollback, gap).
 */
import { createHash, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeKey, signNote } from '../../server/ledger/checkpoints';
import { ed25519SeedKey } from '../../server/ledger/ed25519Key';
import { blockHashHex } from '../../server/ledger/tx';
import { toHex } from './hex';
import { arrayHashReader, storedHashes, treeHash, type Hash } from './tlog';
import {
  checkConsistency,
  COSIGNATURE_TYPE,
  cosignatureMessage,
  formatCheckpoint,
  noteKeyId,
  parseCheckpoint,
  parseVerifierKey,
  signatureLine,
  timeBytes,
  toBase64,
  verifyCheckpointNote,
  verifyCosignature,
} from './note';

const doc = readFileSync(join(import.meta.dirname, '../../docs/ledger.md'), 'utf8');
const block = doc.slice(doc.indexOf('<!-- vectors:begin -->'), doc.indexOf('<!-- vectors:end -->'));
const [table, notes] = [...block.matchAll(/```\n([\s\S]*?)```/g)].map((m) => m[1]);
const value = (label: string) => new RegExp(`^${label}\\s+(\\S+)$`, 'm').exec(table)![1];
/** The key name (= the log's origin, C2SP) and the witness's name, as the document states them. */
const NAME = value('key name');
const WITNESS = value('witness name');
/** The tree hash (hex) of the document's log: the ASCII texts `entry 0` .. `entry 2`. */
function rootOfEntries(n: number): string {
  const stored: Hash[] = [];
  for (let i = 0; i < n; i++)
    stored.push(...storedHashes(i, new TextEncoder().encode(`entry ${i}`), arrayHashReader(stored)));
  return toHex(treeHash(n, arrayHashReader(stored)));
}
const noteLines = notes.split('\n');
const signedNote = `${noteLines.slice(0, 6).join('\n')}\n`;
const cosignedNote = notes;

/** The test key whose seed is the 32 bytes first, first + 1, …, first + 31. */
const keyOf = (first: number) => ed25519SeedKey(Uint8Array.from({ length: 32 }, (_, i) => first + i));

describe('docs/ledger.md section 10 test vectors', () => {
  it('the key, its ID, verifier key and fingerprint', async () => {
    const key = await describeKey(NAME, keyOf(0), 'vector');
    expect(toHex(key.publicKey)).toBe(value('public key \\(hex\\)'));
    expect(key.keyId).toBe(value('key ID'));
    expect(key.vkey).toBe(value('verifier key'));
    expect(key.fingerprint).toBe(value('SPKI fingerprint'));
    expect(await parseVerifierKey(key.vkey)).toEqual({ name: NAME, publicKey: key.publicKey });
  });

  it('the signed note: signed with node:crypto, verified with Web Crypto', async () => {
    const key = await describeKey(NAME, keyOf(0), 'vector');
    const root = rootOfEntries(3);
    expect(root).toBe(value('root hash \\(hex\\)'));
    const body = formatCheckpoint({
      origin: NAME,
      size: 3,
      rootHash: root,
      extensions: ['time 2026-11-22T00:00:00.000Z'],
    });
    expect(await signNote(key, body)).toBe(signedNote);
    expect(await verifyCheckpointNote(signedNote, key)).toMatchObject({
      ok: true,
      checkpoint: { origin: NAME, size: 3, rootHash: root },
    });
    // One changed character of the body: bad signature.
    expect(await verifyCheckpointNote(signedNote.replace('\n3\n', '\n4\n'), key)).toMatchObject({
      ok: false,
      reason: 'bad-signature',
    });
    expect(await verifyCheckpointNote(signedNote, { ...key, name: 'other' })).toMatchObject({
      ok: false,
      reason: 'no-signature',
    });
  });

  it('the cosignature (tlog-cosignature v1)', async () => {
    const w = await describeKey(WITNESS, keyOf(32), 'vector');
    expect(toBase64(w.publicKey)).toBe(value('witness public key'));
    const id = await noteKeyId(WITNESS, w.publicKey, COSIGNATURE_TYPE);
    expect(toHex(id)).toBe(value('witness key ID'));
    const body = signedNote.slice(0, signedNote.indexOf('\n\n') + 1);
    const time = 1795305600;
    const sig = sign(null, Buffer.from(cosignatureMessage(body, time)), keyOf(32));
    const line = signatureLine(WITNESS, id, new Uint8Array([...timeBytes(time), ...sig]));
    expect(signedNote + line).toBe(cosignedNote);
    expect(await verifyCosignature(cosignedNote, { name: WITNESS, publicKey: w.publicKey })).toMatchObject({
      ok: true,
      time,
    });
    // The server's own signature still verifies with the cosignature added.
    const key = await describeKey(NAME, keyOf(0), 'vector');
    expect((await verifyCheckpointNote(cosignedNote, key)).ok).toBe(true);
  });
});

describe('checkpoint parsing and consistency', () => {
  it('refuses malformed bodies, naming the line', () => {
    expect(() => parseCheckpoint('o\nx\nAAAA\n')).toThrow(/size line/);
    expect(() => parseCheckpoint('o\n3\nAAAA\n')).toThrow(/32 bytes/);
    expect(() => parseCheckpoint('o\n3\n')).toThrow(/origin, size and root hash/);
  });

  it('finds consistency, a fork, a rollback and a gap', async () => {
    const headers: { number: number; previousHash: string; dataHash: string }[] = [];
    const hashes: string[] = [];
    for (let n = 0; n < 6; n++) {
      const h = {
        number: n,
        previousHash: n ? hashes[n - 1] : '',
        dataHash: createHash('sha256').update(`d${n}`).digest('hex'),
      };
      headers.push(h);
      hashes.push(blockHashHex(h));
    }
    const cp = (size: number, root = hashes[size - 1]) => ({
      origin: 'o',
      size,
      rootHash: root,
      extensions: [],
    });
    expect(await checkConsistency(cp(2), cp(6), headers.slice(1))).toEqual({ ok: true });
    expect(await checkConsistency(cp(6), cp(4), [])).toMatchObject({ ok: false, kind: 'rollback' });
    expect(await checkConsistency(cp(4), cp(4, hashes[0]), [])).toMatchObject({ ok: false, kind: 'fork' });
    expect(
      await checkConsistency(cp(2), cp(6), [headers[1], headers[2], headers[4], headers[5]]),
    ).toMatchObject({
      ok: false,
      kind: 'gap',
      blockNumber: 3,
    });
    const forged = headers.map((h) => (h.number === 3 ? { ...h, dataHash: '00'.repeat(32) } : h));
    expect(await checkConsistency(cp(2), cp(6), forged.slice(1))).toMatchObject({
      ok: false,
      kind: 'fork',
      blockNumber: 4,
    });
  });
});

/**
 * Offline proofs (C2SP tlog-proof, common/ledger/proofFile.ts) and `npm run ledger:verify-proof`
 * (scripts/ledger-verify-proof.ts): a proof of an entry in a cosigned checkpoint verifies with the log's
 * vkey and a 1-of-1 policy ("Verified, witnessed by 1 of 1"); one flipped byte of the entry, the proof or
 * the checkpoint, another log key, or a policy whose witness did not cosign make it "Not verified".
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyProofCli } from '../../scripts/ledger-verify-proof';
import { cosign, cosignerKey } from '../../server/witness/key';
import { MemLog, testLogKey } from '../../tests/support/memLog';
import { splitNote, toBase64 } from './note';
import { parsePolicy } from './policy';
import { formatProofFile, parseProofFile, verifyProofFile } from './proofFile';
import { parseVkey } from './witness';

const dir = mkdtempSync(join(tmpdir(), 'baas-proof-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function fixture() {
  const key = await testLogKey('registry.example/artchannel');
  const log = new MemLog(key).append(13);
  const w1 = await cosignerKey('w1.example', generateKeyPairSync('ed25519').privateKey, 'test');
  const w2 = await cosignerKey('w2.example', generateKeyPairSync('ed25519').privateKey, 'test');
  const note = await log.note();
  const cosigned = note + cosign(w1, splitNote(note).body, 1795305600);
  const text = formatProofFile({ extra: log.entries[5], index: 5, proof: log.inclusion(5), note: cosigned });
  return { key, log, w1, w2, text, vkey: await parseVkey(key.vkey) };
}

describe('tlog-proof files', () => {
  it('round-trips and verifies offline, with the quorum of a policy', async () => {
    const f = await fixture();
    expect(f.text.startsWith(`c2sp.org/tlog-proof@v1\nextra ${toBase64(f.log.entries[5])}\nindex 5\n`)).toBe(
      true,
    );
    expect(parseProofFile(f.text)).toMatchObject({ index: 5, proof: f.log.inclusion(5) });
    const policy = await parsePolicy(`witness A ${f.w1.vkey}\nquorum A\n`);
    expect(await verifyProofFile(f.text, f.vkey, policy)).toMatchObject({
      ok: true,
      index: 5,
      entry: 'e 5',
      checkpoint: { size: 13 },
      quorum: { ok: true, cosigned: 1, witnesses: 1 },
    });
    expect((await verifyProofFile(f.text, f.vkey)).ok).toBe(true);
  });

  it('fails on a flipped byte, another key, or a missing quorum', async () => {
    const f = await fixture();
    const lines = f.text.split('\n');
    // The entry: the extra line now carries "e 6".
    const otherEntry = f.text.replace(lines[1], `extra ${toBase64(f.log.entries[6])}`);
    expect(await verifyProofFile(otherEntry, f.vkey)).toMatchObject({
      ok: false,
      message: /inclusion proof/,
    });
    // A proof hash.
    const h = Buffer.from(lines[3], 'base64');
    h[0] ^= 1;
    const badProof = f.text.replace(lines[3], h.toString('base64'));
    expect(await verifyProofFile(badProof, f.vkey)).toMatchObject({ ok: false, message: /inclusion proof/ });
    // The checkpoint's size.
    const badCp = f.text.replace('\n13\n', '\n14\n');
    expect(await verifyProofFile(badCp, f.vkey)).toMatchObject({ ok: false, message: /checkpoint/ });
    // Another log key of the same name.
    const stranger = await parseVkey((await testLogKey('registry.example/artchannel')).vkey);
    expect(await verifyProofFile(f.text, stranger)).toMatchObject({ ok: false, message: /checkpoint/ });
    // A policy of two witnesses, both required: w2 did not cosign.
    const both = await parsePolicy(
      `witness A ${f.w1.vkey}\nwitness B ${f.w2.vkey}\ngroup G all A B\nquorum G\n`,
    );
    expect(await verifyProofFile(f.text, f.vkey, both)).toMatchObject({
      ok: false,
      message: /quorum is not met: witnessed by 1 of 2/,
    });
  });

  it('ledger:verify-proof prints "Verified, witnessed by k of n" (exit 0) or "Not verified" (exit 1)', async () => {
    const f = await fixture();
    const file = join(dir, 'record.tlog-proof');
    writeFileSync(file, f.text);
    const one = join(dir, 'one.policy');
    writeFileSync(one, `witness A ${f.w1.vkey}\nquorum A\n`);
    const two = join(dir, 'two.policy');
    writeFileSync(two, `witness A ${f.w1.vkey}\nwitness B ${f.w2.vkey}\ngroup G all A B\nquorum G\n`);
    expect(await verifyProofCli([file, '--vkey', f.key.vkey, '--policy', one])).toEqual({
      code: 0,
      out: ['Verified, witnessed by 1 of 1: entry 5 in tree 13 of registry.example/artchannel', 'entry: e 5'],
    });
    const r = await verifyProofCli([file, '--vkey', f.key.vkey, '--policy', two]);
    expect(r.code).toBe(1);
    expect(r.out[0]).toMatch(/^Not verified: .*witnessed by 1 of 2/);
    expect((await verifyProofCli([file])).code).toBe(2);
  });
});

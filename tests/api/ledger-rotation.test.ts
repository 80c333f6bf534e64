/**
 * Key rotation (issue 19 item 6, docs/ledger.md section 10): restarted with a new LEDGER_SIGNING_KEY and
 * the old one as LEDGER_PREVIOUS_SIGNING_KEY, the server adds the new key's signature to the latest
 * checkpoint (the transition checkpoint, signed by both; Go's note.Open verifies both), signs later
 * checkpoints with the new key only, and the verifiers follow the chain of keys: `GET /baas-api/verify`
 * and `ledger:verify --key <old> --key <new> --all-signatures` pass; the old key alone, or the new key
 * alone over every signature, do not. The public page follows the rotation: a record whose served
 * checkpoint (the latest cosigned one) was signed by the old key alone still verifies, with the previous
 * key the public answer carries. SQLite, or PostgreSQL with TEST_DATABASE_URL.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { parseVerifierKey, splitNote, verifyCheckpointNote } from '../../common/ledger/note';
import { verifyPublicRecord, type PublicRecord } from '../../common/ledger/publicVerify';
import type { LedgerTables } from '../../server/ledger/tables';
import { ROOT } from '../support/serverProcess';
import { createTestApp, type TestApp } from './helpers';
import { ledgerVerifyScript } from './ledgerHelpers';

const run = promisify(execFile);
const OLD = Buffer.alloc(32, 11).toString('base64');
const NEW = Buffer.alloc(32, 12).toString('base64');
const ORIGIN = 'rotation.test';
const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps.reverse()) await t.close().catch(() => undefined);
});

async function putAuthor(t: TestApp, name: string) {
  const a = await t.post('/artmanager/authors/addAuthors', { authorName: name });
  const p = await t.post('/artmanager/authors/blockChain', { id: a.body.data.id });
  expect(p.status).toBe(200);
}

async function checkpoints(t: TestApp) {
  return (t.app.db as unknown as Kysely<LedgerTables>)
    .selectFrom('ledger_checkpoint')
    .select(['size', 'note'])
    .orderBy('size')
    .execute();
}

/** Restarts `first`'s server on the same data with the NEW key, the OLD one as the previous key. */
async function restartRotated(first: TestApp): Promise<TestApp> {
  const second = await createTestApp({
    dataDir: first.dataDir,
    ledgerKeyDir: first.dataDir,
    databaseUrl: first.app.config.databaseUrl,
    ledgerSigningKey: NEW,
    ledgerPreviousSigningKey: OLD,
    ledgerOrigin: ORIGIN,
  });
  apps.push(second);
  return second;
}

describe('signing key rotation', () => {
  it('the transition checkpoint is signed by both keys; verifiers accept the chain of keys', async () => {
    const first = await createTestApp({ ledgerSigningKey: OLD, ledgerOrigin: ORIGIN });
    apps.push(first);
    await putAuthor(first, 'Before Rotation');
    const oldVkey = first.app.checkpoints.key.vkey;
    const before = await checkpoints(first);
    const last = before[before.length - 1];
    expect(splitNote(last.note).signatures).toHaveLength(1);
    await first.app.close();

    const second = await restartRotated(first);
    const newVkey = second.app.checkpoints.key.vkey;
    expect(newVkey).not.toBe(oldVkey);
    const [transition] = (await checkpoints(second)).filter((c) => c.size === last.size);
    // Same body, the old key's signature kept, the new key's added.
    expect(splitNote(transition.note).body).toBe(splitNote(last.note).body);
    expect(splitNote(transition.note).signatures).toHaveLength(2);
    expect(transition.note.startsWith(last.note)).toBe(true);
    const oldKey = await parseVerifierKey(oldVkey);
    const newKey = await parseVerifierKey(newVkey);
    expect((await verifyCheckpointNote(transition.note, oldKey)).ok).toBe(true);
    expect((await verifyCheckpointNote(transition.note, newKey)).ok).toBe(true);

    // Go's reference note.Open with both verifier keys.
    const file = join(second.dataDir, 'transition.txt');
    writeFileSync(file, transition.note);
    const go = await run('go', ['run', 'main.go', file, oldVkey, newVkey], {
      cwd: join(ROOT, 'tests/go/witness/cosigned'),
      env: { ...process.env, GO111MODULE: 'off', GOPATH: '/usr/share/gocode' },
    });
    expect(go.stdout.trim()).toBe(`verified ${ORIGIN}/artchannel ${ORIGIN}/artchannel`);

    // Later checkpoints: the new key only.
    await putAuthor(second, 'After Rotation');
    const after = await checkpoints(second);
    const latest = after[after.length - 1];
    expect(latest.size).toBeGreaterThan(last.size);
    expect(splitNote(latest.note).signatures).toHaveLength(1);
    expect((await verifyCheckpointNote(latest.note, newKey)).ok).toBe(true);
    expect((await verifyCheckpointNote(latest.note, oldKey)).ok).toBe(false);

    const v = (await second.get('/baas-api/verify')).body.data;
    expect(v.ok, v.message).toBe(true);
    const chainOk = await ledgerVerifyScript(first, ['--key', oldVkey, '--key', newVkey, '--all-signatures']);
    expect(chainOk.code, chainOk.out).toBe(0);
    expect(chainOk.out).toMatch(/^verified /);
    const oldOnly = await ledgerVerifyScript(first, ['--key', oldVkey]);
    expect(oldOnly.code).toBe(1);
    expect(oldOnly.out).toContain('signature');
    const newOnly = await ledgerVerifyScript(first, ['--key', newVkey, '--all-signatures']);
    expect(newOnly.code).toBe(1);
  });

  it('the public page verifies a record whose checkpoint was signed by the previous key alone', async () => {
    const first = await createTestApp({
      ledgerSigningKey: OLD,
      ledgerOrigin: ORIGIN,
      ledgerBatchSize: 1,
      ledgerBatchTimeoutMs: 0,
    });
    apps.push(first);
    const a = await first.post('/artmanager/authors/addAuthors', {
      authorName: 'Public Before',
      wxIsEnable: 1,
    });
    const id = a.body.data.id as number;
    expect((await first.post('/artmanager/authors/blockChain', { id })).status).toBe(200);
    await putAuthor(first, 'Later Before Rotation');
    const before = (await first.get(`/baas-api/public/record?kind=author&id=${id}`, null)).body
      .data as PublicRecord;
    // A witness cosigned the checkpoint of the record's block and none later (it does not know the new
    // key): the answer serves it. The rotation re-signs only the latest one, so this one keeps the old key alone.
    const cp = (await checkpoints(first)).find((c) => c.size === before.checkpoint!.index + 1)!;
    expect(cp.size).toBeLessThan(before.checkpoint!.size);
    const channelId = before.proof.channelId;
    const rootHash = (
      await (first.app.db as unknown as Kysely<LedgerTables>)
        .selectFrom('ledger_checkpoint')
        .select('rootHash')
        .where('channelId', '=', channelId)
        .where('size', '=', cp.size)
        .executeTakeFirstOrThrow()
    ).rootHash;
    await (first.app.db as unknown as Kysely<LedgerTables>)
      .insertInto('ledger_cosignature')
      .values({
        channelId,
        size: cp.size,
        witness: 'witness.test/w1',
        rootHash,
        line: `\u2014 witness.test/w1 ${Buffer.alloc(76, 7).toString('base64')}\n`,
        time: 1,
      })
      .execute();
    await first.app.close();

    const second = await restartRotated(first);
    await putAuthor(second, 'After Rotation');
    const key = (await second.get('/baas-api/public/key', null)).body.data as PublicRecord['key'];
    expect(key.vkey).toBe(second.app.checkpoints.key.vkey);
    expect(key.previous?.map((k) => k.vkey)).toEqual([before.key.vkey]);
    const r = await second.get(`/baas-api/public/record?kind=author&id=${id}`, null);
    expect(r.status).toBe(200);
    const answer = r.body.data as PublicRecord;
    expect(answer.checkpoint!.size).toBe(cp.size);
    const newKey = await parseVerifierKey(key.vkey);
    expect((await verifyCheckpointNote(answer.checkpoint!.note, newKey)).ok).toBe(false);
    const check = await verifyPublicRecord(answer);
    expect(check.steps.find((st) => st.step === 'signature')).toEqual({ step: 'signature', ok: true });
    expect(check.ok).toBe(true);
    // Without the previous key (as the page was before), the same answer does not verify.
    const without = await verifyPublicRecord({ ...answer, key: { ...answer.key, previous: [] } });
    expect(without.steps.find((st) => st.step === 'signature')?.ok).toBe(false);
  });
});

/**
 * `npm run ledger:verify` judges the witness policy on the channel's head (issue 31, docs/ledger.md
 * section 11.4): a 2-of-2 policy with two witnesses running as processes (tests/support/witnessProcess.ts).
 * While both cosign the latest checkpoint, it exits 0 ("witnessed by 2 of 2"); once the witnesses are
 * stopped and the log grows, the head lacks the quorum: exit 1 "not witnessed: head N, last witnessed M",
 * M the last checkpoint both cosigned (before the fix, the newest checkpoint with any cosignature was
 * counted instead, so this printed "Verified ... witnessed by 2 of 2" and exited 0). The witnesses back,
 * the head is cosigned by both again: exit 0.
 */
import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeKey } from '../../server/ledger/checkpoints';
import { ed25519PrivateKey } from '../../server/ledger/ed25519Key';
import { createTestApp, type TestApp } from './helpers';
import { ledgerVerifyScript } from './ledgerHelpers';
import { freePort } from '../support/serverProcess';
import { startWitness } from '../support/witnessProcess';
import { parseVkey } from '../../common/ledger/witness';
import { witnessSummary } from '../../server/ledger/witnessCheck';

const dir = mkdtempSync(join(tmpdir(), 'baas-witness-head-'));
const SEED = Buffer.alloc(32, 11).toString('base64');
const PREFIX = 'registry.test';
const procs: ChildProcess[] = [];
let t: TestApp | undefined;
afterAll(async () => {
  await t?.close();
  for (const p of procs) if (p.exitCode === null) p.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

async function stop(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null) return;
  const exited = new Promise((r) => p.once('exit', r));
  p.kill('SIGTERM');
  await exited;
}

describe('ledger:verify and the witness policy', () => {
  it('requires the quorum on the head: exit 1 "not witnessed: head N, last witnessed M" once the witnesses stop', async () => {
    const logVkey = (
      await describeKey(`${PREFIX}/artchannel`, ed25519PrivateKey(SEED, 'LEDGER_SIGNING_KEY'), 'test')
    ).vkey;
    const ports = [await freePort(), await freePort()];
    const start = (i: number) =>
      startWitness({
        port: ports[i],
        name: `witness.test/w${i + 1}`,
        db: join(dir, `w${i + 1}`, 'state.sqlite'),
        logVkey,
      }).then(async (w) => (procs.push(w.proc), { ...w, key: await parseVkey(w.vkey) }));
    let w1 = await start(0);
    let w2 = await start(1);
    const policyFile = join(dir, 'policy.txt');
    writeFileSync(
      policyFile,
      `log ${logVkey}\nwitness W1 ${w1.vkey}\nwitness W2 ${w2.vkey}\ngroup both all W1 W2\nquorum both\n`,
    );
    const witnesses = `http://127.0.0.1:${ports[0]} ${w1.vkey}, http://127.0.0.1:${ports[1]} ${w2.vkey}`;
    t = await createTestApp({
      ledgerSigningKey: SEED,
      ledgerOrigin: PREFIX,
      ledgerWitnesses: witnesses,
      ledgerWitnessPolicy: policyFile,
      ledgerBatchSize: 1,
      ledgerBatchTimeoutMs: 0,
    });
    const app = t;
    const env = { LEDGER_SIGNING_KEY: SEED, LEDGER_WITNESS_POLICY: policyFile, LEDGER_WITNESSES: witnesses };
    const put = async (name: string) => {
      const a = await app.post('/artmanager/authors/addAuthors', { authorName: name });
      expect((await app.post('/artmanager/authors/blockChain', { id: a.body.data.id })).status).toBe(200);
    };
    const head = async () =>
      (await app.get('/baas-api/public/checkpoint?channel=artchannel', null)).body.data.size as number;

    await put('Both witnessed 1');
    await put('Both witnessed 2');
    await app.app.witnesses.pusher.pushAll();
    const witnessed = await head();
    let v = await ledgerVerifyScript(app, [], env);
    expect(v.out).toContain(`Verified, artchannel: checkpoint ${witnessed} (head) witnessed by 2 of 2`);
    expect(v.code).toBe(0);

    // The witnesses stop (or refuse); the log grows: nobody cosigns the new heads.
    await stop(w1.proc);
    await stop(w2.proc);
    await put('One witness 1');
    await put('One witness 2');
    await app.app.witnesses.pusher.pushAll();
    const now = await head();
    expect(now).toBeGreaterThan(witnessed);
    v = await ledgerVerifyScript(app, [], env);
    expect(v.out).toContain(`not witnessed: head ${now}, last witnessed ${witnessed}`);
    expect(v.out).toContain('the head is witnessed by 0 of 2');
    expect(v.code).toBe(1);
    // Without a policy the count is reported, not required.
    expect(
      await witnessSummary(
        app.app.db,
        undefined,
        [w1, w2].map((w) => w.key),
        'artchannel',
      ),
    ).toEqual([
      {
        channel: 'artchannel',
        size: now,
        required: false,
        lastWitnessed: now,
        quorum: { ok: true, cosigned: 0, witnesses: 2, cosigners: [] },
      },
    ]);

    // The witnesses are back (same state and key): they catch up through consistency proofs.
    w1 = await start(0);
    w2 = await start(1);
    await app.app.witnesses.pusher.pushAll();
    v = await ledgerVerifyScript(app, [], env);
    expect(v.out).toContain(`Verified, artchannel: checkpoint ${now} (head) witnessed by 2 of 2`);
    expect(v.code).toBe(0);
  }, 240_000);
});

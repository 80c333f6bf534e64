/**
 * The witness protocol end to end (docs/witnesses.md section 11): our witness runs as its own process on
 * its own port (`server/witness/main.ts`, as `npm run witness`); the log (the app, LEDGER_WITNESSES
 * pointing at it) pushes its checkpoints to it after each put on chain; the witness's cosignature shows
 * in the public checkpoint, and Go's `note.Open` (tests/go/witness/cosigned) verifies both the log's
 * signature and the cosignature. The next checkpoint is cosigned through a consistency proof from the
 * witness's size; the dashboard call shows its size, zero lag and no refusal. A policy requiring a second
 * witness that never cosigned leaves the public page's verdict "Not verified" (quorum), ledger:verify's
 * witness summary short of its quorum, and `ledger:verify-proof` says the same of the record's proof
 * file, which Go's tlog.CheckRecord accepts.
 * Then a fork (another history signed with the same key) is refused by the witness (422), counted as a
 * refusal, and never cosigned.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyPublicRecord, type PublicRecord } from '../../common/ledger/publicVerify';
import { parsePolicy } from '../../common/ledger/policy';
import { checkVisit, pageVerdict } from '../../common/ledger/visitorWitness';
import { fromBase64 } from '../../common/ledger/note';
import { witnessSummary } from '../../server/ledger/witnessCheck';
import { cosignerVkey, parseVkey, verifiedCosigners } from '../../common/ledger/witness';
import { witnessQuorum } from '../../src/public/witnessCheck';
import { verifyProofCli } from '../../scripts/ledger-verify-proof';
import type { Kysely } from 'kysely';
import { parseWitnessList, WitnessPusher } from '../../server/ledger/witnessPush';
import { logCheckpointSource } from '../../server/ledger/witnessSource';
import { createTestApp, type TestApp } from './helpers';
import { freePort, ROOT } from '../support/serverProcess';
import { startWitness as startWitnessProcess } from '../support/witnessProcess';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'baas-witness-e2e-'));
const SEED = Buffer.alloc(32, 7).toString('base64');
const PREFIX = 'registry.test';
const ORIGIN = `${PREFIX}/artchannel`;
const procs: ChildProcess[] = [];
const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.close();
  for (const p of procs) if (p.exitCode === null) p.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts our witness `witness.test/w1` as a process (tests/support/witnessProcess.ts). */
async function startWitness(port: number, logVkey: string): Promise<{ vkey: string; proc: ChildProcess }> {
  const w = await startWitnessProcess({
    port,
    name: 'witness.test/w1',
    db: join(dir, 'witness', 'state.sqlite'),
    logVkey,
  });
  procs.push(w.proc);
  return w;
}

async function putOnChain(t: TestApp, name: string): Promise<number> {
  const a = await t.call({
    method: 'POST',
    url: '/artmanager/authors/addAuthors',
    payload: { authorName: name, wxIsEnable: 1 },
  });
  const p = await t.call({
    method: 'POST',
    url: '/artmanager/authors/blockChain',
    payload: { id: a.body.data.id },
  });
  expect(p.body.code).toBe(0);
  return a.body.data.id as number;
}

async function goCosigned(note: string, ...vkeys: string[]): Promise<string> {
  const file = join(dir, `note-${Date.now()}.txt`);
  writeFileSync(file, note);
  const r = await run('go', ['run', 'main.go', file, ...vkeys], {
    cwd: join(ROOT, 'tests/go/witness/cosigned'),
    env: { ...process.env, GO111MODULE: 'off', GOPATH: '/usr/share/gocode' },
  });
  return r.stdout.trim();
}

describe('witness on another process and port', () => {
  it('cosigns what the log pushes; Go verifies both signatures; a quorum not met is "Not verified"; a fork is refused', async () => {
    const port = await freePort();
    const other = await cosignerVkey('witness.test/absent', new Uint8Array(32).fill(9));
    // The witness's key is made at its first start; its vkey is only known then, so the policy file and
    // LEDGER_WITNESSES are written after it started (the log's key is fixed by its seed).
    const probe = await createTestApp({ ledgerSigningKey: SEED, ledgerOrigin: PREFIX });
    const logVkey = probe.app.checkpoints.key.vkey;
    await probe.close();
    const w = await startWitness(port, logVkey);
    const policyFile = join(dir, 'policy.txt');
    writeFileSync(
      policyFile,
      `log ${logVkey}\nwitness W1 ${w.vkey}\nwitness W2 ${other}\ngroup both all W1 W2\nquorum both\n`,
    );
    const t = await createTestApp({
      ledgerSigningKey: SEED,
      ledgerOrigin: PREFIX,
      ledgerWitnesses: `http://127.0.0.1:${port} ${w.vkey}`,
      ledgerWitnessPolicy: policyFile,
    });
    apps.push(t);

    const id = await putOnChain(t, 'Witnessed Author');
    await t.app.witnesses.pusher.pushAll();
    const cp1 = (
      await t.call({ method: 'GET', url: '/baas-api/public/checkpoint?channel=artchannel', token: null })
    ).body.data;
    const wk = await parseVkey(w.vkey);
    expect(await verifiedCosigners(cp1.note, [wk])).toEqual([
      { name: 'witness.test/w1', time: expect.any(Number) },
    ]);
    expect(await goCosigned(cp1.note, logVkey, w.vkey)).toBe(`verified ${ORIGIN} witness.test/w1`);

    // The next checkpoint goes with a consistency proof from the witness's size.
    await putOnChain(t, 'Second Author');
    await t.app.witnesses.pusher.pushAll();
    const cp2 = (
      await t.call({ method: 'GET', url: '/baas-api/public/checkpoint?channel=artchannel', token: null })
    ).body.data;
    expect(cp2.size).toBeGreaterThan(cp1.size);
    expect(await goCosigned(cp2.note, logVkey, w.vkey)).toBe(`verified ${ORIGIN} witness.test/w1`);
    const list = (await t.call({ method: 'GET', url: '/baas-api/witnesses', token: t.userToken })).body.data;
    expect(list.list).toEqual([
      expect.objectContaining({
        witness: 'witness.test/w1',
        size: cp2.size,
        cosignedSize: cp2.size,
        lag: 0,
        refusals: 0,
      }),
    ]);
    expect(list.policy).toEqual({ quorum: 'both', witnesses: ['witness.test/w1', 'witness.test/absent'] });
    // The metric says the same: no entry behind.
    expect(await t.app.metrics.text()).toContain('baas_ledger_witness_lag{witness="witness.test/w1"} 0\n');

    // The policy wants both witnesses; only one cosigned the latest checkpoint: the page's verdict is
    // "Not verified" (quorum), whatever the record's own steps say.
    const pub = (
      await t.call({ method: 'GET', url: `/baas-api/public/record?kind=author&id=${id}`, token: null })
    ).body.data as PublicRecord;
    const check = await verifyPublicRecord(pub);
    expect(check.ok).toBe(true);
    const witnesses = (await t.call({ method: 'GET', url: '/baas-api/public/witnesses', token: null })).body
      .data;
    const q = await witnessQuorum(pub.checkpoint!.note, witnesses);
    expect(q).toMatchObject({ policyRequired: true, quorum: { ok: false, cosigned: 1, witnesses: 2 } });
    // A visitor who saw the first checkpoint finds the second consistent through the log's proof call.
    const seen = new Map([[ORIGIN, cp1.note]]);
    const visit = await checkVisit(
      cp2.note,
      await parseVkey(logVkey),
      { get: (o) => seen.get(o), set: (o, n) => void seen.set(o, n) },
      async (m, n) =>
        (
          await t.call({
            method: 'GET',
            url: `/baas-api/public/log/artchannel/proof/consistency?from=${m}&to=${n}`,
            token: null,
          })
        ).body.data.proof.map(fromBase64),
    );
    expect(visit).toEqual({ kind: 'extends', previousSize: cp1.size });
    expect(pageVerdict(check.ok, q.quorum, q.policyRequired, visit)).toEqual({
      ok: false,
      witnessed: { k: 1, n: 2 },
      reasons: ['quorum'],
    });
    // ledger:verify's witness line says the same of the head (the latest checkpoint).
    const policy = await parsePolicy(readFileSync(policyFile, 'utf8'));
    expect(await witnessSummary(t.app.db, policy, [], 'artchannel')).toEqual([
      {
        channel: 'artchannel',
        size: cp2.size,
        required: true,
        quorum: { ok: false, cosigned: 1, witnesses: 2, cosigners: ['witness.test/w1'] },
        lastWitnessed: 0,
      },
    ]);
    expect(await witnessSummary(t.app.db, undefined, [wk], 'artchannel')).toMatchObject([
      { required: false, quorum: { ok: true, cosigned: 1, witnesses: 1 } },
    ]);

    // The record's offline proof: Go's tlog accepts it; ledger:verify-proof wants the quorum too.
    const proofRes = await t.app.inject({
      method: 'GET',
      url: `/baas-api/public/proof-file?kind=author&id=${id}`,
    });
    expect(proofRes.statusCode).toBe(200);
    const proofFile = join(dir, 'author.tlog-proof');
    writeFileSync(proofFile, proofRes.body);
    const go = await run('go', ['run', 'main.go', proofFile, logVkey], {
      cwd: join(ROOT, 'tests/go/witness/proofcheck'),
      env: { ...process.env, GO111MODULE: 'off', GOPATH: '/usr/share/gocode' },
    });
    expect(go.stdout).toMatch(new RegExp(`^verified index \\d+ in tree \\d+ of ${ORIGIN}`));
    expect(await verifyProofCli([proofFile, '--vkey', logVkey, '--policy', policyFile])).toMatchObject({
      code: 1,
      out: [expect.stringMatching(/^Not verified: .*witnessed by 1 of 2/)],
    });
    expect((await verifyProofCli([proofFile, '--vkey', logVkey])).code).toBe(0);

    // A fork: another history signed with the same key, longer than what the witness holds. A log that
    // can ask the witness at start no longer signs one (tests/api/ledger-memory.test.ts); this one never
    // asked (no LEDGER_WITNESSES), and its checkpoints are pushed to the witness afterwards.
    const fork = await createTestApp({ ledgerSigningKey: SEED, ledgerOrigin: PREFIX });
    apps.push(fork);
    for (let i = 0; i < 4; i++) await putOnChain(fork, `Forged ${i}`);
    await new WitnessPusher(
      fork.app.db as Kysely<any>,
      await parseWitnessList(`http://127.0.0.1:${port} ${w.vkey}`),
      logCheckpointSource(fork.app),
    ).pushAll();
    const refused = await (fork.app.db as Kysely<any>)
      .selectFrom('ledger_witness_status')
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(refused.cosignedSize).toBe(0);
    expect(refused.refusals).toBeGreaterThan(0);
    expect(refused.lastError).toMatch(/^422: /);
    const forkCp = (
      await fork.call({ method: 'GET', url: '/baas-api/public/checkpoint?channel=artchannel', token: null })
    ).body.data;
    expect(await verifiedCosigners(forkCp.note, [wk])).toEqual([]);
    // The refused log is behind by its whole tree: the witness cosigned nothing of it.
    expect(await fork.app.metrics.text()).toContain(
      `baas_ledger_witness_lag{witness="witness.test/w1"} ${forkCp.size}\n`,
    );
  });
});

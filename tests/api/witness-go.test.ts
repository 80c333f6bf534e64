/**
 * Our witness (server/witness/app.ts) against a C2SP tlog-witness client written in Go
 * (tests/go/witness/client: the standard library and golang.org/x/mod/sumdb/note, GOPATH mode against
 * Debian's golang-golang-x-mod-dev). The client makes a log key with note.GenerateKey; the witness,
 * listening on 127.0.0.1, is configured with its vkey; the client signs checkpoints with note.NewSigner
 * and checks, to the letter of tlog-witness after C2SP #280 (docs/witnesses.md section 11.1): size N from
 * `old 0` is cosigned; the same size with another root hash gets 422 and no cosignature (409 before #280;
 * issue 31 asked for 409, the current spec says 422, we follow the spec); stale `old` values get 409,
 * `text/x.tlog.size`, body `N\n`; and the witness still holds the first root. Skipped with a message only
 * when `go` is not installed.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { ED25519_TYPE } from '../../common/ledger/note';
import { parseVkey } from '../../common/ledger/witness';
import { buildWitnessApp } from '../../server/witness/app';
import { loadCosignerKey } from '../../server/witness/key';
import { WitnessStore } from '../../server/witness/store';
import { buildGo, GO_ENV, hasGo as hasGoTool } from '../support/goTools';

const run = promisify(execFile);

const ORIGIN = 'witness-client.test/log';
const hasGo = hasGoTool('witness-go');
const dir = mkdtempSync(join(tmpdir(), 'baas-witness-go-'));
let app: FastifyInstance | undefined;
let store: WitnessStore | undefined;
afterAll(async () => {
  await app?.close();
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasGo)('a Go tlog-witness client against our witness', () => {
  it('cosigns size N; the same size with another root is 422; a stale old is 409 text/x.tlog.size "N\\n"; it keeps the first root', async () => {
    // Built once: `go run` per call would rebuild it.
    const bin = await buildGo('tests/go/witness/client/main.go', dir, 'client');
    const [skey, vkey] = (await run(bin, ['keygen', ORIGIN], { env: GO_ENV })).stdout.trim().split('\n');
    const key = await loadCosignerKey({
      name: 'witness.test/go',
      seed: Buffer.alloc(32, 11).toString('base64'),
      file: join(dir, 'unused-key.pem'),
    });
    store = new WitnessStore(':memory:');
    app = buildWitnessApp({ key, store, logs: [await parseVkey(vkey, [ED25519_TYPE])] });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

    const out = await run(bin, ['run', url, skey, vkey, key.vkey], { env: GO_ENV }).then(
      (r) => r.stdout,
      (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ''}${e.stderr ?? ''}`,
    );
    expect(out).toBe(
      `OK ${ORIGIN}: cosigned size 5; same size other root 422; stale old 409 text/x.tlog.size "5\\n" x3; holds the first root, cosigned\n`,
    );
    // The witness's side: the first checkpoint kept, the fork attempt kept as evidence (a 409 is not).
    expect(store.get(ORIGIN)).toMatchObject({ size: 5 });
    expect(store.refusals(ORIGIN).map((r) => r.status)).toEqual([422]);
  }, 120_000);
});

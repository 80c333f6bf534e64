/**
 * Crash safety (docs/ledger.md section 5): a real server process receives a stream of put-on-chain
 * calls and edits of records already on chain from 20 concurrent writers, and is killed with SIGKILL in
 * the middle. After a restart on the same data directory, verification passes (no half-written block;
 * the edits are reported as edits, not tampering: issue 19 item 9) and every acknowledged write is
 * there: each transaction in the block it was acknowledged in, with its record marked on chain, and
 * each acknowledged edit stored.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandArgs, ROOT, startServerProcess, type ServerProcess } from '../support/serverProcess';
import { httpApi } from '../support/httpApi';

const dataDir = mkdtempSync(join(tmpdir(), 'baas-crash-'));
const PASSWORD = 'crash-test-password';
let child: ServerProcess | undefined;

/** The server on this test's DATA_DIR, blocks cut by 5 or after 20 ms. */
async function startServer(): Promise<ServerProcess> {
  return startServerProcess({
    dataDir,
    env: {
      ADMIN_PASSWORD: PASSWORD,
      USER_PASSWORD: PASSWORD,
      LEDGER_BATCH_SIZE: '5',
      LEDGER_BATCH_TIMEOUT_MS: '20',
    },
  });
}

function api(port: number, token: string | null, method: string, path: string, body?: unknown) {
  return httpApi(`http://127.0.0.1:${port}`, token, method, path, body);
}

async function login(port: number) {
  return (await api(port, null, 'POST', '/dev-api/user/login', { username: 'admin', password: PASSWORD }))
    .body.data.token as string;
}

afterAll(async () => {
  await child?.stop('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(`${dataDir}-keys`, { recursive: true, force: true }); // the default LEDGER_KEY_DIR, beside it
});

describe('crash safety', () => {
  it('SIGKILL amid 20 writers putting on chain and editing loses no acknowledged write, leaves no half block, and verifies', async () => {
    child = await startServer();
    const port = child.port;
    let token = await login(port);
    const ids: number[] = [];
    for (let i = 0; i < 400; i++)
      ids.push(
        (await api(port, token, 'POST', '/artmanager/authors/addAuthors', { authorName: `Crash ${i}` })).body
          .data.id,
      );

    const acked: { id: number; txId: string; blockNumber: number }[] = [];
    const ackedEdits: number[] = [];
    let failed = 0;
    let next = 0;
    const victim = child.proc;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++];
        try {
          const r = await api(port, token, 'POST', '/artmanager/authors/blockChain', { id });
          if (r.status === 200) {
            acked.push({ id, txId: r.body.data.txId, blockNumber: r.body.data.blockNumber });
            // Every other record is edited through the API after its put on chain.
            if (id % 2 === 0) {
              const e = await api(port, token, 'POST', '/artmanager/authors/updateInfo', {
                id,
                introduction: `edited after put ${id}`,
              });
              if (e.status === 200) ackedEdits.push(id);
              else failed++;
            }
          } else failed++;
        } catch {
          failed++; // connection reset by the kill
          return;
        }
        if (acked.length >= 60 && victim.exitCode === null && victim.signalCode === null)
          victim.kill('SIGKILL');
      }
    };
    await Promise.all(Array.from({ length: 20 }, worker));
    await new Promise<void>((r) =>
      victim.exitCode !== null || victim.signalCode !== null ? r() : victim.once('exit', () => r()),
    );
    expect(victim.signalCode).toBe('SIGKILL');
    expect(acked.length).toBeGreaterThanOrEqual(60);
    expect(acked.length).toBeLessThan(ids.length); // the kill happened mid-stream
    expect(failed).toBeGreaterThan(0);

    // Restart on the same data directory: pending transactions are cut, then everything verifies.
    child = await startServer();
    const port2 = child.port;
    token = await login(port2);
    const verify = (await api(port2, token, 'GET', '/baas-api/verify')).body.data;
    expect(verify.ok, verify.message).toBe(true);
    expect(ackedEdits.length).toBeGreaterThan(0);
    const edited = new Set(verify.registry.edited.map((e: { recordId: number }) => e.recordId));
    for (const id of ackedEdits) expect(edited.has(id), `author ${id} reported as edited`).toBe(true);
    expect(verify.registry.problems).toEqual([]);
    for (const a of acked) {
      const tx = await api(port2, token, 'GET', `/baas-api/transaction?txId=${a.txId}`);
      expect(tx.status).toBe(200);
      expect(tx.body.data.blockNumber).toBe(a.blockNumber);
      const author = (await api(port2, token, 'GET', `/artmanager/authors/getInfo?id=${a.id}`)).body.data;
      expect(author).toMatchObject({ isBlock: 1, chain: a.txId });
      if (ackedEdits.includes(a.id)) expect(author.introduction).toBe(`edited after put ${a.id}`);
    }
    // No record is marked on chain without its transaction, and none points at a missing one.
    const all = (await api(port2, token, 'GET', '/artmanager/authors/getList?pageSize=100&isBlock=1')).body
      .data;
    expect(all.total).toBeGreaterThanOrEqual(acked.length);
    for (let page = 1; (page - 1) * 100 < all.total; page++) {
      const list = (
        await api(port2, token, 'GET', `/artmanager/authors/getList?pageSize=100&page=${page}&isBlock=1`)
      ).body.data.list;
      for (const a of list)
        expect((await api(port2, token, 'GET', `/baas-api/transaction?txId=${a.chain}`)).status).toBe(200);
    }

    // Stop gracefully, then the command-line verifier agrees.
    await child.stop('SIGTERM');
    const cli = spawnSync(process.execPath, commandArgs('ledger-verify'), {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        // The key is in the default LEDGER_KEY_DIR, `<DATA_DIR>-keys`, not in DATA_DIR.
        LEDGER_SIGNING_KEY: readFileSync(join(`${dataDir}-keys`, 'ledger-signing-key.pem'), 'utf8'),
      },
      encoding: 'utf8',
    });
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/^verified \d+ blocks, \d+ transactions in channel artchannel/);
    expect(cli.stdout).toContain(`edited since put on chain (audited writes, not tampering): ${edited.size}`);
    expect(cli.stdout).not.toContain('BROKEN');
  });
});

/**
 * A real proxy in front (issue 20 item 5): three server processes on one PostgreSQL database behind
 * Debian's nginx, configured by scripts/nginx-proxy.sh (what `scripts/multi-instance.sh --proxy` runs).
 * - One instance is killed (SIGKILL) while clients read through the proxy: no client request fails, as
 *   nginx retries a refused connection on the next instance and leaves the dead one out.
 * - An upload made through the proxy (whichever instance takes it) reads back, byte for byte, from each
 *   instance directly: the upload store is the database (server/storage/pgStore.ts).
 * - The login rate limit holds across instances: with LOGIN_RATE_LIMIT=6, nine attempts from one address
 *   spread three per instance get six answers and three 429s (the counters are in PostgreSQL,
 *   server/plugins/external/rateLimitStore.ts; a per-process limiter would let all nine through).
 * - X-Request-Id: the client's is passed through; without one, nginx makes one and the instance returns it.
 * Needs PostgreSQL (TEST_DATABASE_URL) and /usr/sbin/nginx; skipped otherwise. Counts, not timings.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseUrl, runPgStatement } from '../support/pgAdmin';
import { freePort, ROOT, startServerProcess, type ServerProcess } from '../support/serverProcess';
import { isPostgresUrl } from '../../server/db/connect';

const ADMIN_URL = process.env.TEST_DATABASE_URL;
const onPg = isPostgresUrl(ADMIN_URL);
const hasNginx = existsSync('/usr/sbin/nginx');
const PASSWORD = 'proxy-test-password';
const dbName = `baas_proxy_${randomBytes(6).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), 'baas-proxy-'));
const servers: ServerProcess[] = [];
let nginx: ChildProcess | undefined;

function dbUrl(): string {
  return databaseUrl(ADMIN_URL!, dbName);
}

afterAll(async () => {
  nginx?.kill('SIGTERM');
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  if (onPg)
    await runPgStatement(ADMIN_URL!, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

const png = (size: number) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(size - 8)]);

describe.skipIf(!onPg || !hasNginx)('three instances behind nginx on PostgreSQL', () => {
  it('fails over, shares uploads and the login limit, and carries X-Request-Id', async () => {
    await runPgStatement(ADMIN_URL!, `CREATE DATABASE ${dbName}`);
    const env = {
      LEDGER_SIGNING_KEY: randomBytes(32).toString('base64'),
      DATABASE_URL: dbUrl(),
      ADMIN_PASSWORD: PASSWORD,
      USER_PASSWORD: PASSWORD,
      LOGIN_RATE_LIMIT: '6',
      TRUST_PROXY: '127.0.0.1',
    };
    // The first migrates the database and creates the accounts; the other two then start together.
    const t0 = Date.now();
    servers.push(await startServerProcess({ dataDir: join(dir, 'i0'), env }));
    servers.push(
      ...(await Promise.all([1, 2].map((i) => startServerProcess({ dataDir: join(dir, `i${i}`), env })))),
    );
    console.log(`3 instances up in ${Date.now() - t0} ms`);
    const port = await freePort();
    nginx = spawn(
      'bash',
      ['scripts/nginx-proxy.sh', join(dir, 'proxy'), String(port), ...servers.map((s) => String(s.port))],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let nginxOut = '';
    nginx.stdout!.on('data', (d) => (nginxOut += d));
    nginx.stderr!.on('data', (d) => (nginxOut += d));
    const proxy = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      const up = await fetch(`${proxy}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (i > 100) throw new Error(`nginx did not answer: ${nginxOut}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    console.log(`nginx up at ${Date.now() - t0} ms`);
    // X-Request-Id: the client's goes through to the instance and back; else nginx makes one.
    const given = await fetch(`${proxy}/healthz`, { headers: { 'X-Request-Id': 'client-rid-42' } });
    expect(given.headers.get('x-request-id')).toBe('client-rid-42');
    const made = await fetch(`${proxy}/healthz`);
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
    expect(readFileSync(join(dir, 'proxy', 'access.log'), 'utf8')).toContain('rid=client-rid-42');

    // Login through the proxy; an upload through the proxy; each instance serves it.
    const login = await fetch(`${proxy}/dev-api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const bytes = png(4000);
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'portrait.png');
    const up = await fetch(`${proxy}/artmanager/upload`, {
      method: 'POST',
      headers: { 'x-token': token },
      body: form,
    });
    const upBody = (await up.json()) as { data: { url: string } };
    expect(up.status, JSON.stringify(upBody)).toBe(200);
    expect(upBody.data.url).toBe(`/uploads/${createHash('sha256').update(bytes).digest('hex')}.png`);
    for (const s of servers) {
      const r = await fetch(`${s.url}${upBody.data.url}`);
      expect(r.status).toBe(200);
      expect(Buffer.from(await r.arrayBuffer()).equals(bytes)).toBe(true);
    }

    // The login limit across instances: 9 attempts from 127.0.0.1, three to each instance directly.
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) {
      const r = await fetch(`${servers[i % 3].url}/app-api/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account: 'nobody', password: 'wrong-password' }),
      });
      statuses.push(r.status);
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    expect(statuses.slice(0, 6)).not.toContain(429);

    console.log(`upload and rate limit checked at ${Date.now() - t0} ms`);
    // Kill one instance mid-load: every client read through the proxy still succeeds.
    let ok = 0;
    const failures: string[] = [];
    let killed = false;
    const worker = async () => {
      while (ok + failures.length < 600) {
        try {
          const r = await fetch(`${proxy}/dev-api/user/info`, {
            headers: { 'x-token': token },
          });
          if (r.status === 200) ok++;
          else failures.push(`status ${r.status}`);
        } catch (err) {
          failures.push(String(err));
        }
        if (ok >= 150 && !killed) {
          killed = true;
          servers[1].proc.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    console.log(`600 reads through the proxy, one instance killed, done at ${Date.now() - t0} ms`);
    expect(killed).toBe(true);
    expect(failures).toEqual([]);
    expect(ok).toBeGreaterThanOrEqual(600);
    // nginx saw the dead instance (its error log names the refused upstream) and went on without it.
    expect(readFileSync(join(dir, 'proxy', 'error.log'), 'utf8')).toMatch(/Connection refused|upstream/);
  }, 300_000);
});

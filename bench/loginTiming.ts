/**
 * `npx tsx bench/loginTiming.ts`: login answer times, printed (never asserted), for a wrong password of an
 * existing account and for an unknown account — equal within noise when the login verifies unknown
 * accounts against a dummy hash (server/routes/dev-api/user/index.ts), far apart when it does not
 * (account enumeration by timing). An in-memory SQLite app through `app.inject` (no network), one warm-up
 * round, then LOGIN_BENCH_ROUNDS (default 30) alternating rounds; prints median and p90 in milliseconds.
 */
import { performance } from 'node:perf_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { ensureAccounts } from '../server/plugins/app/auth';

const rounds = Number(process.env.LOGIN_BENCH_ROUNDS ?? 30);
const dataDir = mkdtempSync(join(tmpdir(), 'baas-login-bench-'));
const app = await buildApp({
  ...loadConfig({}),
  dataDir,
  sqliteFile: ':memory:',
  consoleDir: join(dataDir, 'no-console'),
  seed: false,
  loginRateLimit: 1_000_000,
});
await app.ready();
await ensureAccounts(app.db, { admin: 'bench-admin-password', user: 'bench-user-password' }, () => {});

async function time(username: string): Promise<number> {
  const start = performance.now();
  const res = await app.inject({
    method: 'POST',
    url: '/dev-api/user/login',
    payload: { username, password: 'not-the-password' },
  });
  const ms = performance.now() - start;
  if (res.statusCode !== 401) throw new Error(`expected 401, got ${res.statusCode}`);
  return ms;
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))];
const cases = { 'wrong password, existing account': 'admin', 'unknown account': 'no-such-account' };
const times: Record<string, number[]> = {};
for (const name of Object.keys(cases)) times[name] = [];
for (const username of Object.values(cases)) await time(username); // warm-up
for (let i = 0; i < rounds; i++)
  for (const [name, username] of Object.entries(cases)) times[name].push(await time(username));
console.log(`login answer times over ${rounds} rounds (ms):`);
for (const [name, xs] of Object.entries(times))
  console.log(
    `  ${name.padEnd(34)} median ${quantile(xs, 0.5).toFixed(1)}  p90 ${quantile(xs, 0.9).toFixed(1)}`,
  );
await app.close();
rmSync(dataDir, { recursive: true, force: true });

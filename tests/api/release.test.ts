/**
 * The release tarball (scripts/release.ts, `npm run release`) installed as an operator does (issue 20):
 * unpacked into an empty directory, `npm ci --omit=dev`, then `node server/dist/server.mjs`. The server
 * starts without the sources or any dev dependency, serves the built console and signs the admin in;
 * after a put on chain, `npm run ledger:verify` (the bundled verifier, plain node) run there in the
 * server's environment (DATA_DIR, LEDGER_KEY_DIR: the key and the signed state) says "Verified" (issue 31).
 *
 * One liberty, for CI's time: npm runs without install scripts and better-sqlite3's native addon is
 * copied from this checkout's node_modules (the same version, from the same lock file). Its install
 * script compiles SQLite from source when the prebuilt binary (on GitHub) is out of reach: 8 minutes
 * on two cores. Every package is otherwise installed by npm from the lock file.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRelease } from '../../scripts/release';
import { ROOT, startServerProcess, type ServerProcess } from '../support/serverProcess';

const work = mkdtempSync(join(tmpdir(), 'baas-release-test-'));
const app = join(work, 'app');
const PASSWORD = 'release-test-password';
/** The server's key directory, apart from its data (docs/ledger.md section 10). */
const keyDir = join(work, 'keys');
let server: ServerProcess | undefined;

beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) return;
  const tarball = await makeRelease(join(work, 'out'));
  mkdirSync(app);
  execFileSync('tar', ['-xzf', tarball, '-C', app]);
  execFileSync(
    'npm',
    ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'],
    {
      cwd: app,
      stdio: 'pipe',
      env: { ...process.env, npm_config_loglevel: 'error' },
    },
  );
  const addon = 'node_modules/better-sqlite3/build';
  cpSync(join(ROOT, addon), join(app, addon), { recursive: true });
}, 600_000);

afterAll(async () => {
  await server?.stop('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

// Database-independent: run once, in the SQLite pass (CI's PostgreSQL pass sets TEST_DATABASE_URL).
describe.skipIf(!!process.env.TEST_DATABASE_URL)('the release tarball', () => {
  it('holds the builds and no sources; npm installs the runtime packages only', () => {
    expect(existsSync(join(app, 'server/dist/server.mjs'))).toBe(true);
    expect(existsSync(join(app, 'dist/index.html'))).toBe(true);
    expect(existsSync(join(app, 'server/server.ts'))).toBe(false);
    expect(existsSync(join(app, 'src'))).toBe(false);
    expect(existsSync(join(app, 'node_modules/fastify/package.json'))).toBe(true);
    for (const dev of ['tsx', 'vite', 'esbuild', 'react', 'typescript', 'vitest'])
      expect(existsSync(join(app, 'node_modules', dev)), dev).toBe(false);
  });

  it('runs with `node server/dist/server.mjs`: serves the console and signs the admin in', async () => {
    server = await startServerProcess({
      root: app,
      entry: join(app, 'server/dist/server.mjs'),
      dataDir: join(work, 'data'),
      env: {
        ADMIN_PASSWORD: PASSWORD,
        USER_PASSWORD: PASSWORD,
        CONSOLE_DIR: join(app, 'dist'),
        LEDGER_KEY_DIR: keyDir,
      },
    });
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(readFileSync(join(app, 'dist/index.html'), 'utf8'));
    const login = await fetch(`${server.url}/dev-api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    expect(((await login.json()) as any).data.token).toMatch(/^\S{20,}$/);
    const wrong = await fetch(`${server.url}/dev-api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'not-the-password' }),
    });
    expect(wrong.status).not.toBe(200);
  }, 180_000);

  it('runs the bundled account command the same way (`npm run admin` in a release)', () => {
    const out = execFileSync(process.execPath, ['scripts/run-built.mjs', 'admin', 'list-users'], {
      cwd: app,
      env: { ...process.env, DATA_DIR: join(work, 'data') },
      encoding: 'utf8',
    });
    expect(out).toMatch(/\tadmin\tAdministrator\tadmin\tactive\t1\t/);
  });

  it('verifies its ledger with `npm run ledger:verify` (bundled, production dependencies only)', async () => {
    const { scripts } = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
    expect(scripts['ledger:verify']).toBe('node scripts/run-built.mjs ledger-verify');
    const post = async (path: string, body: unknown, token?: string) =>
      (
        await fetch(`${server!.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { 'x-token': token } : {}) },
          body: JSON.stringify(body),
        })
      ).json() as Promise<any>;
    const token = (await post('/dev-api/user/login', { username: 'admin', password: PASSWORD })).data.token;
    const author = await post('/artmanager/authors/addAuthors', { authorName: 'Release Verified' }, token);
    expect((await post('/artmanager/authors/blockChain', { id: author.data.id }, token)).code).toBe(0);
    const r = spawnSync('npm', ['run', '--silent', 'ledger:verify'], {
      cwd: app,
      env: { ...process.env, DATA_DIR: join(work, 'data'), LEDGER_KEY_DIR: keyDir, DATABASE_URL: '' },
      encoding: 'utf8',
    });
    const out = r.stdout + r.stderr;
    expect(out).toMatch(/^verified \d+ blocks/);
    expect(out).toMatch(/Verified, signed state: \S+\/artchannel: the log of \d+ entries extends/);
    expect(r.status, out).toBe(0);
  }, 120_000);
});

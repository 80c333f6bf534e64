/**
 * The production server bundle (scripts/build-server.ts), as `npm start` and `npm run import` run it:
 * plain JavaScript on Node, no tsx loader. Built into a throw-away folder under `server/` (one level
 * below it, as `server/dist` is, so file-relative paths such as the seed's resolve as in production).
 * - the bundled server, started on an empty data directory, seeds the shipped Tate sample at its first
 *   start and serves it: an admin signs in and lists the artworks;
 * - the bundled import command parses and validates in its bundled worker thread (`prepareWorker.mjs`),
 *   and imports the same rows as the import run from the sources.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_FILES } from '../../server/import/seed';
import { buildServer, SERVER_ENV } from '../../scripts/build-server';
import { ROOT, startServerProcess, type ServerProcess } from '../support/serverProcess';
import { tempDb } from '../import/helpers';
import { importTate } from '../../server/import/importer';

const outDir = mkdtempSync(join(ROOT, 'server', '.bundle-test-'));
const dataDir = mkdtempSync(join(tmpdir(), 'baas-bundle-'));
const PASSWORD = 'bundle-test-password';
let server: ServerProcess | undefined;
let bundlePackages: string[] = [];

/**
 * Database-independent (the bundled server and import run on SQLite files of their own): run once, in the
 * SQLite pass; CI's PostgreSQL pass (TEST_DATABASE_URL set) would build and run the same bundle again.
 */
const otherPass = !!process.env.TEST_DATABASE_URL;

beforeAll(async () => {
  if (!otherPass) bundlePackages = (await buildServer(outDir)).packages;
}, 60_000);

afterAll(async () => {
  await server?.stop('SIGKILL');
  rmSync(outDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(`${dataDir}-keys`, { recursive: true, force: true }); // the default LEDGER_KEY_DIR, beside it
});

describe.skipIf(otherPass)('the production bundle', () => {
  it('is what `npm start` runs, with the environment the benchmarks give it', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const env = Object.entries(SERVER_ENV).map(([k, v]) => `${k}=${v}`);
    expect(scripts.start).toBe(`${env.join(' ')} node scripts/run-built.mjs server`);
    expect(scripts.build).toBe('tsx scripts/build.ts');
  });

  it("loads exactly package.json's dependencies: `npm ci --omit=dev` installs what it needs, no more", () => {
    const { dependencies, devDependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(bundlePackages).toContain('fastify');
    expect(Object.keys(dependencies).sort()).toEqual(bundlePackages);
    // Never imported anywhere (issue 20), and one router package (v7's react-router).
    for (const dead of [
      '@fastify/sensible',
      'nprogress',
      'path-to-regexp',
      'pino-pretty',
      'react-router-dom',
    ])
      expect({ ...dependencies, ...devDependencies }).not.toHaveProperty(dead);
  });

  it('starts on an empty data directory, seeds the sample and serves it', async () => {
    server = await startServerProcess({
      dataDir: join(dataDir, 'server'),
      entry: join(outDir, 'server.mjs'),
      env: { ...SERVER_ENV, SEED: '1', ADMIN_PASSWORD: PASSWORD, USER_PASSWORD: PASSWORD, LOG_LEVEL: 'info' },
    });
    const call = async (path: string, token: string | null, body: unknown) => {
      const r = await fetch(`${server!.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { 'x-token': token } : {}) },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: (await r.json()) as any };
    };
    const login = await call('/dev-api/user/login', null, { username: 'admin', password: PASSWORD });
    expect(login.status).toBe(200);
    const token = login.body.data.token as string;
    // Seeding runs after the server is up: wait until the list shows the whole sample.
    let total = 0;
    for (let i = 0; i < 300 && total < 1000; i++) {
      const list = await call('/artmanager/artwork/searchArtworkList', token, { page: 1, pageSize: 5 });
      expect(list.status).toBe(200);
      total = list.body.data.total;
      if (total < 1000) await new Promise((r) => setTimeout(r, 200));
    }
    expect(total).toBeGreaterThan(1000);
    expect(server.output()).toMatch(/seed \(Tate sample, CC0\): artists imported/);
  }, 120_000);

  it('imports through the bundled worker thread, with the outcome of the sources', async () => {
    const summaryFile = join(dataDir, 'summary.json');
    execFileSync(
      process.execPath,
      [
        join(outDir, 'import.mjs'),
        SEED_FILES.artworks,
        '--artists',
        SEED_FILES.artists,
        '--report',
        join(dataDir, 'report.jsonl'),
        '--summary',
        summaryFile,
      ],
      { cwd: ROOT, env: { ...process.env, DATA_DIR: join(dataDir, 'import') }, stdio: 'pipe' },
    );
    const bundled = JSON.parse(readFileSync(summaryFile, 'utf8'));
    expect(bundled.worker).toBe(true);
    expect(bundled.cpuSeconds).toBeGreaterThan(0);

    const t = await tempDb();
    try {
      const fromSources = await importTate(t.db, {
        artistsFile: SEED_FILES.artists,
        artworksFile: SEED_FILES.artworks,
      });
      expect(bundled.artists).toEqual(fromSources.artists);
      expect(bundled.artworks).toEqual(fromSources.artworks);
      expect(bundled.artworks.imported).toBeGreaterThan(1000);
    } finally {
      await t.close();
    }
  }, 120_000);
});

import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Five projects: `unit` (pure modules, jsdom where a test asks for it), two files at a time, without
 * isolation (no unit file mocks a module; a worker importing the kernel once for all its files took the
 * project from 106 to 72 CPU-s); `api` (Fastify app.inject against a temporary SQLite file or PostgreSQL
 * database each), two files at a time (vitest's default on a 2-core machine is one; most of an API file's
 * time is spent waiting on the database or a child process), without isolation: each worker imports the
 * server once for all the files it runs, where an isolated file spent seconds importing it again (each test
 * app is still new: tests/api/helpers.ts); `api-isolated` (the API files listed in API_ISOLATED, each in a
 * worker of its own); `api-serial` (the API files listed below, one at a time); `browser` (Playwright
 * driving Chromium, tests/browser/helpers/env.ts `CHROMIUM`, against a real server on loopback, each file
 * its own; long timeouts), two files at a time, without isolation (a worker imports playwright-core once;
 * each file still starts its own server and browser). unit, api, api-isolated and browser share one group of two workers; the api-serial
 * files run last, alone.
 *
 * With `TEST_POSTGRES_URL` (a PostgreSQL role allowed to create databases, scripts/postgres-test-db.sh),
 * the three API projects run a second time on PostgreSQL in the same run: `pg-api`, `pg-api-isolated` and
 * `pg-api-serial`, whose workers get it as `TEST_DATABASE_URL` (tests/api/helpers.ts). One run of both
 * passes keeps both cores busy to its end (`npm run test:all`), where a PostgreSQL pass before the SQLite
 * one left a core idle at the end of each. `TEST_DATABASE_URL` itself, set for the whole run, still moves
 * the `api` projects to PostgreSQL.
 */
/**
 * API files that start server processes and kill or copy them under load (crash, failover, proxy,
 * online backup): one at a time, so that another file's load does not stretch their windows.
 */
const API_SERIAL = [
  'tests/api/ledger-crash.test.ts',
  'tests/api/multi-instance.test.ts',
  'tests/api/proxy.test.ts',
  'tests/api/backup.test.ts',
  'tests/api/concurrency.test.ts',
];

/**
 * API files that mock a module (vi.mock) or import the server anew (vi.resetModules): isolated, so that
 * neither reaches another file.
 */
const API_ISOLATED = ['tests/api/login-timing.test.ts', 'tests/api/evolution-tate.test.ts'];

/**
 * Files started first in their group. Vitest starts the files of a group by project name, then (with no
 * results cache, as on a clean clone) by file size: the full-Tate evolution test (a minute, project
 * `api-isolated`) started after every `api` file and ran alone at the end of the PostgreSQL pass, a core
 * idle. The long browser files need no help: their project starts before the unit files, which fill the
 * end (listing them here only slowed the API files they then ran beside).
 */
const LONG_FIRST = ['tests/api/evolution-tate.test.ts'];

/** Vitest's order, except that the {@link LONG_FIRST} files of a group start first. */
class LongFirstSequencer extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONG_FIRST.findIndex((p) => f.moduleId.endsWith(`/${p}`));
      return i < 0 ? LONG_FIRST.length : i;
    };
    const group = (f: TestSpecification) => f.project.config.sequence.groupOrder ?? 0;
    // Array.prototype.sort is stable: the other files keep vitest's order.
    return sorted.sort((a, b) => group(a) - group(b) || rank(a) - rank(b));
  }
}

/**
 * The API and browser tests' scrypt cost (server/plugins/app/password.ts `scryptCost`): 1024, where the
 * default 16384 spent 39 ms of CPU on each of the suite's account creations and logins (about 65 CPU-s a
 * run). The servers the tests start inherit it. The default and the refusal of a low cost outside a test
 * run are unit-tested (server/plugins/app/password.test.ts).
 */
const CHEAP_HASHES = { SCRYPT_COST: '1024' };

/** The PostgreSQL role of the second API pass (see the module doc), if any. */
const POSTGRES_URL = process.env.TEST_POSTGRES_URL;

/**
 * The three API projects (`api`, `api-isolated`, `api-serial`), their names prefixed with `prefix`, their
 * workers' environment extended with `env` (the PostgreSQL pass's `TEST_DATABASE_URL`).
 */
function apiProjects(prefix: string, env: Record<string, string> = {}): TestProjectInlineConfiguration[] {
  // globalSetup: the run's migrated, empty database that every test app copies (tests/api/templateDb.ts).
  const common = {
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    env: { ...CHEAP_HASHES, ...env },
    globalSetup: 'tests/api/templateDb.ts',
  } as const;
  return [
    {
      test: {
        ...common,
        name: `${prefix}api`,
        // tests/import reads no TEST_DATABASE_URL (its files import into SQLite files of their own): once
        include: prefix
          ? ['tests/api/**/*.test.ts']
          : ['tests/api/**/*.test.ts', 'tests/import/**/*.test.ts'],
        exclude: [...configDefaults.exclude, ...API_SERIAL, ...API_ISOLATED],
        maxWorkers: 2,
        isolate: false,
      },
    },
    { test: { ...common, name: `${prefix}api-isolated`, include: API_ISOLATED, maxWorkers: 2 } },
    { test: { ...common, name: `${prefix}api-serial`, include: API_SERIAL, fileParallelism: false } },
  ];
}

export default defineConfig({
  test: {
    sequence: { sequencer: LongFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          // Two at a time, beside `api` in the first group (vitest refuses two projects of different
          // maxWorkers in one group): one at a time, after it, left a core idle.
          maxWorkers: 2,
          isolate: false,
          include: [
            'common/**/*.test.ts',
            'kernel/**/*.test.ts',
            'src/**/*.test.{ts,tsx}',
            'server/**/*.test.ts',
            'scripts/**/*.test.ts',
            'tests/unit/**/*.test.{ts,tsx}',
          ],
          environment: 'node',
        },
      },
      ...apiProjects(''),
      ...(POSTGRES_URL ? apiProjects('pg-', { TEST_DATABASE_URL: POSTGRES_URL }) : []),
      {
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          environment: 'node',
          env: CHEAP_HASHES,
          testTimeout: 180_000,
          hookTimeout: 300_000,
          // Two files at a time, in the same group as unit and api, so that both cores stay busy until the
          // last file (one browser file alone uses about 1.2 of the 2 cores).
          maxWorkers: 2,
          // A file's concurrent tests (the crawler's sessions) two at a time.
          maxConcurrency: 2,
          isolate: false,
        },
      },
    ],
  },
});

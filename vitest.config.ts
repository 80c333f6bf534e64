import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Four projects: `unit` (pure modules, jsdom where a test asks for it); `api` (Fastify app.inject
 * against a temporary SQLite file or PostgreSQL database each), two files at a time (vitest's default on
 * a 2-core machine is one; most of an API file's time is spent waiting on the database or a child
 * process); `api-serial` (the API files listed below, one at a time); `browser` (Playwright driving
 * /usr/bin/chromium against a real server on loopback; serial, long timeouts). Projects whose files run
 * one at a time (unit, api-serial, browser) run after `api`.
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

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // One at a time, after `api` (vitest refuses two projects of different maxWorkers in one group).
          maxWorkers: 1,
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
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts', 'tests/import/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...API_SERIAL],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'api-serial',
          include: API_SERIAL,
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
    ],
  },
});

/**
 * The throw-away app codegen reads its API documents from (scripts/codegen/openapi.ts,
 * scripts/codegen/screens.ts): server/app.ts built on SQLite `:memory:`, no seed, with its DATA_DIR, ledger
 * signing key and signer's state in a temporary folder (never ./data), removed afterwards. The app is
 * imported only when called, so codegen writes `common/generated/` before the app reads it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../../server/config';

/**
 * Builds the app (config from `loadConfig({})` plus `overrides`), waits for `ready`, runs `fn` on it, then
 * closes it and removes its folder, also when `fn` throws.
 * @param prefix name prefix of the temporary folder (e.g. `baas-openapi-`)
 */
export async function withMemoryApp<T>(
  prefix: string,
  fn: (app: FastifyInstance) => Promise<T>,
  overrides: Partial<AppConfig> = {},
): Promise<T> {
  const { buildApp } = await import('../../server/app');
  const { loadConfig } = await import('../../server/config');
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const app = await buildApp({
    ...loadConfig({}),
    dataDir,
    ledgerKeyDir: dataDir,
    sqliteFile: ':memory:',
    consoleDir: join(dataDir, 'no-console'),
    seed: false,
    ...overrides,
  });
  try {
    await app.ready();
    return await fn(app);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

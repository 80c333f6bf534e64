/**
 * The API projects' global set-up (vitest `globalSetup`, vitest.config.ts): one migrated, empty database
 * per run, which every test app starts from (tests/api/helpers.ts `createTestApp`) instead of running
 * every migration again:
 * - SQLite: a `baas.sqlite` that `migrateToLatest` made, copied into each app's DATA_DIR;
 * - PostgreSQL (the project's `TEST_DATABASE_URL`, see vitest.config.ts): a database each app's database
 *   is created from (`CREATE DATABASE … TEMPLATE`, a file copy).
 * The app then runs the migrations itself as at every start, and finds none pending. The migrations
 * themselves are still run from an empty database here, and tested by the migration and evolution tests.
 * Provided to the tests as `apiTemplates` (vitest `inject`); removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { connect, isPostgresUrl } from '../../server/db/connect';
import { migrateToLatest } from '../../server/db/migrator';
import { createScratchDatabase } from '../support/pgAdmin';

/** Where a test app's empty, migrated database comes from. */
export interface ApiTemplates {
  /** The migrated SQLite file to copy. */
  sqlite: string;
  /** The migrated PostgreSQL database to create from, on the project's `TEST_DATABASE_URL`. */
  postgres?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    apiTemplates: ApiTemplates;
  }
}

/** Migrates a new database (`opts` as server/db/connect.ts takes them) to the latest and closes it. */
async function migrated(opts: { dataDir: string; databaseUrl?: string }): Promise<void> {
  const { db } = connect(opts);
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}

/** Makes the templates, provides them, and resolves the teardown that removes them. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'baas-api-template-'));
  await migrated({ dataDir: dir });
  const templates: ApiTemplates = { sqlite: join(dir, 'baas.sqlite') };
  const admin = project.config.env?.TEST_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const scratch = isPostgresUrl(admin) ? await createScratchDatabase(admin, 'baas_template') : undefined;
  if (scratch) {
    await migrated({ dataDir: dir, databaseUrl: scratch.url });
    templates.postgres = scratch.name;
  }
  project.provide('apiTemplates', templates);
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    await scratch?.drop();
  };
}

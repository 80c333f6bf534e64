/**
 * A copy of this repository with extra schemas, for the tests that add a resource by adding a schema and
 * nothing else (tests/api/every-type.test.ts): the tracked and untracked, not ignored, files are copied,
 * node_modules linked, the schemas put in `schemas/`, and `npm run codegen` run there. Plus a PostgreSQL
 * database of its own when `TEST_DATABASE_URL` names a PostgreSQL server (scripts/postgres-test-db.sh).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { createScratchDatabase } from './pgAdmin';
import { copyRepository } from './repoCopy';

/**
 * Copies this repository to `dest` (see the module doc), adds `schemas` (`{ from: absolute path, to:
 * path relative to the copy }`) and runs codegen there.
 * @throws with codegen's output when it fails
 */
export function copyWithSchemas(dest: string, schemas: { from: string; to: string }[]): void {
  copyRepository(dest, { untracked: true });
  for (const s of schemas) copyFileSync(s.from, join(dest, s.to));
  try {
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/codegen.ts'], { cwd: dest, stdio: 'pipe' });
  } catch (e) {
    const err = e as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`codegen failed in the copy:\n${err.stdout ?? ''}${err.stderr ?? ''}`);
  }
}

/**
 * A new PostgreSQL database on the server of `TEST_DATABASE_URL` (a role allowed to create databases),
 * or undefined when that variable names no PostgreSQL server (the tests then run on SQLite).
 * `drop` removes it (FORCE: ending its sessions).
 */
export async function scratchPostgres(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin || !/^postgres(ql)?:\/\//.test(admin)) return undefined;
  return createScratchDatabase(admin, 'baas_copy');
}

/**
 * A copy of this repository with extra schemas, for the tests that add a resource by adding a schema and
 * nothing else (tests/api/every-type.test.ts): the tracked and untracked, not ignored, files are copied,
 * node_modules linked, the schemas put in `schemas/`, and `npm run codegen` run there. Plus a PostgreSQL
 * database of its own when `TEST_DATABASE_URL` names a PostgreSQL server (scripts/postgres-test-db.sh).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { ROOT } from './serverProcess';

/**
 * Copies this repository to `dest` (see the module doc), adds `schemas` (`{ from: absolute path, to:
 * path relative to the copy }`) and runs codegen there.
 * @throws with codegen's output when it fails
 */
export function copyWithSchemas(dest: string, schemas: { from: string; to: string }[]): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
  })
    .toString()
    .split('\0')
    .filter(Boolean);
  for (const f of files) {
    mkdirSync(dirname(join(dest, f)), { recursive: true });
    try {
      copyFileSync(join(ROOT, f), join(dest, f));
    } catch {
      // a tracked file deleted in the working tree
    }
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dest, 'node_modules'));
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
  const name = `baas_copy_${randomBytes(6).toString('hex')}`;
  const run = async (text: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

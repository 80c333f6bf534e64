/**
 * `npm run release [-- <out-dir>]`: the release tarball an operator installs without the sources or
 * the dev dependencies (issue 20):
 *
 *   mkdir app && tar -xzf baas-admin-<version>.tgz -C app && cd app
 *   npm ci --omit=dev && node server/dist/server.mjs        (or `npm start`)
 *
 * It holds the built console (`dist/`), the server bundle (`server/dist/`: the server, import, admin,
 * backup and restore commands and their worker threads), what the bundle reads at run time (the Tate
 * seed in `server/db/seed/`, loaded into an empty database), `package.json` and `package-lock.json`
 * (`npm ci --omit=dev` installs exactly the bundle's external packages: package.json's `dependencies`),
 * scripts/run-built.mjs with scripts/buildStamp.mjs (`npm start`, `npm run admin`... run the bundle)
 * and README.md. Everything is built first when stale (scripts/build.ts); the tarball's top level is the
 * application folder's content (no leading directory).
 *
 * Output: `<out-dir>/baas-admin-<version>.tgz` (default out-dir `release/`, git-ignored); prints its path.
 * Needs `tar` (GNU tar, Debian's). Exit status 1 when the build or tar fails.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './build';
import { ROOT } from './buildStamp.mjs';

/** Paths (relative to ROOT) copied into the tarball as they are; the builds are copied dereferenced. */
export const RELEASE_FILES = [
  'package.json',
  'package-lock.json',
  'README.md',
  'server/db/seed',
  'scripts/run-built.mjs',
  'scripts/buildStamp.mjs',
];

/**
 * Builds (when stale) and writes the tarball.
 * @param outDir folder of the tarball, absolute or relative to the current directory
 * @returns the tarball's absolute path
 */
export async function makeRelease(outDir = join(ROOT, 'release')): Promise<string> {
  await ensureBuilt();
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const stage = mkdtempSync(join(tmpdir(), 'baas-release-'));
  try {
    for (const f of RELEASE_FILES) cpSync(join(ROOT, f), join(stage, f), { recursive: true });
    cpSync(realpathSync(join(ROOT, 'dist')), join(stage, 'dist'), { recursive: true });
    cpSync(realpathSync(join(ROOT, 'server/dist')), join(stage, 'server/dist'), { recursive: true });
    mkdirSync(resolve(outDir), { recursive: true });
    const tarball = join(resolve(outDir), `baas-admin-${version}.tgz`);
    execFileSync('tar', ['-czf', tarball, '--owner=0', '--group=0', '-C', stage, '.'], { stdio: 'inherit' });
    return tarball;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(await makeRelease(process.argv[2]));
  } catch (e) {
    console.error(e);
    process.exit(1);
  }
}

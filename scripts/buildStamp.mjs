/**
 * Build stamps (issue 20, "build once, start many"): the SHA-256 of the sources a build is made from,
 * written as `BUILD_STAMP` into each build directory, so `npm start` rebuilds only when a source changed.
 * Plain JavaScript (no tsx): a release tarball runs scripts/run-built.mjs, which imports this, with
 * production dependencies only.
 *
 * Layout of a built checkout (scripts/build.ts makes it):
 * - `dist` → `dist-<stamp>/` (the console, Vite) and `server/dist` → `server/dist-<stamp>/` (the server
 *   bundle, esbuild): symbolic links, switched by an atomic rename once a new build is complete, so a
 *   running server never sees a half-written directory; the server pins the real directory at its start
 *   (server/config.ts resolves CONSOLE_DIR; Node resolves the bundle's own path);
 * - `server/.running/<pid>.json`: the build directories a live process started by run-built.mjs uses;
 *   scripts/build.ts never deletes those.
 * A release tarball holds plain `dist/` and `server/dist/` directories and no sources: nothing is built.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (absolute). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** What the console build (`vite build`) reads: paths relative to ROOT, folders taken whole. */
export const CONSOLE_INPUTS = [
  'src',
  'common',
  'schemas',
  'public',
  'index.html',
  'vite.config.ts',
  'package-lock.json',
];

/** What the server bundle (scripts/build-server.ts) reads. `kernel` may hold the schema kernel. */
export const SERVER_INPUTS = [
  'server',
  'kernel',
  'common',
  'schemas',
  'scripts',
  'tsconfig.json',
  'package-lock.json',
];

/** Files that never go into a build: tests, build outputs, run-time state. */
const SKIP = /(^|\/)(node_modules|dist(-[^/]*)?|\.bundle-test-[^/]*|\.running|[^/]*\.test\.tsx?)$/;

function walk(path, out) {
  if (!existsSync(path)) return;
  const rel = relative(ROOT, path);
  if (SKIP.test(rel)) return;
  if (statSync(path).isDirectory()) for (const name of readdirSync(path).sort()) walk(join(path, name), out);
  else out.push(path);
}

/**
 * The stamp of a set of inputs: SHA-256 (hex) over each file's path relative to ROOT and its bytes, in
 * sorted order. Missing inputs count as absent (e.g. `kernel/` before the kernel moves there).
 * @param {string[]} inputs paths relative to ROOT
 * @returns {string} 64 hex characters
 */
export function stampOf(inputs) {
  const files = [];
  for (const input of inputs) walk(join(ROOT, input), files);
  const hash = createHash('sha256');
  for (const file of [...new Set(files)].sort()) {
    hash.update(`${relative(ROOT, file)}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** True in a checkout (the sources are there), false in a release tarball (built files only). */
export function hasSources() {
  return existsSync(join(ROOT, 'server/server.ts'));
}

/**
 * The stamp a build directory was made from (`<dir>/BUILD_STAMP`, written last by scripts/build.ts),
 * or undefined when the directory is missing or its build never completed.
 * @param {string} dir absolute, or relative to ROOT (`dist`, `server/dist`)
 * @returns {string | undefined}
 */
export function builtStamp(dir) {
  const file = resolve(ROOT, dir, 'BUILD_STAMP');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

/**
 * Which builds are missing or older than their sources.
 * @returns {{ console: boolean, server: boolean }} true: that part must be built
 */
export function staleParts() {
  return {
    console: builtStamp('dist') !== stampOf(CONSOLE_INPUTS),
    server: builtStamp('server/dist') !== stampOf(SERVER_INPUTS),
  };
}

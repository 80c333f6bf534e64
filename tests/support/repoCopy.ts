/**
 * A copy of this repository for the tests that change it the way a developer would (tests/browser/zero-code.test.ts,
 * tests/browser/schema-fuzz.test.ts, tests/api/every-type.test.ts): its
 * tracked and untracked, not ignored, files (as the working tree has them) under a new directory, sharing
 * this repository's node_modules through a symlink; the tools to tell which files a step wrote
 * (`fingerprints`, `changedFiles`) and to run the project's scripts there (`runIn`, `runInAsync`); `copyWithSchemas` (a
 * copy with extra schemas, codegen run) and `scratchPostgres` (a PostgreSQL database of its own).
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createScratchDatabase } from './pgAdmin';
import { ROOT } from './serverProcess';
import { isPostgresUrl } from '../../server/db/connect';

/** Copies the tracked and untracked, not ignored, files of this repository to `dest` and links its node_modules. */
export function copyRepository(dest: string): void {
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
}

/**
 * Copies this repository to `dest` (`copyRepository`), adds `schemas` (`{ from: absolute path, to: path
 * relative to the copy }`) and runs codegen there.
 * @throws with the end of codegen's output when it fails
 */
export function copyWithSchemas(dest: string, schemas: { from: string; to: string }[]): void {
  copyRepository(dest);
  for (const s of schemas) copyFileSync(s.from, join(dest, s.to));
  runIn(dest, 'scripts/codegen.ts');
}

/**
 * A new PostgreSQL database on the server of `admin` (default `TEST_DATABASE_URL`; a role allowed to
 * create databases), or undefined when that names no PostgreSQL server (the tests then run on SQLite).
 * `drop` removes it (FORCE: ending its sessions).
 */
export async function scratchPostgres(
  admin = process.env.TEST_DATABASE_URL,
): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  if (!isPostgresUrl(admin)) return undefined;
  return createScratchDatabase(admin, 'baas_copy');
}

/** Every file below `dir` (relative paths), node_modules and .git excluded. */
export function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.name === 'node_modules' || e.name === '.git') continue;
    if (e.isDirectory()) out.push(...listFiles(dir, rel));
    else out.push(rel);
  }
  return out;
}

/** `path:sha256` of every file below `dir`, to tell afterwards which files a step wrote or changed. */
export function fingerprints(dir: string): Set<string> {
  return new Set(
    listFiles(dir).map(
      (f) =>
        `${f}:${createHash('sha256')
          .update(readFileSync(join(dir, f)))
          .digest('hex')}`,
    ),
  );
}

/** The files below `dir` that are new or changed since `before` (a `fingerprints` result). */
export function changedFiles(dir: string, before: Set<string>): string[] {
  return [...fingerprints(dir)].filter((fp) => !before.has(fp)).map((fp) => fp.slice(0, fp.lastIndexOf(':')));
}

/** `node` and its arguments to run `script` (JavaScript and node_modules/ bins as they are, others through tsx). */
const nodeArgs = (script: string, args: string[]) => [
  ...(/\.[cm]?js$|^node_modules\//.test(script) ? [] : ['--import', 'tsx']),
  script,
  ...args,
];

/** The options of a run in `dir`: a vitest run in the copy is a run of its own, not a worker of this one. */
const runOptions = (dir: string, timeoutMs: number) => ({
  cwd: dir,
  timeout: timeoutMs,
  env: {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST'))),
    FORCE_COLOR: '0',
  },
  maxBuffer: 64 * 1024 * 1024,
});

/** The Error of a failed run: the last lines of its output, long ones (minified sources in a stack) cut. */
function runFailure(dir: string, script: string, args: string[], e: unknown): Error {
  const err = e as { stdout?: Buffer | string; stderr?: Buffer | string; status?: number; code?: number };
  const tail = `${err.stdout ?? ''}\n${err.stderr ?? ''}`
    .split('\n')
    .filter((l) => l.trim() && !/^\s+at /.test(l))
    .map((l) => (l.length > 300 ? `${l.slice(0, 300)}…` : l))
    .slice(-40)
    .join('\n');
  return new Error(`${script} ${args.join(' ')} exited with ${err.status ?? err.code} in ${dir}:\n${tail}`);
}

/**
 * Runs `node --import tsx <script> ...args` in `dir` (JavaScript and node_modules/ bins run as they are); resolves its
 * output, throws an Error carrying the end of the output when it exits non-zero.
 */
export function runIn(dir: string, script: string, args: string[] = [], timeoutMs = 600_000): string {
  try {
    return execFileSync(process.execPath, nodeArgs(script, args), {
      ...runOptions(dir, timeoutMs),
      stdio: 'pipe',
    }).toString();
  } catch (e) {
    throw runFailure(dir, script, args, e);
  }
}

/**
 * `runIn` without blocking this process: its event loop keeps serving what the test started (a server
 * child's output, idle keep-alive sockets the server closes, which a blocked loop would later reuse and
 * find broken: EPIPE). Resolves the output; rejects as `runIn` throws.
 */
export function runInAsync(
  dir: string,
  script: string,
  args: string[] = [],
  timeoutMs = 600_000,
): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, nodeArgs(script, args), runOptions(dir, timeoutMs), (e, stdout, stderr) =>
      e ? reject(runFailure(dir, script, args, Object.assign(e, { stdout, stderr }))) : resolve(stdout),
    ),
  );
}

/**
 * `npm run build` (and `npm start` when a build is missing or stale, through scripts/run-built.mjs):
 * builds the console (Vite) and the server bundle (esbuild, scripts/build-server.ts) once per source
 * state, each into a new directory named by its build stamp (scripts/buildStamp.mjs), then switches the
 * `dist` and `server/dist` symbolic links to them by an atomic rename (issue 20, "build once, start
 * many"). A running server keeps the directories it started with: no build ever writes into a directory
 * a link points to, and old builds are deleted only when no live process uses them
 * (`server/.running/<pid>.json`) and they are neither the current nor the previous build.
 *
 * Concurrent builds (two `npm start` at once, a supervisor restarting instances) take turns on the lock
 * file `.build.lock` (holding the builder's pid; a dead holder's lock is taken over); the second finds
 * the first's build fresh and builds nothing.
 *
 * Usage: `tsx scripts/build.ts [--force] [--server-only]`: `--force` rebuilds even a fresh part,
 * `--server-only` leaves the console alone (the admin, backup and import commands need the server only).
 * Exit status 1 on a build error (the links then still point at the previous complete build).
 */
import {
  closeSync,
  existsSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as viteBuild } from 'vite';
import { buildServer } from './build-server';
import { builtStamp, CONSOLE_INPUTS, ROOT, SERVER_INPUTS, stampOf } from './buildStamp.mjs';

const LOCK = join(ROOT, '.build.lock');
/** Where run-built.mjs records the build directories of each live process (`<pid>.json`). */
export const RUNNING_DIR = join(ROOT, 'server/.running');

/** Whether process `pid` is alive (signal 0 probes without signalling). */
export function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Runs `fn` holding `.build.lock` (created exclusively; a lock whose pid is dead is removed). */
async function withLock<T>(fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      const fd = openSync(LOCK, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let holder = NaN;
      try {
        holder = Number(readFileSync(LOCK, 'utf8'));
      } catch {
        continue; // released meanwhile
      }
      if (holder && !alive(holder)) rmSync(LOCK, { force: true });
      else await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(LOCK, { force: true });
  }
}

/** Points the symbolic link `link` (absolute) at `target` (a sibling's name) by an atomic rename. */
function switchLink(link: string, target: string): void {
  const tmp = `${link}.tmp-${process.pid}`;
  rmSync(tmp, { force: true });
  symlinkSync(target, tmp);
  // A checkout built before build stamps has plain directories: moved aside once (then collected).
  if (existsSync(link) && !lstatSync(link).isSymbolicLink()) renameSync(link, `${link}-old-${Date.now()}`);
  renameSync(tmp, link);
}

/**
 * Makes the build of stamp `stamp` for `link` (`dist` or `server/dist`, relative to ROOT) current:
 * reuses `<link>-<stamp>` when complete (BUILD_STAMP present), else builds it afresh (always with
 * `force`, into a new directory), then switches.
 */
async function buildPart(
  link: string,
  stamp: string,
  make: (dir: string) => Promise<unknown>,
  force = false,
): Promise<string> {
  const abs = join(ROOT, link);
  // Forced: a directory of its own, since the stamp's directory may be the one being served.
  const dir = `${abs}-${stamp.slice(0, 16)}${force ? `-${Date.now().toString(36)}` : ''}`;
  if (builtStamp(dir) !== stamp) {
    rmSync(dir, { recursive: true, force: true }); // an interrupted build: no link ever pointed at it
    await make(dir);
    writeFileSync(join(dir, 'BUILD_STAMP'), `${stamp}\n`);
  }
  switchLink(abs, basename(dir));
  return dir;
}

/** The build directories live processes use (markers of dead processes are removed). */
function inUse(): Set<string> {
  const dirs = new Set<string>();
  if (!existsSync(RUNNING_DIR)) return dirs;
  for (const name of readdirSync(RUNNING_DIR)) {
    const file = join(RUNNING_DIR, name);
    const pid = Number(name.replace(/\.json$/, ''));
    if (!alive(pid)) {
      rmSync(file, { force: true });
      continue;
    }
    try {
      for (const d of JSON.parse(readFileSync(file, 'utf8')).dirs as string[]) dirs.add(d);
    } catch {
      // being written: its process started after our switch, so it uses the current build
    }
  }
  return dirs;
}

/** Deletes the builds of `link` that are not current, not the newest previous one, and not in use. */
function collect(link: string, used: Set<string>): void {
  const abs = join(ROOT, link);
  const current = existsSync(abs) ? realpathSync(abs) : '';
  const builds = readdirSync(dirname(abs))
    .filter((n) => n.startsWith(`${basename(abs)}-`))
    .map((n) => join(dirname(abs), n))
    .filter((p) => p !== current && lstatSync(p).isDirectory())
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const old of builds.slice(1)) if (!used.has(old)) rmSync(old, { recursive: true, force: true });
}

/**
 * Builds what is stale (or everything with `force`) and switches the links; a no-op on a fresh checkout.
 * @returns which parts were (re)built or switched
 */
export async function ensureBuilt(
  opts: { force?: boolean; serverOnly?: boolean } = {},
): Promise<{ console: boolean; server: boolean }> {
  return withLock(async () => {
    const done = { console: false, server: false };
    const consoleStamp = stampOf(CONSOLE_INPUTS);
    if (!opts.serverOnly && (opts.force || builtStamp('dist') !== consoleStamp)) {
      await buildPart(
        'dist',
        consoleStamp,
        (outDir) => viteBuild({ root: ROOT, logLevel: 'warn', build: { outDir, emptyOutDir: true } }),
        opts.force,
      );
      done.console = true;
    }
    const serverStamp = stampOf(SERVER_INPUTS);
    if (opts.force || builtStamp('server/dist') !== serverStamp) {
      await buildPart('server/dist', serverStamp, (dir) => buildServer(dir), opts.force);
      done.server = true;
    }
    const used = inUse();
    collect('dist', used);
    collect('server/dist', used);
    return done;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = performance.now();
  const args = process.argv.slice(2);
  try {
    const done = await ensureBuilt({
      force: args.includes('--force'),
      serverOnly: args.includes('--server-only'),
    });
    const what = [done.console && 'console (dist)', done.server && 'server (server/dist)'].filter(Boolean);
    console.log(
      what.length
        ? `built ${what.join(' and ')} in ${Math.round(performance.now() - t0)} ms`
        : 'build is up to date',
    );
  } catch (e) {
    console.error(e);
    process.exit(1);
  }
}

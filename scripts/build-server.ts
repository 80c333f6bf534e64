/**
 * `npm run build:server` (part of `npm run build`): bundles the server for production with esbuild into
 * `server/dist/` (git-ignored), so `npm start` runs plain JavaScript on Node without tsx's loader:
 * - `server/dist/server.mjs`: server/server.ts and everything it imports of ours (schemas, generated
 *   validators, routes, ledger); npm packages stay external and load from node_modules;
 * - `server/dist/import.mjs`: the import command (scripts/import.ts, `npm run import`);
 * - `server/dist/prepareWorker.mjs`: the import's worker thread (server/import/prepare.ts starts it when
 *   it sits beside the running bundle);
 * - `server/dist/backup.mjs`, `restore.mjs`, `admin.mjs`, `uploads-migrate.mjs`: the operator's commands
 *   (`npm run backup`, `restore`, `admin`, `uploads:migrate`; scripts/backup.ts, restore.ts, admin.ts,
 *   uploads-migrate.ts);
 * - `server/dist/ledger-verify.mjs`, `ledger-verify-proof.mjs`: the verifiers (`npm run ledger:verify`,
 *   `ledger:verify-proof`; scripts/ledger-verify.ts, ledger-verify-proof.ts), so a release checks its
 *   ledger with production dependencies only (issue 31);
 * - `server/dist/generated/verifyWorker.mjs`: the ledger verification's worker, where verify.ts looks for
 *   it (`./generated/verifyWorker.mjs` beside the module).
 *
 * Why (issue 10, measured on a seeded data directory): the server idles at about 177 MB RSS bundled
 * against 237 MB through tsx, which also transforms TypeScript in every worker thread at its start.
 * The bundle sits one folder below `server/`, as the source modules do, so their file-relative paths
 * (`../db/seed/...`) resolve to the same files. Source maps are linked so stack traces name our sources.
 *
 * Usage: `tsx scripts/build-server.ts [outdir]` (default `server/dist`). Exit status 1 on a build error.
 */
import { build } from 'esbuild';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The production server, absolute: what `npm start` runs (the benchmarks start it too). */
export const SERVER_BUNDLE = resolve(root, 'server/dist/server.mjs');

/** The entry points and their names in the output folder. */
export const SERVER_ENTRIES = [
  { in: 'server/server.ts', out: 'server' },
  { in: 'scripts/import.ts', out: 'import' },
  { in: 'server/import/prepareWorker.ts', out: 'prepareWorker' },
  { in: 'server/ledger/verifyWorker.ts', out: 'generated/verifyWorker' },
  { in: 'scripts/backup.ts', out: 'backup' },
  { in: 'scripts/restore.ts', out: 'restore' },
  { in: 'scripts/admin.ts', out: 'admin' },
  { in: 'scripts/uploads-migrate.ts', out: 'uploads-migrate' },
  { in: 'scripts/ledger-verify.ts', out: 'ledger-verify' },
  { in: 'scripts/ledger-verify-proof.ts', out: 'ledger-verify-proof' },
];

/**
 * The environment `npm start` runs the bundle with (package.json's `start` script sets the same; the
 * benchmarks start the server with it, and tests/api/server-bundle.test.ts checks the two agree):
 * - `MALLOC_ARENA_MAX=2`: glibc's malloc keeps at most two arenas instead of eight per core; each thread
 *   that allocates (libuv's pool, V8's helpers, SQLite) otherwise touches an arena of its own. Measured on
 *   the full Tate data under the bench's list, search and detail load: peak RSS 245 MB with glibc's
 *   default, 196 MB with 2, 175 MB with 1 (which cost a tenth of the list's req/s); req/s unchanged at 2.
 */
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** The npm package a bare import specifier names (`@scope/name/sub` → `@scope/name`, `ajv/dist/x` → `ajv`). */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * Builds the bundles into `outdir` (absolute, or relative to the project root).
 * @returns the npm packages the bundles import at run time (esbuild's metafile, externals without
 *   `node:` builtins), sorted: exactly what package.json's `dependencies` must list (issue 20).
 * @throws esbuild's error when a module does not build
 */
export async function buildServer(outdir = 'server/dist'): Promise<{ packages: string[] }> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: SERVER_ENTRIES,
    outdir: resolve(root, outdir),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    legalComments: 'none',
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
    metafile: true,
  });
  const packages = new Set<string>();
  for (const output of Object.values(result.metafile.outputs))
    for (const i of output.imports)
      if (i.external && !i.path.startsWith('node:') && !i.path.startsWith('.'))
        packages.add(packageOf(i.path));
  return { packages: [...packages].sort() };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = performance.now();
  await buildServer(process.argv[2]).catch(() => process.exit(1));
  console.log(
    `server bundle: ${process.argv[2] ?? 'server/dist'} (${Math.round(performance.now() - t0)} ms)`,
  );
}

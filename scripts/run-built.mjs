/**
 * Runs a command of the production server bundle (`server/dist/<name>.mjs`): `npm start` (server),
 * `npm run import`, `npm run admin`, `npm run backup`, `npm run restore`, `npm run uploads:migrate` (issue 20),
 * `npm run ledger:verify`, `npm run ledger:verify-proof` (issue 31).
 *
 *   node scripts/run-built.mjs <server|import|admin|backup|restore|uploads-migrate|ledger-verify|ledger-verify-proof> [arguments...]
 *
 * In a checkout, it first builds what is missing or older than the sources (scripts/build.ts through
 * tsx, a dev dependency; the server command needs the console too, the others only the server bundle):
 * a fresh build is never rebuilt, so many processes start from one build. In a release tarball (no
 * sources) it runs what is there. The bundle runs in this process (no second Node process), with
 * `process.argv[1]` set to the bundle's own path; the build directories it uses are recorded in
 * `server/.running/<pid>.json` while it lives, so a later build never deletes them.
 * Exit status 1 with a message when a needed build is stale and cannot be made (no dev dependencies).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hasSources, ROOT, staleParts } from './buildStamp.mjs';

const COMMANDS = [
  'server',
  'import',
  'admin',
  'backup',
  'restore',
  'uploads-migrate',
  'ledger-verify',
  'ledger-verify-proof',
];
const [name, ...args] = process.argv.slice(2);
if (!COMMANDS.includes(name)) {
  console.error(`usage: node scripts/run-built.mjs <${COMMANDS.join('|')}> [arguments...]`);
  process.exit(2);
}

if (hasSources()) {
  const stale = staleParts();
  const needsConsole = name === 'server' && stale.console;
  if (needsConsole || stale.server) {
    const tsx = join(ROOT, 'node_modules/tsx/dist/loader.mjs');
    if (!existsSync(tsx)) {
      console.error(
        'The build is missing or older than the sources, and building needs the dev dependencies ' +
          '(npm ci without --omit=dev). To run without them, install a release tarball (npm run release).',
      );
      process.exit(1);
    }
    const build = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'scripts/build.ts'), ...(name === 'server' ? [] : ['--server-only'])],
      { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
    );
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
}

const bundle = realpathSync(join(ROOT, 'server/dist', `${name}.mjs`));
const dirs = [join(bundle, '..')];
if (name === 'server' && existsSync(join(ROOT, 'dist'))) dirs.push(realpathSync(join(ROOT, 'dist')));
if (hasSources()) {
  const marker = join(ROOT, 'server/.running', `${process.pid}.json`);
  mkdirSync(join(ROOT, 'server/.running'), { recursive: true });
  writeFileSync(marker, JSON.stringify({ name, dirs }));
  process.on('exit', () => rmSync(marker, { force: true }));
}
// The console directory this process serves: the build it started with, not a later one.
if (name === 'server' && !process.env.CONSOLE_DIR && dirs[1]) process.env.CONSOLE_DIR = dirs[1];
process.argv = [process.argv[0], bundle, ...args];
await import(pathToFileURL(bundle).href);

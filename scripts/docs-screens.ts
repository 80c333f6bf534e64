/**
 * `npm run docs:screens`: writes docs/screens-and-calls.md, the table of every screen and call of issue 8
 * with its status (scripts/codegen/screens.ts), and docs/data-provider-calls.md, the console dataProvider's
 * verb → call table (scripts/codegen/verbTable.ts). `--check` writes nothing and exits 1 when a file on disk
 * differs from what it would write (run after a merge: a new schema, route or call changes the tables).
 * `npm run codegen` runs this script last (in a process of its own, so it reads the files codegen just
 * wrote), so one codegen leaves both documents up to date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { screensFiles } from './codegen/screens';
import { differingFiles } from './codegen/staleFiles';
import { verbTableFiles } from './codegen/verbTable';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every document this script writes: path relative to the project root -> content. */
export async function docsFiles(): Promise<Record<string, string>> {
  return { ...(await screensFiles(root)), ...(await verbTableFiles(root)) };
}

/**
 * Paths whose content on disk (as `read` returns it) differs from what the generator writes, or from
 * `files` when given (what {@link docsFiles} answered before: it builds the app and asks it every call).
 */
export async function staleScreenFiles(
  read: (path: string) => string = (path) => readFileSync(join(root, path), 'utf8'),
  files?: Record<string, string>,
): Promise<string[]> {
  return differingFiles(files ?? (await docsFiles()), read);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const stale = await staleScreenFiles();
    if (stale.length) {
      console.error(`Stale: ${stale.join(', ')}. Run \`npm run docs:screens\`.`);
      process.exit(1);
    }
    console.log('docs/screens-and-calls.md and docs/data-provider-calls.md are up to date.');
  } else {
    for (const [path, content] of Object.entries(await docsFiles())) {
      writeFileSync(join(root, path), content);
      console.log(`wrote ${path}`);
    }
  }
}

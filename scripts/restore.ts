/**
 * `npm run restore -- <dir>`: restores backup `<dir>` (made by `npm run backup`) into DATA_DIR, which
 * must be missing or empty; every file is checked against the manifest's SHA-256 first
 * (server/ops/backup.ts). Start the server on the restored DATA_DIR afterwards. Exit status 1 on failure
 * (nothing written), 2 on usage.
 */
import { resolve } from 'node:path';
import { loadConfig } from '../server/config';
import { restore } from '../server/ops/backup';

const source = process.argv[2];
if (!source || process.argv.length > 3) {
  console.error(
    'usage: npm run restore -- <backup directory>   (DATA_DIR: an empty directory to restore into)',
  );
  process.exit(2);
}
const config = loadConfig();
try {
  const manifest = restore(resolve(source), config.dataDir);
  console.log(
    `restored ${manifest.files.length} files (backup of ${manifest.createdAt}) into ${config.dataDir}`,
  );
  if (manifest.database === 'postgresql')
    console.log('PostgreSQL: restore the database with pg_restore too.');
} catch (e) {
  console.error(`restore failed: ${(e as Error).message}`);
  process.exit(1);
}

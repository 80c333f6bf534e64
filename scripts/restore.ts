/**
 * `npm run restore -- <dir>`: restores backup `<dir>` (made by `npm run backup`) into DATA_DIR, which
 * must be missing or empty; every file is checked against the manifest's size and SHA-256 first
 * (server/ops/backup.ts). Then it merges the backup's signed state into
 * `<LEDGER_KEY_DIR>/ledger-signed-checkpoints.json`, per origin the larger size (a restore never lowers
 * what the key dir remembers). A backup of another log (its origins differ from the key dir's state or
 * LEDGER_ORIGIN) is refused. Start the server on the restored DATA_DIR afterwards. Exit status 1 on
 * failure (one line, nothing written), 2 on usage.
 */
import { resolve } from 'node:path';
import { loadConfig } from '../server/config';
import { restore } from '../server/ops/backup';

const source = process.argv[2];
if (!source || process.argv.length > 3) {
  console.error(
    'usage: npm run restore -- <backup directory>   (DATA_DIR: an empty directory to restore into; LEDGER_KEY_DIR: the key dir)',
  );
  process.exit(2);
}
try {
  const config = loadConfig();
  const manifest = restore(resolve(source), config.dataDir, {
    keyDir: config.ledgerKeyDir,
    ledgerOrigin: config.ledgerOrigin,
  });
  console.log(
    `restored ${manifest.files.length} files (backup of ${manifest.createdAt}) into ${config.dataDir}`,
  );
  if (manifest.signedState)
    console.log(
      `signed state merged into ${config.ledgerKeyDir}: ${manifest.merged.length ? `took the backup's entry for ${manifest.merged.join(', ')}` : 'the key dir already remembered as much or more'}`,
    );
  if (manifest.database === 'postgresql')
    console.log('PostgreSQL: restore the database with pg_restore too.');
} catch (e) {
  console.error(`restore failed: ${(e as Error).message}`);
  process.exit(1);
}

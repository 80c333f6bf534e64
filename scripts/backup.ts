/**
 * `npm run backup -- <dir>`: an online, consistent backup of the server's data (server/ops/backup.ts)
 * into the new or empty directory `<dir>`, while the server runs. DATA_DIR, DATABASE_URL and
 * LEDGER_KEY_DIR as the server reads them (server/config.ts): the backup carries the key dir's signed
 * state (`ledger-signed-checkpoints.json`) and the log origins, never the signing key. On PostgreSQL the
 * database is not in it: run pg_dump beside it (README, "Run in production"). Prints the manifest's
 * summary; exit status 1 on failure, 2 on usage.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from '../server/config';
import { KEY_FILE_NAME } from '../server/ledger/keyDir';
import { backup } from '../server/ops/backup';
import { postgresOrigins } from '../server/ops/signedState';
import { isPostgresUrl } from '../server/db/connect';

const target = process.argv[2];
if (!target || process.argv.length > 3) {
  console.error(
    'usage: npm run backup -- <new or empty directory>   (DATA_DIR / DATABASE_URL / LEDGER_KEY_DIR: the data)',
  );
  process.exit(2);
}
try {
  const config = loadConfig();
  const postgres = isPostgresUrl(config.databaseUrl);
  const manifest = await backup(config.dataDir, resolve(target), postgres ? 'postgresql' : 'sqlite', {
    keyDir: config.ledgerKeyDir,
    databaseOrigins: postgres ? await postgresOrigins(config.databaseUrl!) : undefined,
  });
  const bytes = manifest.files.reduce((n, f) => n + f.bytes, 0);
  console.log(
    `backup of ${config.dataDir} in ${resolve(target)}: ${manifest.files.length} files, ${bytes} bytes`,
  );
  console.log(
    manifest.signedState
      ? `signed state of ${config.ledgerKeyDir} included (log origins: ${manifest.origins?.join(', ') || 'none'}); the signing key is not: keep it apart (README, "Run in production")`
      : `no signed state in ${config.ledgerKeyDir} (log origins: ${manifest.origins?.join(', ') || 'none'}); the signing key is not in the backup`,
  );
  if (existsSync(join(config.dataDir, KEY_FILE_NAME)))
    console.log(
      `${join(config.dataDir, KEY_FILE_NAME)} lies in DATA_DIR and was left out: move it to LEDGER_KEY_DIR (README, "Run in production")`,
    );
  if (postgres)
    console.log('PostgreSQL: the database is not in this backup; run pg_dump (README, "Run in production").');
} catch (e) {
  console.error(`backup failed: ${(e as Error).message}`);
  process.exit(1);
}

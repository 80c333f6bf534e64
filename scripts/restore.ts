/**
 * `npm run restore -- <dir>`: restores backup `<dir>` (made by `npm run backup`) into DATA_DIR, which
 * must be missing or empty; every file is checked against the manifest's size and SHA-256 first
 * (server/ops/backup.ts). Then it merges the backup's signed state into
 * `<LEDGER_KEY_DIR>/ledger-signed-checkpoints.json`, per origin the larger size (a restore never lowers
 * what the key dir remembers). A backup of another log (its origins differ from the key dir's state or
 * LEDGER_ORIGIN) is refused. The restored database gets one audit row, by `cli:<OS user>`, naming the
 * backup (server/ops/restoreAudit.ts): on SQLite in the restored file before it becomes DATA_DIR; on
 * PostgreSQL in DATABASE_URL's database, restored with pg_restore first (else the command says why it
 * wrote none). Start the server on the restored DATA_DIR afterwards. Exit status 1 on failure (one line,
 * nothing written), 2 on usage.
 */
import { join, resolve } from 'node:path';
import { loadConfig } from '../server/config';
import { restore } from '../server/ops/backup';
import { auditRestorePostgres, auditRestoreSqlite, restoreAuditRow } from '../server/ops/restoreAudit';

const source = process.argv[2];
if (!source || process.argv.length > 3) {
  console.error(
    'usage: npm run restore -- <backup directory>   (DATA_DIR: an empty directory to restore into; LEDGER_KEY_DIR: the key dir)',
  );
  process.exit(2);
}
try {
  const config = loadConfig();
  const from = resolve(source);
  let audited = false;
  const manifest = restore(from, config.dataDir, {
    keyDir: config.ledgerKeyDir,
    ledgerOrigin: config.ledgerOrigin,
    beforeCommit: (staging, m) => {
      if (m.database === 'sqlite')
        audited = auditRestoreSqlite(join(staging, 'baas.sqlite'), restoreAuditRow(from, m));
    },
  });
  console.log(
    `restored ${manifest.files.length} files (backup of ${manifest.createdAt}) into ${config.dataDir}`,
  );
  if (manifest.signedState)
    console.log(
      `signed state merged into ${config.ledgerKeyDir}: ${manifest.merged.length ? `took the backup's entry for ${manifest.merged.join(', ')}` : 'the key dir already remembered as much or more'}`,
    );
  if (manifest.database === 'postgresql') {
    const why = config.databaseUrl
      ? await auditRestorePostgres(config.databaseUrl, manifest, restoreAuditRow(from, manifest)).catch(
          (e: Error) => e.message,
        )
      : 'DATABASE_URL is not set';
    audited = why === null;
    if (why)
      console.log(`PostgreSQL: restore the database with pg_restore too (no audit row written: ${why}).`);
  }
  if (audited) console.log(`the restore is recorded in the restored database's audit trail`);
} catch (e) {
  console.error(`restore failed: ${(e as Error).message}`);
  process.exit(1);
}

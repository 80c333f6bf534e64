/**
 * `npm run backup -- <dir>`: an online, consistent backup of the server's data (server/ops/backup.ts)
 * into the new or empty directory `<dir>`, while the server runs. DATA_DIR and DATABASE_URL as the
 * server reads them (server/config.ts). On PostgreSQL the database is not in it: run pg_dump beside it
 * (README, "Run in production"). Prints the manifest's summary; exit status 1 on failure, 2 on usage.
 */
import { resolve } from 'node:path';
import { loadConfig } from '../server/config';
import { backup } from '../server/ops/backup';

const target = process.argv[2];
if (!target || process.argv.length > 3) {
  console.error('usage: npm run backup -- <new or empty directory>   (DATA_DIR / DATABASE_URL: the data)');
  process.exit(2);
}
const config = loadConfig();
try {
  const postgres = !!config.databaseUrl && /^postgres(ql)?:\/\//.test(config.databaseUrl);
  const manifest = await backup(config.dataDir, resolve(target), postgres ? 'postgresql' : 'sqlite');
  const bytes = manifest.files.reduce((n, f) => n + f.bytes, 0);
  console.log(
    `backup of ${config.dataDir} in ${resolve(target)}: ${manifest.files.length} files, ${bytes} bytes`,
  );
  if (postgres)
    console.log('PostgreSQL: the database is not in this backup; run pg_dump (README, "Run in production").');
} catch (e) {
  console.error(`backup failed: ${(e as Error).message}`);
  process.exit(1);
}

/**
 * `npm run uploads:migrate -- --to pg|s3`: copies the uploads of `<DATA_DIR>/uploads` into the shared
 * store (server/ops/uploadsMigrate.ts), on the database of DATABASE_URL (`pg`, after its migrations) or
 * the bucket of the `S3_*` variables (`s3`; server/storage/storeConfig.ts). Idempotent: run it again to
 * copy what is missing. Prints `copied N, already there M, ignored K`; exit status 0, 1 on an error, 2 on
 * usage. Then set UPLOAD_STORE (or leave the PostgreSQL default) and restart the servers.
 */
import { join } from 'node:path';
import { connect } from '../server/db/connect';
import { migrateToLatest } from '../server/db/migrator';
import { loadConfig } from '../server/config';
import { migrateUploads } from '../server/ops/uploadsMigrate';
import { openStore, s3Options } from '../server/storage/storeConfig';

const USAGE = 'usage: npm run uploads:migrate -- --to pg|s3   (DATA_DIR, DATABASE_URL, S3_* as the server)';

async function main(argv: string[]): Promise<number> {
  const i = argv.indexOf('--to');
  const to = i >= 0 ? argv[i + 1] : undefined;
  if (to !== 'pg' && to !== 's3') {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const { db } = connect({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    await migrateToLatest(db);
    const s3 = to === 's3' ? (config.s3 ?? s3Options(process.env)) : undefined;
    const store = openStore(to, { dataDir: config.dataDir, db, s3 });
    const r = await migrateUploads(join(config.dataDir, 'uploads'), store);
    for (const k of r.ignored) console.warn(`ignored ${k}: not a storage key`);
    console.log(`copied ${r.copied.length}, already there ${r.skipped.length}, ignored ${r.ignored.length}`);
    return 0;
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`uploads:migrate failed: ${err.message}`);
    process.exit(1);
  },
);

/**
 * `npm run admin -- <command> [arguments]`: the operator's account commands (server/ops/admin.ts, whose
 * `ADMIN_COMMANDS` table lists them and their options), on the database of DATA_DIR / DATABASE_URL
 * (server/config.ts), the server running or not:
 *
 *   create-user <username> --roles admin[,user...] [--name <name>] [--password <p>]
 *   reset-password <username> [--password <p>]
 *   list-users
 *   disable-user <username>
 *   revoke-sessions <username>
 *
 * A generated password (no --password, or BAAS_PASSWORD unset) is printed once. Every write is audited
 * (actor `cli:<OS user>`). Exit status 0 on success, 1 when refused (one line naming the argument or
 * field at fault: an unknown option too), 2 on usage.
 */
import { connect } from '../server/db/connect';
import { migrateToLatest } from '../server/db/migrator';
import { loadConfig } from '../server/config';
import { runAdmin } from '../server/ops/admin';

const config = loadConfig();
const { db } = connect({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
let status = 1;
try {
  await migrateToLatest(db);
  status = await runAdmin(db, process.argv.slice(2), {
    log: (line) => console.log(line),
    error: (line) => console.error(line),
  });
} catch (e) {
  console.error(e);
} finally {
  await db.destroy();
}
process.exit(status);

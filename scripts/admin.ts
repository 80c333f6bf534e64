/**
 * `npm run admin -- <command> [arguments]`: the operator's account commands (server/ops/admin.ts), on
 * the database of DATA_DIR / DATABASE_URL (server/config.ts), the server running or not:
 *
 *   create-user <username> --roles admin[,user...] [--name <name>] [--password <p>]
 *   reset-password <username> [--password <p>]
 *   list-users
 *   disable-user <username>
 *   revoke-sessions <username>
 *
 * A generated password (no --password, or BAAS_PASSWORD unset) is printed once. Every write is audited
 * (actor `cli:<OS user>`). Exit status 0 on success, 1 when refused (the message says why), 2 on usage.
 */
import { connect } from '../server/db/connect';
import { migrateToLatest } from '../server/db/migrator';
import { loadConfig } from '../server/config';
import {
  AdminError,
  createUser,
  disableUser,
  listUsers,
  resetPassword,
  revokeSessions,
} from '../server/ops/admin';

const USAGE = `usage: npm run admin -- <command>
  create-user <username> --roles <role[,role]> [--name <name>] [--password <password>]
  reset-password <username> [--password <password>]
  list-users
  disable-user <username>
  revoke-sessions <username>
(a password may also come from BAAS_PASSWORD; DATA_DIR / DATABASE_URL select the database)`;

/** `--name value` options and positional arguments. */
function parse(args: string[]): { positional: string[]; options: Record<string, string> } {
  const positional: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    if (args[i].startsWith('--')) {
      if (args[i + 1] === undefined) throw new AdminError(`${args[i]} needs a value`);
      options[args[i].slice(2)] = args[++i];
    } else positional.push(args[i]);
  }
  return { positional, options };
}

async function run(db: ReturnType<typeof connect>['db'], argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { positional, options } = parse(rest);
  const password = options.password ?? (process.env.BAAS_PASSWORD || undefined);
  const username = positional[0];
  const needUser = () => {
    if (!username || positional.length > 1) throw new AdminError(`${command} takes one username`);
    return username;
  };
  switch (command) {
    case 'create-user': {
      const roles = (options.roles ?? '').split(',').filter(Boolean);
      const r = await createUser(db, { username: needUser(), roles, name: options.name, password });
      console.log(`created account ${username} (id ${r.id})${password ? '' : `, password: ${r.password}`}`);
      return 0;
    }
    case 'reset-password': {
      const r = await resetPassword(db, needUser(), password);
      console.log(
        `password of ${username} reset${password ? '' : ` to: ${r.password}`}; ${r.sessionsEnded} session(s) ended`,
      );
      return 0;
    }
    case 'disable-user':
      console.log(`${username ?? ''} disabled; ${await disableUser(db, needUser())} session(s) ended`);
      return 0;
    case 'revoke-sessions':
      console.log(`${await revokeSessions(db, needUser())} session(s) of ${username} ended`);
      return 0;
    case 'list-users': {
      const rows = await listUsers(db);
      console.log(['id', 'username', 'name', 'roles', 'status', 'sessions', 'created'].join('\t'));
      for (const a of rows)
        console.log(
          [
            a.id,
            a.username,
            a.name,
            a.roles.join(','),
            a.disabled ? 'disabled' : 'active',
            a.sessions,
            a.createTime,
          ].join('\t'),
        );
      return 0;
    }
    default:
      console.error(USAGE);
      return 2;
  }
}

const config = loadConfig();
const { db } = connect({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
let status = 1;
try {
  await migrateToLatest(db);
  status = await run(db, process.argv.slice(2));
} catch (e) {
  console.error(e instanceof AdminError ? `refused: ${e.message}` : e);
} finally {
  await db.destroy();
}
process.exit(status);

/**
 * The operator's account commands (issue 20; `npm run admin`, scripts/admin.ts): create a console
 * account, reset a password, list the accounts, disable an account, end an account's sessions. They work
 * on the database directly (the server may be running: on SQLite its token cache sees other processes'
 * commits through `PRAGMA data_version`, server/plugins/app/tokenCache.ts), each write in one transaction
 * with its audit row, as the console's calls write theirs (server/kernel/audit.ts): actor account
 * `cli:<OS user>` (no account id), call `CLI admin <command>`.
 *
 * Disabling keeps the account and its history: its password hash gets the prefix `!` (no password ever
 * matches it, as a locked /etc/shadow entry) and its sessions end; `reset-password` enables it again.
 * Errors: {@link AdminError} with a message naming the argument at fault.
 */
import { userInfo } from 'node:os';
import type { Kysely } from 'kysely';
import { nowText, type Database } from '../db/database';
import { auditedUpdate, recordAudit, storedRow, type WriteActor } from '../db/audit';
import { generatePassword, hashPassword } from '../plugins/app/password';
import { KNOWN_ROLES } from '../routes/dev-api/user/index';
import { formatErrors } from '../../kernel/dialect/schemaRegistry';
import { validatorFor } from '../../kernel/dialect/validators';

/** A refused command (bad argument, unknown account...): its message is for the operator. */
export class AdminError extends Error {}

/** The username rule of schemas/account.schema.json (`username.pattern`). */
export const USERNAME_RE = /^[A-Za-z][A-Za-z0-9._-]{2,31}$/;
/** Marks a disabled account's password hash. */
export const DISABLED_PREFIX = '!';

/** The audit account of a command line: `cli:<OS user>` (`cli:unknown` without a passwd entry). */
export function cliAccount(): string {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no passwd entry (containers): keep "unknown"
  }
  return `cli:${user}`;
}

/** The audit actor of a command. */
export function cliActor(command: string): WriteActor {
  return { accountId: null, account: cliAccount(), call: `CLI admin ${command}` };
}

/** One account as `list-users` shows it. */
export interface AccountLine {
  id: number;
  username: string;
  name: string;
  roles: string[];
  disabled: boolean;
  /** Sessions not revoked and not expired. */
  sessions: number;
  createTime: string;
}

async function accountId(db: Kysely<Database>, username: string): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirst();
  if (!row) throw new AdminError(`no account "${username}"`);
  return row.id;
}

/** Ends every open session of account `id` (inside `trx`); returns how many. */
async function revoke(trx: Kysely<Database>, id: number): Promise<number> {
  const r = await trx
    .updateTable('tokens')
    .set({ revokeTime: nowText() })
    .where('accountId', '=', id)
    .where('revokeTime', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Updates account `id` with `set` and its audit row, ending its sessions when `endSessions`. */
async function updateAccount(
  db: Kysely<Database>,
  id: number,
  set: { passwordHash: string },
  command: string,
  endSessions: boolean,
): Promise<number> {
  return db.transaction().execute((trx) =>
    auditedUpdate(trx, cliActor(command), 'accounts', id, async () => {
      await trx.updateTable('accounts').set(set).where('id', '=', id).execute();
      return endSessions ? await revoke(trx, id) : 0;
    }),
  );
}

/**
 * Checks a new account against schemas/account.schema.json (the precompiled body validator the API
 * uses): username pattern, name width and plain text (no markup, no control characters), password 8 to
 * 256 characters, 1 to 3 distinct known roles. @throws AdminError naming each field at fault
 */
export function checkAccount(account: {
  username: string;
  name: string;
  password: string;
  roles: string[];
}): void {
  const validate = validatorFor('account.create');
  if (validate({ ...account })) return;
  throw new AdminError(
    formatErrors(validate.errors)
      .map((e) => e.message)
      .join('; '),
  );
}

/**
 * Creates a console account. @param roles known roles (schemas/account.schema.json), at least one
 * @returns its id and the password (generated when none was given: print it once)
 * @throws AdminError for a malformed or taken username, an unknown role, a password under 8 characters
 */
export async function createUser(
  db: Kysely<Database>,
  opts: { username: string; name?: string; roles: string[]; password?: string },
): Promise<{ id: number; password: string }> {
  if (!USERNAME_RE.test(opts.username))
    throw new AdminError(`username "${opts.username}": a letter, then 2-31 letters, digits or . _ -`);
  const unknown = opts.roles.filter((r) => !KNOWN_ROLES.includes(r));
  if (!opts.roles.length || unknown.length)
    throw new AdminError(
      `roles: one or more of ${KNOWN_ROLES.join(', ')}${unknown.length ? ` (not ${unknown.join(', ')})` : ''}`,
    );
  const password = opts.password ?? generatePassword();
  // The account schema's own rules, as the console's create call applies them (one door).
  checkAccount({ username: opts.username, name: opts.name ?? opts.username, password, roles: opts.roles });
  const passwordHash = await hashPassword(password);
  const id = await db.transaction().execute(async (trx) => {
    const taken = await trx
      .selectFrom('accounts')
      .select('id')
      .where('username', '=', opts.username)
      .executeTakeFirst();
    if (taken) throw new AdminError(`username "${opts.username}" is taken`);
    const row = await trx
      .insertInto('accounts')
      .values({
        username: opts.username,
        name: opts.name ?? opts.username,
        roles: JSON.stringify(opts.roles),
        introduction: null,
        avatar: null,
        createTime: nowText(),
        passwordHash,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordAudit(trx, cliActor('create-user'), {
      resource: 'accounts',
      recordId: row.id,
      after: await storedRow(trx, 'accounts', row.id),
    });
    return row.id;
  });
  return { id, password };
}

/**
 * Sets a new password (generated when none is given), enables a disabled account, ends its sessions.
 * @returns the password and how many sessions ended
 */
export async function resetPassword(
  db: Kysely<Database>,
  username: string,
  password = generatePassword(),
): Promise<{ password: string; sessionsEnded: number }> {
  if (password.length < 8 || password.length > 256)
    throw new AdminError(
      `password: 8 to 256 characters (schemas/account.schema.json), got ${password.length}`,
    );
  const id = await accountId(db, username);
  const sessionsEnded = await updateAccount(
    db,
    id,
    { passwordHash: await hashPassword(password) },
    'reset-password',
    true,
  );
  return { password, sessionsEnded };
}

/** Disables an account (see the module doc) and ends its sessions. @returns sessions ended */
export async function disableUser(db: Kysely<Database>, username: string): Promise<number> {
  const id = await accountId(db, username);
  const row = await db
    .selectFrom('accounts')
    .select('passwordHash')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  if (row.passwordHash.startsWith(DISABLED_PREFIX)) throw new AdminError(`"${username}" is already disabled`);
  return updateAccount(
    db,
    id,
    { passwordHash: `${DISABLED_PREFIX}${row.passwordHash}` },
    'disable-user',
    true,
  );
}

/** Ends every session of an account, with an audit row (its stored account row is unchanged). */
export async function revokeSessions(db: Kysely<Database>, username: string): Promise<number> {
  const id = await accountId(db, username);
  return db
    .transaction()
    .execute((trx) => auditedUpdate(trx, cliActor('revoke-sessions'), 'accounts', id, () => revoke(trx, id)));
}

/** Every account, by id. */
export async function listUsers(db: Kysely<Database>): Promise<AccountLine[]> {
  const now = nowText();
  const accounts = await db.selectFrom('accounts').selectAll().orderBy('id').execute();
  const open = await db
    .selectFrom('tokens')
    .select(['accountId', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('revokeTime', 'is', null)
    .where('expireTime', '>', now)
    .groupBy('accountId')
    .execute();
  const sessions = new Map(open.map((o) => [o.accountId, Number(o.n)]));
  return accounts.map((a) => ({
    id: a.id,
    username: a.username,
    name: a.name,
    roles: JSON.parse(a.roles) as string[],
    disabled: a.passwordHash.startsWith(DISABLED_PREFIX),
    sessions: sessions.get(a.id) ?? 0,
    createTime: a.createTime,
  }));
}

/** Where a command's output goes: `log` for its result lines, `error` for the one line of a refusal. */
export interface AdminOutput {
  log(line: string): void;
  error(line: string): void;
}

/** A command's parsed arguments: its one username (when it takes one) and its `--option value` pairs. */
export interface AdminArgs {
  username: string;
  options: Record<string, string>;
  /** `--password`, else BAAS_PASSWORD, else undefined (a generated one is printed). */
  password: string | undefined;
}

/** One command of `npm run admin` (scripts/admin.ts): the command table below is the list of its doors. */
export interface AdminCommand {
  name: string;
  /** Its usage line's arguments. */
  usage: string;
  /** The `--options` it takes (each with a value); any other is refused naming it. */
  options: readonly string[];
  /** Takes exactly one username. */
  takesUser: boolean;
  /** Writes to the database (each such write is audited, actor `cli:<OS user>`). */
  writes: boolean;
  run(db: Kysely<Database>, args: AdminArgs, out: AdminOutput): Promise<void>;
}

/**
 * The commands of `npm run admin`, in usage order. tests/api/doors.test.ts lists the write doors from
 * this table: a command added here without a case there fails that test.
 */
export const ADMIN_COMMANDS: readonly AdminCommand[] = [
  {
    name: 'create-user',
    usage: '<username> --roles <role[,role]> [--name <name>] [--password <password>]',
    options: ['roles', 'name', 'password'],
    takesUser: true,
    writes: true,
    async run(db, { username, options, password }, out) {
      const roles = (options.roles ?? '').split(',').filter(Boolean);
      const r = await createUser(db, { username, roles, name: options.name, password });
      out.log(`created account ${username} (id ${r.id})${password ? '' : `, password: ${r.password}`}`);
    },
  },
  {
    name: 'reset-password',
    usage: '<username> [--password <password>]',
    options: ['password'],
    takesUser: true,
    writes: true,
    async run(db, { username, password }, out) {
      const r = await resetPassword(db, username, password);
      out.log(
        `password of ${username} reset${password ? '' : ` to: ${r.password}`}; ${r.sessionsEnded} session(s) ended`,
      );
    },
  },
  {
    name: 'list-users',
    usage: '',
    options: [],
    takesUser: false,
    writes: false,
    async run(db, _args, out) {
      out.log(['id', 'username', 'name', 'roles', 'status', 'sessions', 'created'].join('\t'));
      for (const a of await listUsers(db))
        out.log(
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
    },
  },
  {
    name: 'disable-user',
    usage: '<username>',
    options: [],
    takesUser: true,
    writes: true,
    async run(db, { username }, out) {
      out.log(`${username} disabled; ${await disableUser(db, username)} session(s) ended`);
    },
  },
  {
    name: 'revoke-sessions',
    usage: '<username>',
    options: [],
    takesUser: true,
    writes: true,
    async run(db, { username }, out) {
      out.log(`${await revokeSessions(db, username)} session(s) of ${username} ended`);
    },
  },
];

/** The usage text of `npm run admin`. */
export const ADMIN_USAGE = [
  'usage: npm run admin -- <command>',
  ...ADMIN_COMMANDS.map((c) => `  ${c.name}${c.usage ? ` ${c.usage}` : ''}`),
  '(a password may also come from BAAS_PASSWORD; DATA_DIR / DATABASE_URL select the database)',
].join('\n');

/**
 * Parses `argv` against `command`'s table entry: one username when it takes one, its own `--options`
 * each with a value. @throws AdminError naming the argument at fault (an unknown option, a missing value
 * or username, an extra argument)
 */
export function parseAdminArgs(command: AdminCommand, argv: string[], env = process.env): AdminArgs {
  const positional: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const name = arg.slice(2);
    if (!command.options.includes(name))
      throw new AdminError(
        `${arg}: not an option of ${command.name}${command.options.length ? ` (takes ${command.options.map((o) => `--${o}`).join(', ')})` : ' (it takes none)'}`,
      );
    if (argv[i + 1] === undefined) throw new AdminError(`${arg}: needs a value`);
    options[name] = argv[++i];
  }
  if (command.takesUser ? positional.length !== 1 : positional.length > 0)
    throw new AdminError(
      `username: ${command.name} takes ${command.takesUser ? 'one username' : 'no argument'}, got ${positional.length}`,
    );
  return {
    username: positional[0] ?? '',
    options,
    password: options.password ?? (env.BAAS_PASSWORD || undefined),
  };
}

/**
 * Runs one `npm run admin` command line (`argv`: the command and its arguments) on `db`.
 * @returns the exit status: 0 done, 1 refused (one line naming the argument or field at fault, through
 * `out.error`), 2 unknown command (the usage). Errors other than refusals are thrown.
 */
export async function runAdmin(db: Kysely<Database>, argv: string[], out: AdminOutput): Promise<number> {
  const command = ADMIN_COMMANDS.find((c) => c.name === argv[0]);
  if (!command) {
    out.error(ADMIN_USAGE);
    return 2;
  }
  try {
    await command.run(db, parseAdminArgs(command, argv.slice(1)), out);
    return 0;
  } catch (e) {
    if (!(e instanceof AdminError)) throw e;
    out.error(`refused: ${e.message}`);
    return 1;
  }
}

/**
 * Companies' behaviour beyond the schema (schemas/company.schema.json; registered in kernel/hooks/index.ts):
 * the administrator and backup administrator are console accounts of role `company`.
 *
 * On create, and on an update that changes a slot's account, name or status (slots: `admin*`,
 * `backupAdmin*`), in the company write's own transaction and audited with it:
 * - an account is administrator of at most one company: naming one another company names is refused
 *   (409 naming `<slot>Account`, keyword `companyAdmin`);
 * - no account has that username (compared ignoring case, as `x-distinct` does): it is created with the
 *   slot's name, role `company` and the write-only `<slot>Password` (scrypt hash); without a password the
 *   write is refused (400 naming `<slot>Password`, keyword `required`);
 * - the account exists: it is linked as it is (role `company` granted when it lacks it); a password sent
 *   with it is refused (400 naming `<slot>Password`, keyword `accountExists`), an existing account's
 *   password is its own (Set > Password);
 * - an account whose only role is `company` follows the slot: its name is the slot's name, and a disabled
 *   slot (`<slot>Status` 0) ends its sessions; such an account cannot sign in while disabled
 *   ({@link companyAccountDisabled}, checked by `POST /dev-api/user/login`).
 * Deleting a company leaves its accounts (their role `company` then opens an empty inbox).
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { Codes } from '../../common/envelope';
import { msg } from '../../common/messages/index';
import { nowText } from '../../server/db/database';
import { recordAudit, storedRow } from '../server/audit';
import type { ResourceHooks, WriteContext } from '../server/repository';
import { ApiError, invalidField } from '../../server/plugins/app/errors';
import { hashPassword } from '../../server/plugins/app/password';

/** The role of company administrators' console accounts. */
export const COMPANY_ROLE = 'company';

/** The two administrator slots of a company record: property prefixes. */
export const ADMIN_SLOTS = ['admin', 'backupAdmin'] as const;
export type AdminSlot = (typeof ADMIN_SLOTS)[number];

type Row = Record<string, unknown>;

/** The stored account whose username is `username` ignoring letter case, or undefined. */
async function accountNamed(db: Kysely<any>, username: string): Promise<Row | undefined> {
  return (await db
    .selectFrom('accounts')
    .selectAll()
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst()) as Row | undefined;
}

/**
 * The companies (id, slot status and notify flag) that name `username` as administrator or backup
 * administrator, compared ignoring case.
 */
export async function companiesOf(
  db: Kysely<any>,
  username: string,
): Promise<{ id: number; slot: AdminSlot; status: number; notify: number }[]> {
  const u = username.toLowerCase();
  const rows = (await db
    .selectFrom('companies')
    .select([
      'id',
      'adminAccount',
      'backupAdminAccount',
      'adminStatus',
      'backupAdminStatus',
      'adminNotify',
      'backupAdminNotify',
    ])
    .where((eb) =>
      eb.or([eb(sql`lower("adminAccount")`, '=', u), eb(sql`lower("backupAdminAccount")`, '=', u)]),
    )
    .execute()) as Row[];
  return rows.map((r) => {
    const slot: AdminSlot = String(r.adminAccount).toLowerCase() === u ? 'admin' : 'backupAdmin';
    return {
      id: Number(r.id),
      slot,
      status: Number(r[`${slot}Status`]),
      notify: Number(r[`${slot}Notify`]),
    };
  });
}

/** True when `account` holds only the company role and its company slot is disabled (status 0). */
export async function companyAccountDisabled(
  db: Kysely<any>,
  account: { username: string; roles: string },
): Promise<boolean> {
  const roles = JSON.parse(account.roles) as string[];
  if (roles.length !== 1 || roles[0] !== COMPANY_ROLE) return false;
  const slots = await companiesOf(db, account.username);
  return slots.length > 0 && slots.every((s) => s.status === 0);
}

/** Creates or links the console account of one slot (see the module doc). */
async function syncSlot(ctx: WriteContext, slot: AdminSlot): Promise<void> {
  const { db, values, body, current, actor } = ctx;
  const field = (p: string) => `${slot}${p}`;
  const valueOf = (p: string) => (values[field(p)] !== undefined ? values[field(p)] : current?.[field(p)]);
  const username = String(valueOf('Account'));
  const name = String(valueOf('Name'));
  const status = Number(valueOf('Status') ?? 1);
  const password = body[field('Password')] as string | undefined;
  const touched = (p: string) => values[field(p)] !== undefined && values[field(p)] !== current?.[field(p)];
  const accountChanged =
    !current || String(current[field('Account')]).toLowerCase() !== username.toLowerCase();
  if (!accountChanged && !touched('Name') && !touched('Status') && password === undefined) return;

  if (accountChanged) {
    const other = (await companiesOf(db, username)).find((c) => c.id !== Number(current?.id));
    if (other)
      throw new ApiError(Codes.CONFLICT, 409, msg('request.fields'), {
        errors: [
          {
            field: field('Account'),
            keyword: 'companyAdmin',
            params: { username, companyId: other.id },
            message: `${field('Account')}: the account "${username}" is already an administrator of company ${other.id}`,
          },
        ],
      });
  }
  const who = actor ?? { accountId: null, account: '', call: '' };
  const existing = await accountNamed(db, username);
  if (!existing) {
    if (password === undefined)
      throw invalidField(
        field('Password'),
        'required',
        `is required: no account "${username}" exists, the company creates it with this initial password`,
      );
    const { id } = await db
      .insertInto('accounts')
      .values({
        username,
        name,
        roles: JSON.stringify([COMPANY_ROLE]),
        passwordHash: await hashPassword(password),
        createTime: nowText(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordAudit(db, who, {
      resource: 'accounts',
      recordId: Number(id),
      after: await storedRow(db, 'accounts', Number(id)),
    });
    return;
  }
  if (password !== undefined)
    throw invalidField(
      field('Password'),
      'accountExists',
      `the account "${existing.username}" exists: it is linked as it is, leave the password empty`,
      { username: existing.username },
    );
  const id = Number(existing.id);
  const roles = JSON.parse(String(existing.roles)) as string[];
  const companyOnly = roles.length === 1 && roles[0] === COMPANY_ROLE;
  const patch: Row = {};
  if (!roles.includes(COMPANY_ROLE)) patch.roles = JSON.stringify([...roles, COMPANY_ROLE]);
  if (companyOnly && existing.name !== name) patch.name = name;
  if (Object.keys(patch).length) {
    const before = await storedRow(db, 'accounts', id);
    await db.updateTable('accounts').set(patch).where('id', '=', id).execute();
    await recordAudit(db, who, {
      resource: 'accounts',
      recordId: id,
      before,
      after: await storedRow(db, 'accounts', id),
    });
  }
  if (companyOnly && status === 0) await db.deleteFrom('tokens').where('accountId', '=', id).execute();
}

export const companyHooks: ResourceHooks = {
  async beforeWrite(ctx) {
    for (const slot of ADMIN_SLOTS) await syncSlot(ctx, slot);
  },
};

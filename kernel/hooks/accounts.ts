/**
 * Hooks of the accounts resource (schemas/account.schema.json): what its schema cannot say.
 * - The write-only `password` is stored as its scrypt hash (`passwordHash`, server/plugins/app/password.ts).
 * - The last admin: an update that takes `admin` away from the last account holding it, or a delete of
 *   the last admin account(s), is refused with 409 naming the field (`roles`, `id`). On PostgreSQL the
 *   admin rows are locked (`FOR UPDATE`) so that two concurrent demotions cannot both pass; SQLite
 *   serialises write transactions.
 * - Sessions end: an account whose roles or password change, or that is deleted, has every token revoked
 *   (deleted) in the same transaction, so a demoted account's token loses the admin calls at once.
 */
import type { Kysely } from 'kysely';
import { Codes } from '../../common/envelope';
import type { Dialect, ResourceHooks } from '../server/repository';
import { ApiError } from '../../server/plugins/app/errors';
import { hashPassword } from '../../server/plugins/app/password';
import { msg } from '../../common/messages/index';

const ADMIN = 'admin';

/** 409 naming `field`: the change would leave no account with the admin role. */
export function lastAdminError(field: 'roles' | 'id', username: string) {
  const message =
    field === 'roles'
      ? `roles: "${username}" is the last account with the admin role; grant admin to another account first`
      : `id: "${username}" is the last account with the admin role and cannot be deleted; grant admin to another account first`;
  return new ApiError(Codes.CONFLICT, 409, msg('request.fields'), {
    errors: [{ field, keyword: 'lastAdmin', params: { username }, message }],
  });
}

/**
 * The admin accounts other than `except` (locked on PostgreSQL); throws {@link lastAdminError} when
 * there is none.
 */
export async function ensureAnotherAdmin(
  db: Kysely<any>,
  dialect: Dialect,
  except: number[],
  field: 'roles' | 'id',
): Promise<void> {
  let q = db.selectFrom('accounts').select(['id', 'username', 'roles']).where('roles', 'like', '%"admin"%');
  if (dialect === 'postgres') q = q.forUpdate();
  const admins = (await q.execute()).filter((a) => (JSON.parse(a.roles) as string[]).includes(ADMIN));
  if (admins.some((a) => !except.includes(a.id))) return;
  const last = admins.find((a) => except.includes(a.id));
  if (last) throw lastAdminError(field, last.username);
}

/** Ends every session of the accounts `ids` (their tokens are deleted). */
export async function endSessions(db: Kysely<any>, ids: number[]): Promise<void> {
  if (ids.length) await db.deleteFrom('tokens').where('accountId', 'in', ids).execute();
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

export const accountHooks: ResourceHooks = {
  async beforeWrite({ db, dialect, values, body, current }) {
    if (typeof body.password === 'string') values.passwordHash = await hashPassword(body.password);
    if (!current) return;
    const id = Number(current.id);
    const before = current.roles as string[];
    const after = (body.roles as string[] | undefined) ?? before;
    if (before.includes(ADMIN) && !after.includes(ADMIN))
      await ensureAnotherAdmin(db, dialect, [id], 'roles');
    if (!sameSet(before, after) || typeof body.password === 'string') await endSessions(db, [id]);
  },
  async beforeDelete({ db, dialect, ids }) {
    await ensureAnotherAdmin(db, dialect, ids, 'id');
    await endSessions(db, ids);
  },
};

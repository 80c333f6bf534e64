/**
 * Notifications' behaviour beyond the schema (schemas/notification.schema.json; registered in
 * kernel/hooks/index.ts). Status runs draft → sent → read:
 * - the operator sends one by creating it with status `sent` or updating a draft to `sent`: the hook then
 *   sets `recipients` (the usernames of the company's administrators whose slot is enabled and notified,
 *   and whose console account exists), `sendTime` and `sent` = 1. A company without such an administrator
 *   is refused (400 naming `status`, keyword `recipients`);
 * - `read` is set only by a recipient (`POST /medicine-api/message/read`); an operator sending it is
 *   refused (400 naming `status`, keyword `readByRecipient`);
 * - a sent (or read) notification is what its recipients received: the schema's `x-frozen` (`sent` 1) makes
 *   the kernel refuse changing it (400 naming the first field sent, keyword `sentFrozen`) and deleting it
 *   (409 naming `id`), and the console offer neither.
 */
import type { Kysely } from 'kysely';
import { nowText } from '../../server/db/database';
import type { ResourceHooks } from '../server/repository';
import { invalidField } from '../../server/plugins/app/errors';
import { ADMIN_SLOTS } from './companies';

/**
 * The usernames (as stored in `accounts`) of the administrators of company `companyId` that receive its
 * notifications: slot enabled (status 1), notify flag 1, account present.
 */
export async function recipientsOf(db: Kysely<any>, companyId: number): Promise<string[]> {
  const company = (await db
    .selectFrom('companies')
    .selectAll()
    .where('id', '=', companyId)
    .executeTakeFirst()) as Record<string, unknown> | undefined;
  if (!company) return [];
  const out: string[] = [];
  for (const slot of ADMIN_SLOTS) {
    if (Number(company[`${slot}Status`]) !== 1 || Number(company[`${slot}Notify`]) !== 1) continue;
    const username = String(company[`${slot}Account`]).toLowerCase();
    const account = await db
      .selectFrom('accounts')
      .select('username')
      .where((eb) => eb(eb.fn('lower', ['username']), '=', username))
      .executeTakeFirst();
    if (account && !out.includes(account.username)) out.push(account.username);
  }
  return out;
}

export const notificationHooks: ResourceHooks = {
  async beforeWrite({ db, values, body, current }) {
    if (body.status === 'read')
      throw invalidField(
        'status',
        'readByRecipient',
        'only a recipient marks a notification read (POST /medicine-api/message/read)',
      );
    if (body.status !== 'sent') return;
    const companyId = Number(values.companyId ?? current?.companyId);
    const recipients = await recipientsOf(db, companyId);
    if (!recipients.length)
      throw invalidField(
        'status',
        'recipients',
        `company ${companyId} has no enabled administrator who receives notifications`,
      );
    values.recipients = JSON.stringify(recipients);
    values.sendTime = nowText();
    values.sent = 1;
  },
};

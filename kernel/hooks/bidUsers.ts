/**
 * Bid users' behaviour beyond the schema (registered in kernel/hooks/index.ts), on create
 * (`POST /artmanager/subjects/insertUser`): the product's rule "the bid user's password is the phone
 * number" (specification §5) is kept as the INITIAL password: its scrypt hash is stored (`passwordHash`,
 * never answered) and `mustChangePassword` stays 1 (the column's default) until the bid user changes it.
 * `account` defaults to the phone number and `uid` is generated (`U` + 12 random hex digits).
 * A create without a phone number is refused (400 naming `phone`).
 */
import { randomBytes } from 'node:crypto';
import type { ResourceHooks } from '../server/repository';
import { invalidField } from '../../server/plugins/app/errors';
import { hashPassword } from '../../server/plugins/app/password';

export const bidUserHooks: ResourceHooks = {
  async beforeWrite({ values, current }) {
    if (current) return;
    const phone = values.phone;
    if (typeof phone !== 'string' || !phone) throw invalidField('phone', 'required', 'is required');
    values.account ??= phone;
    values.uid = `U${randomBytes(6).toString('hex')}`;
    values.passwordHash = await hashPassword(phone);
    values.mustChangePassword = 1;
  },
};

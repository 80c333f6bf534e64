/**
 * `/dev-api/user/*`: the console's login calls (docs/api.md).
 * - POST login `{username, password}` → `{token}` (username trimmed; rate-limited per IP). An unknown
 *   account's password is verified against a dummy hash (password.ts `dummyPasswordHash`), so it takes
 *   as long as a wrong password for an existing account (no account enumeration by timing).
 * - GET info `?token=` (or X-Token) → `{roles, name, account, avatar, introduction}`.
 * - POST logout → revokes the token.
 * - POST switchRole `{role}` → a fresh token scoped to one of the account's own roles (an admin
 *   may take any known role, since admin holds every permission); the old token is
 *   revoked. A role the account does not have is refused (403); a guessable role-name token never works.
 */
import type { FastifyInstance } from 'fastify';
import { Codes } from '../../../../common/envelope';
import { nowText } from '../../../db/database';
import { ok } from '../../../plugins/app/envelope';
import { apiError } from '../../../plugins/app/errors';
import { dummyPasswordHash, verifyPassword } from '../../../plugins/app/password';

/** Roles the product knows (schemas' x-roles and the blockchain section's `user`). */
export const KNOWN_ROLES = ['admin', 'user'];

const loginBody = {
  type: 'object',
  properties: {
    username: { type: 'string', minLength: 1, maxLength: 64 },
    password: { type: 'string', minLength: 1, maxLength: 256 },
  },
  required: ['username', 'password'],
  additionalProperties: false,
};

export default async function userRoutes(app: FastifyInstance) {
  // Made while the app boots, so that the first unknown-account login does not pay for it.
  await dummyPasswordHash();
  app.post(
    '/login',
    {
      schema: { body: loginBody },
      config: { rateLimit: { max: app.config.loginRateLimit, timeWindow: '1 minute' } },
    },
    async (request) => {
      const { username, password } = request.body as { username: string; password: string };
      const account = await app.db
        .selectFrom('accounts')
        .selectAll()
        .where('account', '=', username.trim())
        .executeTakeFirst();
      // One scrypt run whether or not the account exists (see above).
      const matches = await verifyPassword(password, account?.passwordHash ?? (await dummyPasswordHash()));
      if (!account || !matches) throw apiError(Codes.UNAUTHENTICATED, 401, 'auth.badCredentials');
      const token = await app.issueToken(account.id, JSON.parse(account.roles));
      return ok({ token });
    },
  );

  app.get(
    '/info',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { token: { type: 'string', maxLength: 200 } },
          additionalProperties: false,
        },
      },
      onRequest: app.requireRoles(),
    },
    async (request) => {
      const me = request.account!;
      const account = await app.db
        .selectFrom('accounts')
        .selectAll()
        .where('id', '=', me.id)
        .executeTakeFirstOrThrow();
      return ok({
        roles: me.roles,
        availableRoles: JSON.parse(account.roles) as string[],
        name: account.name,
        account: account.account,
        avatar: account.avatar ?? '',
        introduction: account.introduction ?? '',
      });
    },
  );

  app.post('/logout', { onRequest: app.requireRoles() }, async (request) => {
    await app.db
      .updateTable('tokens')
      .set({ revokeTime: nowText() })
      .where('tokenHash', '=', request.account!.tokenHash)
      .execute();
    return ok(null);
  });

  app.post(
    '/switchRole',
    {
      schema: {
        body: {
          type: 'object',
          properties: { role: { type: 'string', minLength: 1, maxLength: 32 } },
          required: ['role'],
          additionalProperties: false,
        },
      },
      onRequest: app.requireRoles(),
    },
    async (request) => {
      const { role } = request.body as { role: string };
      const me = request.account!;
      const account = await app.db
        .selectFrom('accounts')
        .selectAll()
        .where('id', '=', me.id)
        .executeTakeFirstOrThrow();
      const own: string[] = JSON.parse(account.roles);
      // An admin holds every permission, so it may scope a token down to any known role.
      const allowed = own.includes('admin') ? [...new Set([...own, ...KNOWN_ROLES])] : own;
      if (!allowed.includes(role)) throw apiError(Codes.FORBIDDEN, 403, 'auth.accountLacksRole', { role });
      const token = await app.issueToken(me.id, [role]);
      await app.db
        .updateTable('tokens')
        .set({ revokeTime: nowText() })
        .where('tokenHash', '=', me.tokenHash)
        .execute();
      return ok({ token, roles: [role] });
    },
  );
}

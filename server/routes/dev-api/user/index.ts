/**
 * `/dev-api/user/*`: the console's login and account calls (docs/api.md). The account CRUD calls
 * (list, detail, add, update, delete) are the accounts schema's (schemas/account.schema.json, registered
 * by kernel/server/resources.ts, hooks in ./hooks.ts); here are the calls that are not CRUD:
 * - POST login `{username, password}` → `{token}` (username trimmed; rate-limited per IP). An unknown
 *   account's password is verified against a dummy hash (password.ts `dummyPasswordHash`), so it takes
 *   as long as a wrong password for an existing account (no account enumeration by timing).
 * - GET info `?token=` (or X-Token) → `{roles, name, account, avatar, introduction}`.
 * - POST logout → revokes the token.
 * - POST switchRole `{role}` → a fresh token scoped to one of the account's own roles (an admin
 *   may take any known role, since admin holds every permission); the old token is
 *   revoked. A role the account does not have is refused (403); a guessable role-name token never works.
 * - POST addAuth / delAuth `{id, role}` (admin) → the account with the role granted / revoked: an update
 *   of `roles` through the repository (audited; the last admin keeps admin; the account's sessions end).
 *   Revoking an account's only role is refused (roles are a non-empty array).
 * - POST password `{oldPassword, newPassword}` (any signed-in account) → changes the caller's own password
 *   when `oldPassword` is right (400 naming `oldPassword` otherwise); ends the caller's other sessions,
 *   keeps this one; audited.
 * - GET roles (admin) → `{roles: [{role, calls: [{method, path, summary}]}]}`: every guarded call each role
 *   opens, read from the routes' role gates (the OpenAPI document's `security`, server/plugins/external/swagger.ts),
 *   i.e. the schemas' `x-roles` and the hand-written routes' `requireRoles`.
 */
import type { FastifyInstance } from 'fastify';
import { Codes } from '../../../../common/envelope';
import { nowText } from '../../../db/database';
import { ok } from '../../../plugins/app/envelope';
import { ApiError, apiError } from '../../../errors';
import { dummyPasswordHash, hashPassword, signIn, verifyPassword } from '../../../plugins/app/password';
import { schemas } from '../../../../kernel/dialect/schemaRegistry';
import { actorOf, auditedUpdate } from '../../../db/audit';
import { ensureAnotherAdmin } from '../../../../kernel/hooks/accounts';
import { companyAccountDisabled } from '../../../../kernel/hooks/companies';
import { TOKEN_SCHEME } from '../../../plugins/external/swagger';
import { msg } from '../../../../common/messages/index';
import { NO_QUERY } from '../../../../kernel/server/validation';

/** Roles the product knows: the accounts schema's `roles` enum (admin, and the blockchain section's `user`). */
export const KNOWN_ROLES: string[] = schemas.account.properties.roles.items!.enum as string[];

const roleBody = {
  type: 'object',
  properties: {
    id: { type: 'integer', minimum: 1, maximum: 2147483647 },
    role: { type: 'string', enum: KNOWN_ROLES },
  },
  required: ['id', 'role'],
  additionalProperties: false,
};

/** Body of a password change: the current password and the new one (the accounts' password rule). */
export const passwordBody = {
  type: 'object',
  properties: {
    oldPassword: { type: 'string', minLength: 1, maxLength: 256 },
    newPassword: schemas.account.properties.password as Record<string, unknown>,
  },
  required: ['oldPassword', 'newPassword'],
  additionalProperties: false,
};

interface RoleCalls {
  role: string;
  calls: { method: string; path: string; summary: string }[];
}

const loginBody = {
  type: 'object',
  properties: {
    username: { type: 'string', minLength: 1, maxLength: 64 },
    password: { type: 'string', minLength: 1, maxLength: 256 },
  },
  required: ['username', 'password'],
  additionalProperties: false,
};

/** The stored row of the signed-in account `id` (its session was checked, so it exists). */
function ownAccount(db: FastifyInstance['db'], id: number) {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

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
      const account = await signIn(password, () =>
        app.db.selectFrom('accounts').selectAll().where('username', '=', username.trim()).executeTakeFirst(),
      );
      // A company administrator whose company slot is disabled (medicine-api/company/hooks.ts).
      if (await companyAccountDisabled(app.db, account))
        throw apiError(Codes.FORBIDDEN, 403, 'auth.accountDisabled');
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
      const account = await ownAccount(app.db, me.id);
      return ok({
        roles: me.roles,
        availableRoles: JSON.parse(account.roles) as string[],
        name: account.name,
        account: account.username,
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
      const account = await ownAccount(app.db, me.id);
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

/** Registers addAuth, delAuth, password and roles (see the module doc). */
export async function accountRoutes(app: FastifyInstance) {
  const grant = (add: boolean) => async (request: import('fastify').FastifyRequest) => {
    const { id, role } = request.body as { id: number; role: string };
    const repo = app.resources.accounts;
    const current = await repo.getOne(app.db, id); // 404 for an unknown id
    type Role = (typeof current.roles)[number];
    const roles = current.roles;
    const next = add ? [...new Set([...roles, role as Role])] : roles.filter((r) => r !== role);
    // The last admin is named first (the hook checks it again inside the write's transaction).
    if (!add && role === 'admin' && roles.includes('admin'))
      await ensureAnotherAdmin(app.db, app.dialect, [id], 'roles');
    if (!add && !next.length)
      throw new ApiError(Codes.INVALID, 400, msg('request.fields'), {
        errors: [
          {
            field: 'role',
            keyword: 'minItems',
            params: { limit: 1 },
            message: `role: an account keeps at least one role`,
          },
        ],
      });
    return ok(await repo.update(app.db, { id, roles: next }, actorOf(request)));
  };
  const guard = app.requireRoles(['admin']);
  app.post('/addAuth', { onRequest: guard, schema: { body: roleBody } }, grant(true));
  app.post('/delAuth', { onRequest: guard, schema: { body: roleBody } }, grant(false));

  app.post(
    '/password',
    { onRequest: app.requireRoles(), schema: { body: passwordBody } },
    async (request) => {
      const { oldPassword, newPassword } = request.body as { oldPassword: string; newPassword: string };
      const me = request.account!;
      const row = await ownAccount(app.db, me.id);
      if (!(await verifyPassword(oldPassword, row.passwordHash)))
        throw new ApiError(Codes.INVALID, 400, msg('request.fields'), {
          errors: [
            {
              field: 'oldPassword',
              keyword: 'password',
              params: {},
              message: 'oldPassword: the current password is not right',
            },
          ],
        });
      const passwordHash = await hashPassword(newPassword);
      await app.db.transaction().execute((trx) =>
        auditedUpdate(trx, actorOf(request), 'accounts', me.id, async () => {
          await trx.updateTable('accounts').set({ passwordHash }).where('id', '=', me.id).execute();
          // The other sessions end; this one (which proved the current password) stays.
          await trx
            .deleteFrom('tokens')
            .where('accountId', '=', me.id)
            .where('tokenHash', '!=', me.tokenHash)
            .execute();
        }),
      );
      return ok(null, 'password changed');
    },
  );

  let matrix: RoleCalls[] | undefined;
  app.get('/roles', { onRequest: guard, schema: { querystring: NO_QUERY } }, async () => {
    matrix ??= roleMatrix(
      app.swagger() as unknown as {
        paths: Record<string, Record<string, { summary?: string; security?: Record<string, string[]>[] }>>;
      },
    );
    return ok({ roles: matrix });
  });
}

/**
 * Every guarded call each known role opens, from the OpenAPI document's `security` (the roles of each
 * route's `requireRoles` guard, admin always among them; `[]` = any signed-in account). Sorted by path.
 */
export function roleMatrix(doc: {
  paths: Record<string, Record<string, { summary?: string; security?: Record<string, string[]>[] }>>;
}): RoleCalls[] {
  return KNOWN_ROLES.map((role) => {
    const calls: RoleCalls['calls'] = [];
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        const scheme = op.security?.find((s) => s[TOKEN_SCHEME]);
        if (!scheme) continue;
        const roles = scheme[TOKEN_SCHEME];
        if (roles.length === 0 || roles.includes(role))
          calls.push({ method: method.toUpperCase(), path, summary: op.summary ?? '' });
      }
    calls.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
    return { role, calls };
  });
}

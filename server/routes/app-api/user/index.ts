/**
 * `/app-api/user/*`: the sign-in of the platform's users (the registry's mini-program), which the console
 * shows as Platform users (`admin/user/selectPageUser|getUerById`) with their login count and last login.
 *
 * Who signs in: a bid user (schemas/bidUser.schema.json), with its account (the phone number unless given)
 * and password. The product's rule is kept: the initial password is the phone number (stored hashed,
 * kernel/hooks/bidUsers.ts) and must be changed at first login (`mustChangePassword`).
 * The first sign-in registers the bid user on the platform: a platform user with the same account (and
 * uid, nickname, avatar) is created; later sign-ins find it.
 *
 * Sessions: every sign-in is one row of `platform_sessions` (its token's SHA-256, the times, the IP), kept
 * after it ends; in the same transaction the platform user's (and bid user's) `loginCount` grows by one
 * and `lastLoginTime` becomes the session's start, so both always equal the count and the latest start of
 * the user's sessions (tests/api/platform-sessions.test.ts checks it). Tokens are 32 random bytes,
 * valid TOKEN_TTL_HOURS, sent in `X-Token`; they open only these calls, never a console call (and a console
 * token opens none of these: 401, code 2).
 *
 * - POST login `{account, password}` → `{token, mustChangePassword, user}`; a wrong password and an
 *   unknown account answer alike (401) and in the same time (dummy scrypt hash); rate-limited per IP.
 * - GET info → the signed-in platform user; 403 (`auth.mustChangePassword`) while the initial password
 *   is unchanged.
 * - POST password `{oldPassword, newPassword}` → changes it (400 naming `oldPassword` when wrong,
 *   `newPassword` when short or equal to the current one), clears `mustChangePassword`, ends the user's
 *   other sessions and keeps this one.
 * - POST logout → ends this session.
 *
 * Audit (issue 32, "One door"): the platform user's registration at its first sign-in (resource
 * `platformUsers`) and a password change (resource `bidUsers`, the row holding the password hash) each
 * add their audit row in the write's transaction, the actor being the platform user itself: no console
 * account id, its account name as the audit `account` ({@link platformActor}). Sessions and the login
 * counts are not audited (as the console's sign-ins).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Codes } from '../../../../common/envelope';
import { nowText } from '../../../db/database';
import { actorOf, ensureBaseRevision, recordAudit, storedRow, type WriteActor } from '../../../db/audit';
import { stateColumnsOf } from '../../../../kernel/server/records';
import { tokenHash } from '../../../plugins/app/auth';
import { ok } from '../../../plugins/app/envelope';
import { apiError, invalidField } from '../../../errors';
import { dummyPasswordHash, hashPassword, signIn, verifyPassword } from '../../../plugins/app/password';
import { PLATFORM_TOKEN_SCHEME } from '../../../plugins/external/swagger';
// The console accounts' password-change body (8 to 256 characters, schemas/account.schema.json).
import { passwordBody } from '../../dev-api/user/index';
import { NO_QUERY } from '../../../../kernel/server/validation';

const loginBody = {
  type: 'object',
  properties: {
    account: { type: 'string', minLength: 1, maxLength: 64 },
    password: { type: 'string', minLength: 1, maxLength: 256 },
  },
  required: ['account', 'password'],
  additionalProperties: false,
};

/** The route schema's `security`: the platform user's token (server/plugins/external/swagger.ts). */
const security = [{ [PLATFORM_TOKEN_SCHEME]: [] }];

/** The signed-in platform user of a request. */
interface PlatformSession {
  tokenHash: string;
  platformUserId: number;
  bidUserId: number | null;
}

/** What the calls answer of a platform user (the columns of its schema). */
const USER_COLUMNS = [
  'id',
  'uid',
  'account',
  'nickname',
  'avatar',
  'registerTime',
  'loginCount',
  'lastLoginTime',
] as const;

/**
 * The audit actor of a platform user's own call: the request's call and client id, no console account
 * id, the platform user's `account` (server/db/audit.ts WriteActor).
 */
function platformActor(request: FastifyRequest, account: string): WriteActor {
  return { ...actorOf(request), accountId: null, account };
}

/** The session each guarded request was signed in with (set by the onRequest hook `signedIn`). */
const sessions = new WeakMap<FastifyRequest, PlatformSession>();

export default async function platformUserRoutes(app: FastifyInstance) {
  await dummyPasswordHash();

  /** The session of the request's `X-Token`: 401 (code 401) without one, 401 (code 2) when not valid. */
  async function sessionOf(request: FastifyRequest): Promise<PlatformSession> {
    const token = request.headers['x-token'];
    if (typeof token !== 'string' || !token) throw apiError(Codes.UNAUTHENTICATED, 401, 'auth.notSignedIn');
    const row = await app.db
      .selectFrom('platform_sessions')
      .select(['tokenHash', 'platformUserId', 'bidUserId', 'expireTime', 'revokeTime'])
      .where('tokenHash', '=', tokenHash(token))
      .executeTakeFirst();
    if (!row || row.revokeTime || row.expireTime <= nowText())
      throw apiError(Codes.TOKEN_INVALID, 401, 'auth.tokenInvalid');
    return row;
  }

  /** onRequest: the caller is signed in (before anything about the input is said), as `requireRoles`. */
  const signedIn = async (request: FastifyRequest) => {
    sessions.set(request, await sessionOf(request));
  };
  const session = (request: FastifyRequest) => sessions.get(request)!;

  const mustChange = async (s: PlatformSession) =>
    s.bidUserId !== null &&
    (
      await app.db
        .selectFrom('bid_users')
        .select('mustChangePassword')
        .where('id', '=', s.bidUserId)
        .executeTakeFirst()
    )?.mustChangePassword === 1;

  const userOf = (id: number) =>
    app.db.selectFrom('platform_users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirstOrThrow();

  app.post(
    '/login',
    {
      schema: { body: loginBody, summary: "Platform user's sign-in (the mini-program)" },
      config: { rateLimit: { max: app.config.loginRateLimit, timeWindow: '1 minute' } },
    },
    async (request) => {
      const { account, password } = request.body as { account: string; password: string };
      const bid = await signIn(password, () =>
        app.db.selectFrom('bid_users').selectAll().where('account', '=', account.trim()).executeTakeFirst(),
      );
      const token = randomBytes(32).toString('base64url');
      const now = new Date();
      const start = nowText(now);
      const platformUserId = await app.db.transaction().execute(async (trx) => {
        // The first sign-in registers the bid user on the platform.
        const registered = await trx
          .insertInto('platform_users')
          .values({
            uid: bid.uid,
            account: bid.account,
            nickname: bid.nickname,
            avatar: bid.avatar,
            registerTime: start,
            chainId: bid.chainId,
          })
          .onConflict((oc) => oc.column('account').doNothing())
          .executeTakeFirst();
        const { id } = await trx
          .selectFrom('platform_users')
          .select('id')
          .where('account', '=', bid.account)
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('platform_sessions')
          .values({
            tokenHash: tokenHash(token),
            platformUserId: id,
            bidUserId: bid.id,
            createTime: start,
            expireTime: nowText(new Date(now.getTime() + app.config.tokenTtlHours * 3600_000)),
            revokeTime: null,
            ip: request.ip,
          })
          .execute();
        // One session, one more login (the row lock orders concurrent sign-ins of the same user).
        await trx
          .updateTable('platform_users')
          .set((eb) => ({ loginCount: eb('loginCount', '+', 1), lastLoginTime: start }))
          .where('id', '=', id)
          .execute();
        await trx
          .updateTable('bid_users')
          .set((eb) => ({ loginCount: eb('loginCount', '+', 1), lastLoginTime: start }))
          .where('id', '=', bid.id)
          .execute();
        // The registration's audit row, with the row as this transaction leaves it.
        if (Number(registered.numInsertedOrUpdatedRows ?? 0) > 0)
          await recordAudit(trx, platformActor(request, bid.account), {
            resource: 'platformUsers',
            recordId: id,
            after: await storedRow(trx, 'platform_users', id),
            stateColumns: stateColumnsOf(app.resources.platformUsers.model),
          });
        return id;
      });
      return ok({
        token,
        mustChangePassword: bid.mustChangePassword,
        user: await userOf(platformUserId),
      });
    },
  );

  app.get(
    '/info',
    {
      onRequest: signedIn,
      schema: { security, summary: 'The signed-in platform user', querystring: NO_QUERY },
    },
    async (request) => {
      const me = session(request);
      if (await mustChange(me)) throw apiError(Codes.FORBIDDEN, 403, 'auth.mustChangePassword');
      return ok(await userOf(me.platformUserId));
    },
  );

  app.post(
    '/password',
    {
      onRequest: signedIn,
      schema: { body: passwordBody, security, summary: "The platform user's own password" },
    },
    async (request) => {
      const me = session(request);
      const { oldPassword, newPassword } = request.body as { oldPassword: string; newPassword: string };
      const bid =
        me.bidUserId === null
          ? undefined
          : await app.db
              .selectFrom('bid_users')
              .select(['id', 'account', 'passwordHash'])
              .where('id', '=', me.bidUserId)
              .executeTakeFirst();
      if (!bid?.passwordHash || !(await verifyPassword(oldPassword, bid.passwordHash)))
        throw invalidField('oldPassword', 'password', 'the current password is not right');
      if (newPassword === oldPassword)
        throw invalidField('newPassword', 'samePassword', 'must differ from the current password');
      const passwordHash = await hashPassword(newPassword);
      await app.db.transaction().execute(async (trx) => {
        const stateColumns = stateColumnsOf(app.resources.bidUsers.model);
        const before = await storedRow(trx, 'bid_users', bid.id);
        await ensureBaseRevision(trx, 'bidUsers', bid.id, before, stateColumns);
        await trx
          .updateTable('bid_users')
          .set({ passwordHash, mustChangePassword: 0 })
          .where('id', '=', bid.id)
          .execute();
        await recordAudit(trx, platformActor(request, bid.account), {
          resource: 'bidUsers',
          recordId: bid.id,
          before,
          after: await storedRow(trx, 'bid_users', bid.id),
          stateColumns,
        });
        // The other sessions end; this one (which proved the current password) stays.
        await trx
          .updateTable('platform_sessions')
          .set({ revokeTime: nowText() })
          .where('bidUserId', '=', bid.id)
          .where('tokenHash', '!=', me.tokenHash)
          .where('revokeTime', 'is', null)
          .execute();
      });
      return ok(null, 'password changed');
    },
  );

  app.post(
    '/logout',
    { onRequest: signedIn, schema: { security, summary: "Ends the platform user's session" } },
    async (request) => {
      await app.db
        .updateTable('platform_sessions')
        .set({ revokeTime: nowText() })
        .where('tokenHash', '=', session(request).tokenHash)
        .execute();
      return ok(null);
    },
  );
}

/**
 * Authentication and roles.
 * - Tokens: 32 random bytes (256 bits) as base64url, handed to the client once; only their SHA-256 is
 *   stored (`tokens` table) with the roles they carry, an expiry (TOKEN_TTL_HOURS) and a revoke time;
 *   expired rows are deleted whenever a new token is issued.
 * - The token travels in the `X-Token` header (`token` query parameter accepted for `/dev-api/user/info`
 *   only, as the product calls it). No token → 401 / code 401. Unknown, expired or revoked token → 401 / code 2.
 * - `app.requireRoles(roles)` is an onRequest hook (it runs before the body is parsed and validated, so a
 *   caller without the right is refused before anything about the input is said): the token must carry `admin` or one of `roles` (an empty
 *   list means any signed-in account), else 403 / code 403. The server enforces this for every call;
 *   hiding a menu item in the console is never the security.
 * - `ensureAccounts` creates `admin` (roles ["admin"]) and `user` (roles ["user"]) on first start.
 */
import fp from 'fastify-plugin';
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import { compiledSql, readQuery, sqliteHandle } from '../../db/connect';
import { changeFeed } from '../../db/pgChanges';
import { Codes } from '../../../common/envelope';
import { nowText, type Account, type Database, type TokenTable } from '../../db/database';
import { apiError } from '../../errors';
import { generatePassword, hashPassword, verifyPassword } from './password';
import { TokenCache } from './tokenCache';
import { ConfigError } from '../../configError';
import { recordAudit, storedRow } from '../../db/audit';

/** The signed-in account of a request, with the roles its token carries. */
export interface RequestAccount {
  id: number;
  account: string;
  name: string;
  roles: string[];
  tokenHash: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    requireRoles(roles?: string[]): RoleGuard;
    issueToken(accountId: number, roles: string[]): Promise<string>;
  }
  interface FastifyRequest {
    account: RequestAccount | null;
  }
}

/**
 * Key under which a `requireRoles` hook carries the roles it admits (`[]`: any signed-in account), so
 * that the route list can say which calls need which role (server/plugins/external/swagger.ts reads it).
 */
export const REQUIRED_ROLES = Symbol.for('baas-admin.requiredRoles');

/** An onRequest hook made by `app.requireRoles`, marked with the roles it admits. */
export type RoleGuard = onRequestAsyncHookHandler & { [REQUIRED_ROLES]: string[] };

/** SHA-256 hex of a token: the form stored in the `tokens` table. */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** The one call that may carry the token in its query (`?token=`, as the product calls it). */
const TOKEN_IN_QUERY_ROUTE = '/dev-api/user/info';

/**
 * The token a request carries: the `X-Token` header; for `GET /dev-api/user/info` only, also the `token`
 * query parameter (elsewhere a token in a URL would end up in logs, history and Referer headers).
 */
export function requestToken(request: FastifyRequest): string | undefined {
  const header = request.headers['x-token'];
  if (typeof header === 'string' && header) return header;
  if (request.routeOptions.url !== TOKEN_IN_QUERY_ROUTE) return undefined;
  const q = (request.query as Record<string, unknown> | undefined)?.token;
  return typeof q === 'string' && q ? q : undefined;
}

/** The token cache of each database (tokenCache.ts); none on a PostgreSQL database without a change feed. */
const tokenCaches = new WeakMap<Kysely<Database>, TokenCache<RequestAccount> | null>();

function tokenCacheOf(db: Kysely<Database>): TokenCache<RequestAccount> | null {
  let cache = tokenCaches.get(db);
  if (cache === undefined) {
    const source = sqliteHandle(db) ?? changeFeed(db);
    tokenCaches.set(db, (cache = source ? new TokenCache<RequestAccount>(source) : null));
  }
  return cache;
}

/**
 * Resolves a token to its account, or throws code 2 (unknown, expired or revoked). An accepted token is
 * kept in tokenCache.ts's cache, which every change to tokens or accounts empties at once (on PostgreSQL,
 * every change of the database). The
 * account returned is frozen: requests share it.
 */
export async function accountForToken(db: Kysely<Database>, token: string): Promise<RequestAccount> {
  const cache = tokenCacheOf(db);
  const cached = cache?.get(token);
  if (cached) return cached;
  const generation = cache?.generation ?? 0;
  const hash = tokenHash(token);
  // The lookup's SQL, compiled once per dialect (Kysely would rebuild it on every request).
  const text = compiledSql(db, 'tokens:lookup', () =>
    db
      .selectFrom('tokens')
      .innerJoin('accounts', 'accounts.id', 'tokens.accountId')
      .select([
        'accounts.id',
        'accounts.username as account',
        'accounts.name',
        'tokens.roles',
        'tokens.expireTime',
        'tokens.revokeTime',
      ])
      .where('tokens.tokenHash', '=', '')
      .compile(),
  );
  // readQuery: on SQLite a prepared statement run at once (no Kysely round), issue 10's detail profile.
  const [row] = await readQuery<
    Pick<Account, 'id' | 'name'> & { account: string } & Pick<
        TokenTable,
        'roles' | 'expireTime' | 'revokeTime'
      >
  >(db, text, [hash]);
  if (!row || row.revokeTime || row.expireTime <= nowText())
    throw apiError(Codes.TOKEN_INVALID, 401, 'auth.tokenInvalid');
  const account: RequestAccount = Object.freeze({
    id: row.id,
    account: row.account,
    name: row.name,
    roles: Object.freeze(JSON.parse(row.roles)),
    tokenHash: hash,
  });
  cache?.set(token, account, row.expireTime, generation);
  return account;
}

/** The password rule of schemas/account.schema.json (`password`: 8 to 256 characters). */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

/**
 * First-start bootstrap (issue 32, "bootstrap once"): creates the `admin` and `user` accounts when they
 * are missing, with the password from the environment (`ADMIN_PASSWORD`, `USER_PASSWORD`) or a generated
 * one printed once through `print`, each with an audit row whose actor is `system`. An existing account
 * is never changed: a set variable whose password no longer matches is reported in one line through
 * `print` (reset it with `npm run admin -- reset-password <user>`, which is audited). A password outside
 * the account schema's rule (8 to 256 characters) is refused.
 * @throws ConfigError naming the variable when its password breaks the rule
 */
export async function ensureAccounts(
  db: Kysely<Database>,
  passwords: { admin?: string; user?: string },
  print: (line: string) => void,
): Promise<void> {
  const wanted = [
    { account: 'admin', name: 'Administrator', roles: ['admin'], password: passwords.admin },
    { account: 'user', name: 'Operator', roles: ['user'], password: passwords.user },
  ];
  for (const w of wanted) {
    const variable = `${w.account.toUpperCase()}_PASSWORD`;
    if (w.password !== undefined && (w.password.length < PASSWORD_MIN || w.password.length > PASSWORD_MAX))
      throw new ConfigError(
        `${variable}: ${PASSWORD_MIN} to ${PASSWORD_MAX} characters (schemas/account.schema.json, password), got ${w.password.length}`,
      );
    const existing = await db
      .selectFrom('accounts')
      .select(['id', 'passwordHash'])
      .where('username', '=', w.account)
      .executeTakeFirst();
    if (existing) {
      if (w.password && !(await verifyPassword(w.password, existing.passwordHash)))
        print(
          `${variable} is set, but the account "${w.account}" exists: its password is not changed at start (npm run admin -- reset-password ${w.account})`,
        );
      continue;
    }
    const password = w.password ?? generatePassword();
    await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('accounts')
        .values({
          username: w.account,
          name: w.name,
          passwordHash: await hashPassword(password),
          roles: JSON.stringify(w.roles),
          avatar: null,
          introduction: w.roles.includes('admin')
            ? 'Administrator of the registry'
            : 'Operator of the blockchain section',
          createTime: nowText(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordAudit(
        trx,
        {
          accountId: null,
          account: 'system',
          call: `first start: account ${w.account}${w.password ? ` from ${variable}` : ', generated password'}`,
        },
        { resource: 'accounts', recordId: row.id, after: await storedRow(trx, 'accounts', row.id) },
      );
    });
    if (!w.password)
      print(
        `Generated password for "${w.account}": ${password}   (shown once; set ${variable} to choose it)`,
      );
  }
}

export default fp(async function auth(app: FastifyInstance) {
  app.decorateRequest('account', null);

  app.decorate('issueToken', async (accountId: number, roles: string[]) => {
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    await app.db
      .insertInto('tokens')
      .values({
        tokenHash: tokenHash(token),
        accountId,
        roles: JSON.stringify(roles),
        createTime: nowText(now),
        expireTime: nowText(new Date(now.getTime() + app.config.tokenTtlHours * 3600_000)),
        revokeTime: null,
      })
      .execute();
    // Tokens past their expiry can never be accepted again: drop them, so the table stays small.
    await app.db.deleteFrom('tokens').where('expireTime', '<', nowText(now)).execute();
    return token;
  });

  app.decorate('requireRoles', (roles: string[] = []) => {
    const handler: onRequestAsyncHookHandler = async (request) => {
      const token = requestToken(request);
      if (!token) throw apiError(Codes.UNAUTHENTICATED, 401, 'auth.notSignedIn');
      const account = await accountForToken(app.db, token);
      request.account = account;
      if (roles.length && !account.roles.includes('admin') && !roles.some((r) => account.roles.includes(r)))
        throw apiError(Codes.FORBIDDEN, 403, 'auth.roleRequired', {
          roles: { en: roles.join(' or '), zh: roles.join(' 或 ') },
        });
    };
    return Object.assign(handler, { [REQUIRED_ROLES]: [...roles] });
  });
});

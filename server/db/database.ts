/**
 * The typed Kysely `Database`: one `XxxTable` interface per table, as created by the migrations in
 * `migrations/` (the resource tables' interfaces are generated from the schemas, see below). Times are text `YYYY-MM-DD HH:mm:ss` (UTC); flags are integers 0/1; JSON columns hold
 * text (parse with `parseJson`). Nullable columns are `T | null`; generated ids are `Generated<number>`.
 */
import type { Selectable } from 'kysely';
import type { ResourceTables } from './generated/tables';

export interface TokenTable {
  /** SHA-256 (hex) of the bearer token; the token itself is never stored. */
  tokenHash: string;
  accountId: number;
  /** JSON array: the roles this token carries (all the account's roles, or one after switchRole). */
  roles: string;
  createTime: string;
  expireTime: string;
  revokeTime: string | null;
}

/**
 * A platform user's sign-in (`POST /app-api/user/login`; migration 20261123T0350_platform_sessions): kept
 * after it ends, as the login history `loginCount` and `lastLoginTime` are read from.
 */
export interface PlatformSessionTable {
  /** SHA-256 (hex) of the bearer token; the token itself is never stored. */
  tokenHash: string;
  platformUserId: number;
  /** The bid user whose password signed in, when it is one. */
  bidUserId: number | null;
  createTime: string;
  expireTime: string;
  revokeTime: string | null;
  ip: string | null;
}

/**
 * The database: the tokens and platform sessions tables above, and the resource tables (accounts among them) generated from the schemas'
 * storage model (server/db/generated/tables.ts, `npm run codegen`).
 */
/**
 * One recipient's reading of a notification (`POST /medicine-api/message/read`; migration
 * 20261123T0540_notification_reads): each recipient has its own read state.
 */
export interface NotificationReadTable {
  notificationId: number;
  /** The reader's username, as stored in `accounts`. */
  account: string;
  readTime: string;
}

export interface Database extends ResourceTables {
  tokens: TokenTable;
  platform_sessions: PlatformSessionTable;
  notification_reads: NotificationReadTable;
}

/** A stored console account (table `accounts`, generated from schemas/account.schema.json). */
export type Account = Selectable<ResourceTables['accounts']>;

/** Parses a JSON column, answering `fallback` for null or empty text. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  return JSON.parse(text) as T;
}

/** Now as `YYYY-MM-DD HH:mm:ss` in UTC, the project's stored time format. */
export function nowText(date = new Date()): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

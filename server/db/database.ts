/**
 * The typed Kysely `Database`: one `XxxTable` interface per table, as created by the migrations in
 * `migrations/`. Times are text `YYYY-MM-DD HH:mm:ss` (UTC); flags are integers 0/1; JSON columns hold
 * text (parse with `parseJson`). Nullable columns are `T | null`; generated ids are `Generated<number>`.
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** A JSON text column with a database default ('{}' or '[]'): optional on insert. */
type JsonText = ColumnType<string, string | undefined, string>;

export interface AccountTable {
  id: Generated<number>;
  account: string;
  name: string;
  /** scrypt hash, `scrypt$N$r$p$saltB64$hashB64` (server/plugins/app/password.ts). */
  passwordHash: string;
  /** JSON array of role names, e.g. ["admin"]. */
  roles: string;
  avatar: string | null;
  introduction: string | null;
  createTime: string;
}

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

export interface AuthorTable {
  id: Generated<number>;
  authorName: string;
  introduction: string | null;
  portrait: string | null;
  isBlock: Generated<number>;
  /** Transaction id of the latest put-on-chain. */
  chain: string | null;
  /** SHA-256 (hex) of the record's canonical JSON when last put on chain. */
  chainDigest: string | null;
  chainVersion: Generated<number>;
  blockTime: string | null;
  createTime: string;
  updateTime: string;
  wxIsEnable: Generated<number>;
  wxCode: string | null;
  wxUrl: string | null;
  wxCreateTime: string | null;
  /** Tate artist id when imported from Tate. */
  sourceId: number | null;
}

export interface ArtworkTable {
  id: Generated<number>;
  artWorkName: string;
  author: number;
  possessor: string | null;
  classify: string;
  texture: string;
  bid: number | null;
  status: Generated<number>;
  isBlock: Generated<number>;
  chain: string | null;
  chainDigest: string | null;
  chainVersion: Generated<number>;
  blockTime: string | null;
  createTime: string;
  updateTime: string;
  /** JSON array of image URLs (at most 9; the first is the main picture). */
  images: JsonText;
  baseInfo: JsonText;
  dealInfo: JsonText;
  securityInfo: JsonText;
  certificateInfo: JsonText;
  traceability: JsonText;
  ownership: JsonText;
  authenticity: JsonText;
  /** Tate accession number (acno) when imported from Tate. */
  sourceId: string | null;
  /** SHA-256 (hex) of the source row's canonical JSON, to tell a re-import from a conflicting row. */
  sourceDigest: string | null;
}

export interface ArtCategoryTable {
  id: Generated<number>;
  name: string;
}

export interface AppUserTable {
  id: Generated<number>;
  uid: string;
  account: string;
  nickname: string | null;
  avatar: string | null;
  registerTime: string;
  chainId: string | null;
  bidNumber: Generated<number>;
  loginCount: Generated<number>;
  lastLoginTime: string | null;
}

/** A pharmaceutical company of the Medicine section (schemas/company.schema.json). */
export interface CompanyTable {
  id: Generated<number>;
  companyName: string;
  /** Unified Social Credit Code (GB 32100-2015), unique. */
  creditCode: string;
  licenseNo: string;
  address: string | null;
  contactName: string | null;
  contactPhone: string | null;
  adminAccount: string;
  backupAdminAccount: string;
  /** 0 disabled, 1 enabled. */
  status: Generated<number>;
  createTime: string;
  updateTime: string;
}

export interface Database {
  accounts: AccountTable;
  tokens: TokenTable;
  authors: AuthorTable;
  artworks: ArtworkTable;
  art_categories: ArtCategoryTable;
  bid_users: AppUserTable;
  platform_users: AppUserTable;
  companies: CompanyTable;
}

export type Author = Selectable<AuthorTable>;
export type NewAuthor = Insertable<AuthorTable>;
export type AuthorUpdate = Updateable<AuthorTable>;
export type ArtworkRow = Selectable<ArtworkTable>;
export type NewArtwork = Insertable<ArtworkTable>;
export type ArtworkUpdate = Updateable<ArtworkTable>;
export type Account = Selectable<AccountTable>;
export type CompanyRow = Selectable<CompanyTable>;

/** The artwork columns that hold JSON text. */
export const ARTWORK_JSON_COLUMNS = [
  'images',
  'baseInfo',
  'dealInfo',
  'securityInfo',
  'certificateInfo',
  'traceability',
  'ownership',
  'authenticity',
] as const;

/** Parses a JSON column, answering `fallback` for null or empty text. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  return JSON.parse(text) as T;
}

/** Now as `YYYY-MM-DD HH:mm:ss` in UTC, the project's stored time format. */
export function nowText(date = new Date()): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

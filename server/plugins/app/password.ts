/**
 * Password hashing with scrypt (node:crypto; RFC 7914). Stored form:
 * `scrypt$<N>$<r>$<p>$<salt base64>$<hash base64>`, 16-byte random salt, 64-byte key, N=16384 (or
 * `SCRYPT_COST`, see `scryptCost`), r=8, p=1. Each hash keeps its own N, so a hash of any cost verifies.
 * Verification is constant-time (timingSafeEqual).
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { Codes } from '../../../common/envelope';
import { ConfigError } from '../../configError';
import { apiError } from '../../errors';

/** scrypt's cost N of new hashes when `SCRYPT_COST` is unset. */
export const DEFAULT_SCRYPT_COST = 16384;
/** The highest `SCRYPT_COST`: 2^17, OWASP's recommendation for scrypt with r=8 (128 MiB a hash). */
const MAX_COST = 131072;
/** The lowest `SCRYPT_COST` of a test run (`NODE_ENV=test`). */
const MIN_TEST_COST = 1024;

/**
 * scrypt's cost N of the hashes this process makes: `SCRYPT_COST` from `env`, else 16384. A power of two
 * from 16384 to 131072; from 1024 only in a test run (`NODE_ENV=test`, which vitest sets), so that the
 * test suite's thousands of account creations and logins do not each spend 39 ms of CPU (Django's
 * documentation has tests use a faster password hasher, "Speeding up the tests"). Outside a test run a
 * cost below 16384 is refused, never used.
 * @throws ConfigError naming SCRYPT_COST and the allowed values for any other value
 */
export function scryptCost(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SCRYPT_COST;
  if (raw === undefined || raw === '') return DEFAULT_SCRYPT_COST;
  const n = Number(raw);
  const min = env.NODE_ENV === 'test' ? MIN_TEST_COST : DEFAULT_SCRYPT_COST;
  if (!/^\d+$/.test(raw) || n < min || n > MAX_COST || (n & (n - 1)) !== 0)
    throw new ConfigError(
      `SCRYPT_COST must be a power of two from ${min} to ${MAX_COST}${min > MIN_TEST_COST ? ` (from ${MIN_TEST_COST} only when NODE_ENV=test)` : ''}, got "${raw}"`,
    );
  return n;
}

const R = 8;
const P = 1;
const KEYLEN = 64;

function derive(password: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEYLEN, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Hashes `password` into the stored form above, with cost `scryptCost()`. @throws ConfigError (scryptCost) */
export async function hashPassword(password: string): Promise<string> {
  const N = scryptCost();
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N, r: R, p: P, maxmem: 256 * N * R });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** True when `password` matches `stored`; false for a malformed stored value. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64');
  const expected = Buffer.from(parts[5], 'base64');
  const key = await derive(password, salt, { N: n, r, p, maxmem: 256 * n * r });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let dummy: Promise<string> | undefined;

/**
 * The hash of a random password nobody knows, made once per process with the same scrypt parameters as
 * stored hashes. The login verifies an unknown account's password against it, so that an unknown account
 * costs the same scrypt run as a wrong password and answer times do not tell which accounts exist.
 */
export function dummyPasswordHash(): Promise<string> {
  return (dummy ??= hashPassword(randomBytes(18).toString('base64url')));
}

/**
 * The sign-in check of both logins (console accounts, platform users): reads the account with `find`,
 * then verifies `password` against its stored hash, running scrypt once even for an unknown account or
 * one without a password (`dummyPasswordHash`), so answer times do not tell which accounts exist.
 * @returns the account @throws ApiError 401 `auth.badCredentials` for an unknown account or a wrong password
 */
export async function signIn<T extends { passwordHash: string | null }>(
  password: string,
  find: () => Promise<T | undefined>,
): Promise<T> {
  const account = await find();
  const matches = await verifyPassword(password, account?.passwordHash ?? (await dummyPasswordHash()));
  if (!account || !account.passwordHash || !matches)
    throw apiError(Codes.UNAUTHENTICATED, 401, 'auth.badCredentials');
  return account;
}

/** A random password for a first start: 18 characters of base64url (108 bits). */
export function generatePassword(): string {
  return randomBytes(14).toString('base64url').slice(0, 18);
}

/**
 * Password hashing with scrypt (node:crypto; RFC 7914). Stored form:
 * `scrypt$<N>$<r>$<p>$<salt base64>$<hash base64>`, 16-byte random salt, 64-byte key, N=16384, r=8, p=1.
 * Verification is constant-time (timingSafeEqual).
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { Codes } from '../../../common/envelope';
import { apiError } from '../../errors';

const N = 16384;
const R = 8;
const P = 1;
const KEYLEN = 64;

function derive(password: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEYLEN, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Hashes `password` into the stored form above. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N, r: R, p: P });
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

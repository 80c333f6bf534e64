/**
 * scrypt's cost of new password hashes (password.ts `scryptCost`, `SCRYPT_COST`): the default, the values a
 * test run may lower it to and production may not, and that a hash of one cost verifies under another.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCRYPT_COST, hashPassword, scryptCost, verifyPassword } from './password';

describe('scryptCost (SCRYPT_COST)', () => {
  it('is 16384 when unset or empty, in any mode', () => {
    expect(DEFAULT_SCRYPT_COST).toBe(16384);
    expect(scryptCost({})).toBe(16384);
    expect(scryptCost({ SCRYPT_COST: '', NODE_ENV: 'production' })).toBe(16384);
  });

  it('takes a power of two from 16384 to 131072 anywhere', () => {
    for (const n of [16384, 32768, 65536, 131072]) {
      expect(scryptCost({ SCRYPT_COST: String(n), NODE_ENV: 'production' })).toBe(n);
      expect(scryptCost({ SCRYPT_COST: String(n) })).toBe(n);
    }
  });

  it('takes 1024 to 8192 only in a test run, and refuses them otherwise, naming the variable', () => {
    expect(scryptCost({ SCRYPT_COST: '1024', NODE_ENV: 'test' })).toBe(1024);
    expect(scryptCost({ SCRYPT_COST: '8192', NODE_ENV: 'test' })).toBe(8192);
    for (const mode of [undefined, 'production', 'development'])
      expect(() => scryptCost({ SCRYPT_COST: '1024', NODE_ENV: mode })).toThrow(
        /SCRYPT_COST must be a power of two from 16384 to 131072 \(from 1024 only when NODE_ENV=test\), got "1024"/,
      );
  });

  it('refuses what is not a power of two in range, in a test run too', () => {
    for (const raw of ['512', '262144', '20000', '0x4000', '16384.0', '-16384', 'fast', ' 16384'])
      expect(() => scryptCost({ SCRYPT_COST: raw, NODE_ENV: 'test' }), raw).toThrow(/^SCRYPT_COST must be/);
  });
});

describe('hashPassword and verifyPassword across costs', () => {
  it('stores the cost in the hash, and a hash verifies whatever the current cost', async () => {
    const before = process.env.SCRYPT_COST;
    try {
      process.env.SCRYPT_COST = '2048';
      const cheap = await hashPassword('correct horse');
      expect(cheap).toMatch(/^scrypt\$2048\$8\$1\$/);
      delete process.env.SCRYPT_COST;
      const usual = await hashPassword('correct horse');
      expect(usual).toMatch(/^scrypt\$16384\$8\$1\$/);
      expect(await verifyPassword('correct horse', cheap)).toBe(true);
      expect(await verifyPassword('correct horse', usual)).toBe(true);
      expect(await verifyPassword('wrong horse', cheap)).toBe(false);
    } finally {
      if (before === undefined) delete process.env.SCRYPT_COST;
      else process.env.SCRYPT_COST = before;
    }
  });
});

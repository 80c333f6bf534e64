/**
 * Makes a console session really expire, as TOKEN_TTL_HOURS would: the token's row in the test server's
 * SQLite file (`<dataDir>/baas.sqlite`, tests/browser/helpers/env.ts) gets an expiry in the past. The
 * server sees the change at once (its token cache watches `PRAGMA data_version`,
 * server/plugins/app/tokenCache.ts) and answers the token's next call with 401 / code 2.
 * @throws when no row has that token (`tokens.tokenHash` is the token's SHA-256 hex)
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export function expireToken(dataDir: string, token: string): void {
  const db = new Database(join(dataDir, 'baas.sqlite'));
  try {
    const hash = createHash('sha256').update(token).digest('hex');
    const out = db
      .prepare("UPDATE tokens SET expireTime = '2000-01-01 00:00:00' WHERE tokenHash = ?")
      .run(hash);
    if (out.changes !== 1) throw new Error(`expireToken: no token row for ${hash}`);
  } finally {
    db.close();
  }
}

/**
 * tokenCache.ts on a real SQLite file: what empties the cache (a change to tokens or accounts through this
 * connection, any commit by another connection, the token's expiry) and what is never kept (a lookup the
 * cache was emptied during, a lookup made inside a transaction).
 */
import SQLite from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TokenCache } from './tokenCache';

let dir: string;
let db: SQLite.Database;
let cache: TokenCache<{ id: number }>;
const FAR = '2999-01-01 00:00:00';

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'token-cache-'));
  db = new SQLite(join(dir, 'baas.sqlite'));
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE accounts (id integer primary key, username text);
    CREATE TABLE tokens (tokenHash text primary key, accountId integer, revokeTime text);
    CREATE TABLE other (x integer);
    INSERT INTO accounts VALUES (1, 'admin'); INSERT INTO tokens VALUES ('h', 1, null);`);
  cache = new TokenCache(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const keep = (token = 't', expire = FAR) => cache.set(token, { id: 1 }, expire, cache.generation);

describe('TokenCache', () => {
  it('answers a kept token until something changes', () => {
    expect(cache.get('t')).toBeUndefined();
    keep();
    expect(cache.get('t')).toEqual({ id: 1 });
    db.exec('INSERT INTO other VALUES (1)'); // this connection, another table: nothing a lookup reads
    expect(cache.get('t')).toEqual({ id: 1 });
  });

  it.each([
    ['a token revoked', "UPDATE tokens SET revokeTime = '2026-01-01 00:00:00'"],
    ['a token deleted', 'DELETE FROM tokens'],
    ['an account changed', "UPDATE accounts SET username = 'root'"],
    ['an account deleted', 'DELETE FROM accounts'],
  ])('forgets every token when this connection writes %s', (_what, sql) => {
    keep();
    db.exec(sql);
    expect(cache.get('t')).toBeUndefined();
  });

  it('forgets every token when another connection commits anything', () => {
    keep();
    const other = new SQLite(join(dir, 'baas.sqlite'));
    other.exec('INSERT INTO other VALUES (2)');
    other.close();
    expect(cache.get('t')).toBeUndefined();
  });

  it('forgets a token at its expiry', () => {
    const soon = new Date(Date.now() + 1500).toISOString().slice(0, 19).replace('T', ' ');
    keep('t', soon);
    expect(cache.get('t')).toEqual({ id: 1 });
    const past = new Date(Date.now() - 1000).toISOString().slice(0, 19).replace('T', ' ');
    keep('u', past);
    expect(cache.get('u')).toBeUndefined();
  });

  it('does not keep a lookup the cache was emptied during, nor one made inside a transaction', () => {
    const generation = cache.generation;
    db.exec("UPDATE tokens SET revokeTime = '2026-01-01 00:00:00'"); // while the lookup awaited
    cache.set('t', { id: 1 }, FAR, generation);
    expect(cache.get('t')).toBeUndefined();

    db.exec('BEGIN');
    keep();
    db.exec('COMMIT');
    expect(cache.get('t')).toBeUndefined();
  });

  it('leaves nothing in the database file: the triggers are TEMP, the other connections never see them', () => {
    const other = new SQLite(join(dir, 'baas.sqlite'));
    expect(other.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'").pluck().get()).toBe(0);
    // A write from a connection without the cache's SQL function works.
    other.exec("UPDATE tokens SET revokeTime = '2026-01-01 00:00:00'");
    other.close();
  });
});

/**
 * The signer's state in backups (server/ops/backup.ts, server/ops/signedState.ts), through the scripts
 * an operator runs: `npm run backup` copies `<LEDGER_KEY_DIR>/ledger-signed-checkpoints.json` (never the
 * key) and the log origins into the backup; `npm run restore` merges it into the key dir, per origin the
 * larger size (a restore never lowers what the key dir remembers), atomically (mode 0600). Refused, one
 * line, exit status 1 and nothing written: a truncated backup (a file missing or shorter than the
 * manifest says, a manifest that is not JSON) and a backup of another log (the key dir's state or
 * LEDGER_ORIGIN names another origin). SQLite and PostgreSQL (there the database itself is backed up
 * with pg_dump: the backup holds the state and the origins of the database's `ledger_log`).
 */
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_CHANNEL } from '../../server/ledger/records';
import type { SignedState } from '../../server/ops/signedState';
import { createTestApp, type TestApp } from './helpers';
import { commandArgs, ROOT, type BuiltCommand } from '../support/serverProcess';

const run = promisify(execFile);
const STATE = 'ledger-signed-checkpoints.json';
const work = mkdtempSync(join(tmpdir(), 'baas-backup-state-'));
const keyDir = join(work, 'keys');
const backupDir = join(work, 'backup');
let t: TestApp;
let origin: string;
let signed: SignedState;

/** Runs command `name` (its bundle or its sources: `commandArgs`) with `env` (DATA_DIR, LEDGER_KEY_DIR, ...); its exit status and output. */
async function script(name: BuiltCommand, args: string[], env: Record<string, string>) {
  try {
    const r = await run(process.execPath, commandArgs(name, args), {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: t.app.config.databaseUrl ?? '',
        LEDGER_ORIGIN: '',
        NODE_ENV: '',
        SCRYPT_COST: '', // the test run's cheap cost is refused outside a test run
        ...env,
      },
    });
    return { status: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { status: err.code, out: err.stdout + err.stderr };
  }
}

const readState = (dir: string) => JSON.parse(readFileSync(join(dir, STATE), 'utf8')) as SignedState;

/** Asserts a refused restore: status 1, one line naming `what`, nothing written. */
function expectRefused(r: { status: number; out: string }, what: RegExp, dataDir: string): void {
  expect(r.status).toBe(1);
  expect(r.out.trim().split('\n')).toHaveLength(1);
  expect(r.out).toMatch(/^restore failed: /);
  expect(r.out).toMatch(what);
  expect(existsSync(dataDir)).toBe(false);
}

beforeAll(async () => {
  t = await createTestApp({ ledgerKeyDir: keyDir });
  for (let i = 0; i < 3; i++) {
    const id = (await t.post('/artmanager/authors/addAuthors', { authorName: `state ${i}` })).body.data.id;
    expect((await t.post('/artmanager/authors/blockChain', { id })).status).toBe(200);
  }
  origin = t.app.checkpoints.origin(RECORD_CHANNEL);
  for (let i = 0; i < 100 && !existsSync(join(keyDir, STATE)); i++)
    await new Promise((r) => setTimeout(r, 50));
  signed = readState(keyDir);
  expect(signed[origin].size).toBeGreaterThanOrEqual(3);
});
afterAll(async () => {
  await t?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the signed state in backup and restore', () => {
  it('npm run backup: the state with its SHA-256 and the log origins, never the key', async () => {
    const r = await script('backup', [backupDir], { DATA_DIR: t.dataDir, LEDGER_KEY_DIR: keyDir });
    expect(r.out).toContain('signed state of');
    expect(r.status).toBe(0);
    const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8'));
    expect(manifest.database).toBe(t.app.dialect === 'postgres' ? 'postgresql' : 'sqlite');
    expect(manifest.origins).toEqual([origin]);
    expect(manifest.signedState).toBe(`ledger-key-dir/${STATE}`);
    const entry = manifest.files.find((f: { path: string }) => f.path === manifest.signedState);
    expect(entry.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(readState(join(backupDir, 'ledger-key-dir'))).toEqual(signed);
    expect(manifest.files.some((f: { path: string }) => /signing-key/.test(f.path))).toBe(false);
    expect(existsSync(join(keyDir, 'ledger-signing-key.pem'))).toBe(true);
  });

  it('npm run restore into a new key dir: the backup state, 0600 in a 0700 directory', async () => {
    const dataDir = join(work, 'r-new');
    const newKeys = join(work, 'r-new-keys');
    const r = await script('restore', [backupDir], { DATA_DIR: dataDir, LEDGER_KEY_DIR: newKeys });
    expect(r.out).toContain(`took the backup's entry for ${origin}`);
    expect(r.status).toBe(0);
    expect(readState(newKeys)).toEqual(signed);
    expect(statSync(join(newKeys, STATE)).mode & 0o777).toBe(0o600);
    expect(statSync(newKeys).mode & 0o777).toBe(0o700);
    expect(existsSync(join(dataDir, 'ledger-key-dir'))).toBe(false);
  });

  it('npm run restore merges: per origin the larger size, never lower than the key dir remembers', async () => {
    const e = signed[origin];
    const other = `${origin.slice(0, origin.lastIndexOf('/'))}/otherchannel`;
    const behind = join(work, 'keys-behind');
    const ahead = join(work, 'keys-ahead');
    mkdirSync(behind);
    mkdirSync(ahead);
    const small = { size: 1, rootHash: 'aa'.repeat(32), note: 'older' };
    writeFileSync(join(behind, STATE), JSON.stringify({ [origin]: small, [other]: { ...small, size: 99 } }));
    const big = { size: e.size + 100, rootHash: 'bb'.repeat(32), note: 'newer' };
    writeFileSync(join(ahead, STATE), JSON.stringify({ [origin]: big }));
    const r1 = await script('restore', [backupDir], {
      DATA_DIR: join(work, 'r-behind'),
      LEDGER_KEY_DIR: behind,
    });
    expect(r1.status).toBe(0);
    expect(readState(behind)).toEqual({ [origin]: e, [other]: { ...small, size: 99 } });
    const r2 = await script('restore', [backupDir], {
      DATA_DIR: join(work, 'r-ahead'),
      LEDGER_KEY_DIR: ahead,
    });
    expect(r2.status).toBe(0);
    expect(r2.out).toContain('the key dir already remembered as much or more');
    expect(readState(ahead)).toEqual({ [origin]: big });
    expect(statSync(join(ahead, STATE)).mode & 0o777).toBe(0o600);
  });

  it('refuses a truncated backup: a missing file, a short file, a manifest that is not JSON', async () => {
    const copy = (name: string) => {
      const dir = join(work, name);
      cpSync(backupDir, dir, { recursive: true });
      return dir;
    };
    const missing = copy('b-missing');
    unlinkSync(join(missing, 'ledger-key-dir', STATE));
    const short = copy('b-short');
    const shortFile = join(short, 'ledger-key-dir', STATE);
    truncateSync(shortFile, statSync(shortFile).size - 10);
    const notJson = copy('b-not-json');
    const m = join(notJson, 'manifest.json');
    truncateSync(m, Math.floor(statSync(m).size / 2));
    const kept = readFileSync(join(keyDir, STATE), 'utf8');
    const env = (d: string) => ({ DATA_DIR: join(work, `r-${d}`), LEDGER_KEY_DIR: keyDir });
    const [a, b, c] = await Promise.all([
      script('restore', [missing], env('missing')),
      script('restore', [short], env('short')),
      script('restore', [notJson], env('not-json')),
    ]);
    expectRefused(
      a,
      /ledger-key-dir\/ledger-signed-checkpoints\.json is missing from the backup: the backup is truncated/,
      join(work, 'r-missing'),
    );
    expectRefused(b, /has \d+ bytes, the manifest says \d+: the backup is truncated/, join(work, 'r-short'));
    expectRefused(
      c,
      /manifest\.json is not JSON .*: the backup is truncated or damaged/,
      join(work, 'r-not-json'),
    );
    expect(readFileSync(join(keyDir, STATE), 'utf8')).toBe(kept);
  });

  it('refuses a backup of another log: the key dir remembers another origin, or LEDGER_ORIGIN differs', async () => {
    const foreign = join(work, 'keys-foreign');
    mkdirSync(foreign);
    const state = JSON.stringify({
      'other.example.org/artchannel': { size: 5, rootHash: 'cc'.repeat(32), note: 'n' },
    });
    writeFileSync(join(foreign, STATE), state);
    const [a, b] = await Promise.all([
      script('restore', [backupDir], { DATA_DIR: join(work, 'r-foreign'), LEDGER_KEY_DIR: foreign }),
      script('restore', [backupDir], {
        DATA_DIR: join(work, 'r-origin'),
        LEDGER_KEY_DIR: join(work, 'keys-origin'),
        LEDGER_ORIGIN: 'registry.other.org/baas',
      }),
    ]);
    expectRefused(
      a,
      /remembers the log other\.example\.org: a backup of another log/,
      join(work, 'r-foreign'),
    );
    expectRefused(
      b,
      /but LEDGER_ORIGIN is registry\.other\.org\/baas: a backup of another log/,
      join(work, 'r-origin'),
    );
    expect(readFileSync(join(foreign, STATE), 'utf8')).toBe(state);
    expect(existsSync(join(work, 'keys-origin'))).toBe(false);
  });
});

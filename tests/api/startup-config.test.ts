/**
 * The server's start with a refused configuration (server/configError.ts) and its key directory
 * (server/ledger/keyDir.ts), as an operator meets them: the server entry spawned with a bad setting
 * prints one line naming it (no stack frames) and exits with status 1; with NODE_ENV=production a key dir
 * that is DATA_DIR or inside it (also through a symbolic link, and an old installation's key in DATA_DIR)
 * is refused; outside production the old installation keeps its key, with one warning saying how to move
 * it; a new installation's key goes to `<DATA_DIR>-keys` (0700, key file 0600); a damaged signed-state file
 * is refused naming it, and left as it was. Configuration only: the
 * spawned servers use SQLite either way, so the file runs once, on SQLite.
 */
import { execFile } from 'node:child_process';
import { createHash, createPublicKey } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { ConfigError, exitOnConfigError, isConfigError } from '../../server/configError';
import { KEY_FILE, SIGNED_STATE_FILE } from '../../server/ledger/checkpoints';
import { ed25519KeyFile } from '../../server/ledger/ed25519Key';
import { KEY_FILE_NAME, STATE_FILE_NAME } from '../../server/ledger/keyDir';
import { commandArgs, ROOT, startServerProcess } from '../support/serverProcess';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'baas-startup-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs the server entry until it exits (it must refuse to start); its status and output. */
async function refusedStart(env: Record<string, string>): Promise<{ status: number; out: string }> {
  try {
    await run(process.execPath, commandArgs('server'), {
      cwd: ROOT,
      timeout: 60_000,
      env: {
        ...process.env,
        PORT: '0',
        SEED: '0',
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        LEDGER_KEY_DIR: '',
        LEDGER_ORIGIN: '',
        NODE_ENV: '',
        // the test run's cheap cost (vitest.config.ts) is refused outside a test run
        SCRYPT_COST: '',
        ...env,
      },
    });
    return { status: 0, out: 'started' };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { status: err.code, out: err.stdout + err.stderr };
  }
}

/** Asserts one line, no stack frame, naming `what`. */
function expectOneLine(r: { status: number; out: string }, what: RegExp): void {
  expect(r.status).toBe(1);
  expect(r.out).not.toMatch(/^\s+at /m);
  const lines = r.out.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^baas-admin: configuration refused: /);
  expect(lines[0]).toMatch(what);
}

const fingerprint = (pemFile: string) =>
  createHash('sha256')
    .update(createPublicKey(readFileSync(pemFile, 'utf8')).export({ format: 'der', type: 'spki' }))
    .digest('hex');

describe('ConfigError', () => {
  it('is told apart from a bug, also as the cause of a wrapping error', () => {
    expect(isConfigError(new ConfigError('PORT'))).toBe(true);
    expect(isConfigError(new Error('plugin failed', { cause: new ConfigError('PORT') }))).toBe(true);
    expect(isConfigError(new TypeError('x is undefined'))).toBe(false);
    // A genuine bug is thrown again: Node prints it with its stack.
    expect(() => exitOnConfigError(new TypeError('x is undefined'))).toThrow(TypeError);
  });

  it('keyDir.ts names the files as checkpoints.ts does', () => {
    expect([KEY_FILE_NAME, STATE_FILE_NAME]).toEqual([KEY_FILE, SIGNED_STATE_FILE]);
  });

  it('LEDGER_KEY_DIR defaults to <DATA_DIR>-keys, beside DATA_DIR', () => {
    const c = loadConfig({ DATA_DIR: join(work, 'nothing-here') });
    expect(c.ledgerKeyDir).toBe(join(work, 'nothing-here-keys'));
    expect(c.ledgerKeyDirLegacy).toBe(false);
    expect(c.production).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).production).toBe(true);
  });
});

describe.skipIf(!!process.env.TEST_DATABASE_URL)('a refused configuration: one line, exit status 1', () => {
  it('malformed LEDGER_WITNESSES, LEDGER_ORIGIN, PORT; an ADMIN_PASSWORD under 8 characters; a test-run SCRYPT_COST in production', async () => {
    const [witnesses, origin, port, password, cost] = await Promise.all([
      refusedStart({ DATA_DIR: join(work, 'w'), LEDGER_WITNESSES: 'not-a-witness' }),
      refusedStart({ DATA_DIR: join(work, 'o'), LEDGER_ORIGIN: 'Not An Origin!' }),
      refusedStart({ DATA_DIR: join(work, 'p'), PORT: 'eighty' }),
      refusedStart({ DATA_DIR: join(work, 'a'), ADMIN_PASSWORD: 'x' }),
      refusedStart({ DATA_DIR: join(work, 's'), NODE_ENV: 'production', SCRYPT_COST: '1024' }),
    ]);
    expectOneLine(witnesses, /LEDGER_WITNESSES entry "not-a-witness"/);
    expectOneLine(origin, /LEDGER_ORIGIN must be a URL-like name/);
    expectOneLine(port, /PORT must be a non-negative integer, got "eighty"/);
    expectOneLine(password, /ADMIN_PASSWORD: 8 to 256 characters/);
    expectOneLine(cost, /SCRYPT_COST must be a power of two from 16384 to 131072 .*got "1024"/);
    // refused before anything is written
    expect(existsSync(join(work, 's', 'baas.sqlite'))).toBe(false);
  });

  it('a LEDGER_ORIGIN that differs from the stored log origin', async () => {
    const dataDir = join(work, 'origin');
    mkdirSync(`${dataDir}-keys`, { mode: 0o700 }); // as the server makes it (else: a warning line)
    const app = await buildApp({
      ...loadConfig({}),
      dataDir,
      ledgerKeyDir: `${dataDir}-keys`,
      consoleDir: join(dataDir, 'none'),
      seed: false,
      ledgerOrigin: 'first.test/log',
    });
    await app.ready();
    await app.close();
    const r = await refusedStart({ DATA_DIR: dataDir, LEDGER_ORIGIN: 'second.test/log' });
    expectOneLine(
      r,
      /LEDGER_ORIGIN "second\.test\/log" differs from this ledger's origin prefix "first\.test\/log"/,
    );
  });

  it('production: a key dir that is DATA_DIR, inside it, or a link into it; the old key in DATA_DIR', async () => {
    const dataDir = join(work, 'prod');
    mkdirSync(dataDir);
    symlinkSync(join(dataDir, 'keys'), join(work, 'link-to-keys'));
    const legacyData = join(work, 'legacy-prod');
    ed25519KeyFile(join(legacyData, KEY_FILE_NAME));
    const [same, inside, linked, legacy] = await Promise.all([
      refusedStart({ NODE_ENV: 'production', DATA_DIR: dataDir, LEDGER_KEY_DIR: dataDir }),
      refusedStart({ NODE_ENV: 'production', DATA_DIR: dataDir, LEDGER_KEY_DIR: join(dataDir, 'keys') }),
      refusedStart({ NODE_ENV: 'production', DATA_DIR: dataDir, LEDGER_KEY_DIR: join(work, 'link-to-keys') }),
      refusedStart({ NODE_ENV: 'production', DATA_DIR: legacyData }),
    ]);
    for (const r of [same, inside, linked])
      expectOneLine(r, /LEDGER_KEY_DIR .* is DATA_DIR .* or inside it, which NODE_ENV=production refuses/);
    expectOneLine(legacy, /signing key and signed state are in DATA_DIR .*mv .*ledger-signing-key\.pem/);
    // Refused before anything is written: no key, no key dir, no database.
    expect(existsSync(join(dataDir, 'keys'))).toBe(false);
    expect(existsSync(join(dataDir, 'baas.sqlite'))).toBe(false);
    expect(existsSync(`${legacyData}-keys`)).toBe(false);
  });

  it('a key dir that remembers signed checkpoints but holds no key (a restore without the key)', async () => {
    const dataDir = join(work, 'no-key');
    mkdirSync(`${dataDir}-keys`, { recursive: true, mode: 0o700 });
    writeFileSync(join(`${dataDir}-keys`, STATE_FILE_NAME), '{}');
    const r = await refusedStart({ DATA_DIR: dataDir });
    expectOneLine(
      r,
      /remembers signed checkpoints but .* holds no ledger-signing-key\.pem and LEDGER_SIGNING_KEY is unset/,
    );
    expect(existsSync(join(`${dataDir}-keys`, KEY_FILE_NAME))).toBe(false); // no new key
  });

  it('a damaged signed-state file: one line naming it, and the file left as it was', async () => {
    const dataDir = join(work, 'bad-state');
    mkdirSync(`${dataDir}-keys`, { recursive: true, mode: 0o700 });
    ed25519KeyFile(join(`${dataDir}-keys`, KEY_FILE_NAME));
    const state = join(`${dataDir}-keys`, STATE_FILE_NAME);
    const damaged = '{"example.org/artchannel": {"size": 3, "rootHash": "zz"';
    writeFileSync(state, damaged);
    const r = await refusedStart({ DATA_DIR: dataDir, LEDGER_SIGNING_KEY: '' });
    expectOneLine(
      r,
      new RegExp(`${STATE_FILE_NAME.replace('.', '\\.')}: not JSON .*the signer's state file`),
    );
    expect(readFileSync(state, 'utf8')).toBe(damaged);
  });
});

describe.skipIf(!!process.env.TEST_DATABASE_URL)('the key directory at start', () => {
  it('outside production, an old installation keeps signing with its key in DATA_DIR, with one warning', async () => {
    const dataDir = join(work, 'legacy');
    ed25519KeyFile(join(dataDir, KEY_FILE_NAME));
    const server = await startServerProcess({
      dataDir,
      env: { NODE_ENV: '', LEDGER_KEY_DIR: '', SCRYPT_COST: '' },
    });
    try {
      const out = server.output();
      expect(out.match(/the old default/g)).toHaveLength(1);
      expect(out).toContain(`mv ${join(dataDir, KEY_FILE_NAME)}`);
      expect(out).toContain(`SHA-256 fingerprint ${fingerprint(join(dataDir, KEY_FILE_NAME))}`);
      expect(existsSync(`${dataDir}-keys`)).toBe(false); // no new key was made
    } finally {
      await server.stop();
    }
  });

  it('in production, a new installation puts its key in <DATA_DIR>-keys (0700, key 0600)', async () => {
    const dataDir = join(work, 'fresh');
    const server = await startServerProcess({
      dataDir,
      env: { NODE_ENV: 'production', LEDGER_KEY_DIR: '', SCRYPT_COST: '' },
    });
    try {
      const keyDir = `${dataDir}-keys`;
      expect(statSync(keyDir).mode & 0o777).toBe(0o700);
      expect(statSync(join(keyDir, KEY_FILE_NAME)).mode & 0o777).toBe(0o600);
      expect(existsSync(join(dataDir, KEY_FILE_NAME))).toBe(false);
      expect(server.output()).toContain(`SHA-256 fingerprint ${fingerprint(join(keyDir, KEY_FILE_NAME))}`);
    } finally {
      await server.stop();
    }
  });
});

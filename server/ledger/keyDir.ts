/**
 * Where the ledger's signing key and the signer's last signed checkpoints live (docs/ledger.md section
 * 10, "Key", "Never a fork"): `LEDGER_KEY_DIR`, by default `<DATA_DIR>-keys`, a sibling of the data
 * directory, so that a copy or backup of DATA_DIR never carries the key and the log's memory is not in the
 * box it protects.
 *
 * Upgrade from the old default (the key dir was DATA_DIR): when `LEDGER_KEY_DIR` is unset, DATA_DIR
 * holds the key file or the state file and `<DATA_DIR>-keys` holds neither, DATA_DIR stays the key dir
 * (a new key would sign the same log under another key) and the server logs how to move the two files;
 * in production (`NODE_ENV=production`) the start is refused instead, as it is for any key dir that is
 * DATA_DIR or inside it (real paths compared).
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ConfigError } from '../configError';

/** The key file's name (server/ledger/checkpoints.ts `KEY_FILE`; kept here so config.ts stays light). */
export const KEY_FILE_NAME = 'ledger-signing-key.pem';
/** The signer's state file (server/ledger/checkpoints.ts `SIGNED_STATE_FILE`). */
export const STATE_FILE_NAME = 'ledger-signed-checkpoints.json';

/** `<dataDir>-keys`: the default key directory, beside DATA_DIR (`./data` → `./data-keys`). */
export function defaultKeyDir(dataDir: string): string {
  return `${resolve(dataDir)}-keys`;
}

/** The key directory to use, and whether it is DATA_DIR kept for an old installation (`legacy`). */
export function chooseKeyDir(
  configured: string | undefined,
  dataDir: string,
): { dir: string; legacy: boolean } {
  if (configured) return { dir: resolve(configured), legacy: false };
  const dir = defaultKeyDir(dataDir);
  const holds = (d: string) => existsSync(join(d, KEY_FILE_NAME)) || existsSync(join(d, STATE_FILE_NAME));
  if (!holds(dir) && holds(dataDir)) return { dir: resolve(dataDir), legacy: true };
  return { dir, legacy: false };
}

/**
 * The real path of `p`, also when it does not exist yet: a dangling symbolic link is followed to its
 * target, a missing path is its real parent's child.
 */
function realPath(p: string, depth = 0): string {
  const abs = resolve(p);
  if (existsSync(abs)) return realpathSync(abs);
  let link: string | undefined;
  try {
    if (lstatSync(abs).isSymbolicLink()) link = readlinkSync(abs);
  } catch {
    // missing: not a link
  }
  if (link !== undefined && depth < 40) return realPath(resolve(dirname(abs), link), depth + 1);
  const parent = dirname(abs);
  return parent === abs ? abs : join(realPath(parent, depth), basename(abs));
}

/** Whether `dir` is `parent` or inside it, comparing real paths (symbolic links followed). */
export function isWithin(dir: string, parent: string): boolean {
  const r = relative(realPath(parent), realPath(dir));
  return r === '' || (r !== '..' && !r.startsWith(`..${sep}`) && !isAbsolute(r));
}

/** What {@link prepareKeyDir} reads of the configuration (server/config.ts). */
export interface KeyDirConfig {
  dataDir: string;
  ledgerKeyDir: string;
  /** `LEDGER_SIGNING_KEY`: the key from the environment (then the key dir holds the state only). */
  ledgerSigningKey?: string;
  /** DATA_DIR kept as the key dir of an old installation (see the module doc). */
  ledgerKeyDirLegacy: boolean;
  /** `NODE_ENV=production`. */
  production: boolean;
}

/**
 * At server start, before the key is loaded: refuses (in production) a key dir that is DATA_DIR or
 * inside it, warns about the legacy layout otherwise, and creates the key dir (mode 0700) when missing.
 * Refuses, in any mode, a key dir that remembers signed checkpoints but holds no key while
 * LEDGER_SIGNING_KEY is unset (a restore onto a new machine without the key): a new key would be made
 * and sign the same log under another key.
 * @throws ConfigError naming the directories and what to do
 */
export function prepareKeyDir(config: KeyDirConfig, warn: (line: string) => void): void {
  const { dataDir, ledgerKeyDir: dir } = config;
  const target = defaultKeyDir(dataDir);
  const move = `stop the server, then mkdir -m 700 ${target} && mv ${join(dataDir, KEY_FILE_NAME)} ${join(dataDir, STATE_FILE_NAME)} ${target}/ (whichever exist; or move them to a directory named by LEDGER_KEY_DIR, outside DATA_DIR) and start again`;
  if (config.production && isWithin(dir, dataDir))
    throw new ConfigError(
      config.ledgerKeyDirLegacy
        ? `the ledger's signing key and signed state are in DATA_DIR ${dataDir} (the old default), which NODE_ENV=production refuses: ${move} (README, "Run in production")`
        : `LEDGER_KEY_DIR ${dir} is DATA_DIR ${dataDir} or inside it, which NODE_ENV=production refuses (a copy or backup of DATA_DIR would carry the signing key): set LEDGER_KEY_DIR to a directory outside DATA_DIR (README, "Run in production")`,
    );
  if (config.ledgerKeyDirLegacy)
    warn(
      `ledger: the signing key and signed state are in DATA_DIR ${dataDir} (the old default) and are used from there; move them out of DATA_DIR: ${move}. NODE_ENV=production refuses this layout`,
    );
  else if (!isWithin(dir, dataDir) && existsSync(join(dataDir, KEY_FILE_NAME)))
    warn(
      `ledger: ${join(dataDir, KEY_FILE_NAME)} is not used (the key dir is ${dir}) but lies in DATA_DIR, where copies and backups of DATA_DIR carry it: check that it is the key in ${dir} or an old one, then remove it`,
    );
  if (
    !config.ledgerSigningKey &&
    existsSync(join(dir, STATE_FILE_NAME)) &&
    !existsSync(join(dir, KEY_FILE_NAME))
  )
    throw new ConfigError(
      `${join(dir, STATE_FILE_NAME)} remembers signed checkpoints but ${dir} holds no ${KEY_FILE_NAME} and LEDGER_SIGNING_KEY is unset: put the log's signing key there (or set LEDGER_SIGNING_KEY); a new key would sign the same log under another key`,
    );
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
  } else if ((statSync(dir).mode & 0o077) !== 0 && !config.ledgerKeyDirLegacy)
    warn(
      `ledger: the key directory ${dir} is open to other users (mode ${(statSync(dir).mode & 0o777).toString(8)}): chmod 700 ${dir}`,
    );
}

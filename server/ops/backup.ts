/**
 * Online backup and restore of a data directory (issue 20), for `npm run backup -- <dir>` and
 * `npm run restore -- <dir>` (scripts/backup.ts, scripts/restore.ts).
 *
 * A backup directory holds:
 * - `baas.sqlite`: the SQLite database, copied by SQLite's online backup API (better-sqlite3 `backup`)
 *   in one step, i.e. one read transaction: a consistent snapshot while the server keeps writing (WAL
 *   mode: writers are not blocked). Absent on PostgreSQL (pg_dump, README "Run in production");
 * - `upload-secret` when DATA_DIR holds it (not when it comes from UPLOAD_SECRET). Never the ledger's
 *   private key (`ledger-signing-key.pem`), not even when an old installation keeps it in DATA_DIR: a
 *   backup of the data must not be able to sign (docs/ledger.md section 10, "Key");
 * - `ledger-key-dir/ledger-signed-checkpoints.json`: a copy of the signer's last signed checkpoints from
 *   LEDGER_KEY_DIR, taken after the database snapshot (so it remembers at least what the snapshot
 *   holds), when that file exists;
 * - `uploads/`: the uploaded files of the disk store, copied after the database snapshot, so every file
 *   the snapshot names is there (files are content-addressed and written once). The PostgreSQL store
 *   keeps uploads in the database's `upload_blob` table, so pg_dump carries them; an S3 bucket is backed
 *   up by the bucket's own means (versioning, replication): neither is in `uploads/`;
 * - `manifest.json`, written last: `{format: 1, createdAt, database, files: [{path, bytes, sha256}],
 *   origins, signedState}`, SHA-256 in hex of every file above, the log origins (of the state file and of
 *   the database's `ledger_log`) and the path of the signed state in the backup. A backup without it is
 *   incomplete.
 *
 * Restore verifies every size and hash first (a missing or short file: a truncated backup), refuses a
 * DATA_DIR that is not empty and a backup of another log (origins other than those the key dir's state
 * or LEDGER_ORIGIN name), copies into a new sibling directory and renames it to DATA_DIR: a failed
 * restore leaves no half-written DATA_DIR. Then it merges the backup's signed state into the key dir's
 * (server/ops/signedState.ts): per origin the larger size, so a restore never lowers what the key dir
 * remembers, and a restored database behind it makes the server halt with a rollback alarm. The restored
 * database gets one audit row naming the backup (server/ops/restoreAudit.ts, issue 32 "One door").
 */
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import SQLite from 'better-sqlite3';
import { STATE_FILE_NAME } from '../ledger/keyDir';
import {
  mergeSignedState,
  originPrefixes,
  readSignedState,
  sqliteOrigins,
  writeSignedState,
  type SignedState,
} from './signedState';

/** The manifest of a backup directory. */
export interface BackupManifest {
  format: 1;
  /** ISO-8601 UTC time the backup started. */
  createdAt: string;
  /** `sqlite` (baas.sqlite included) or `postgresql` (the database is backed up with pg_dump). */
  database: 'sqlite' | 'postgresql';
  files: { path: string; bytes: number; sha256: string }[];
  /** The log origins the backup holds (state file and database), sorted; absent in older backups. */
  origins?: string[];
  /** Path, in the backup, of the copy of `<LEDGER_KEY_DIR>/ledger-signed-checkpoints.json` (not a DATA_DIR file). */
  signedState?: string;
}

/** Files of DATA_DIR a backup takes besides `uploads/` (the database is copied by SQLite); never the signing key. */
export const KEY_FILES = ['upload-secret'];
const DB_FILE = 'baas.sqlite';
/** Where a backup keeps the copy of the key dir's signed state. */
export const BACKUP_STATE_PATH = `ledger-key-dir/${STATE_FILE_NAME}`;

/** Options of {@link backup} and {@link restore}. */
export interface LedgerStateOptions {
  /** LEDGER_KEY_DIR: where the signed state is read (backup) or merged into (restore). */
  keyDir?: string;
  /** Backup on PostgreSQL: the origins of the database's `ledger_log` (SQLite: read from the copy). */
  databaseOrigins?: string[];
  /** Restore: LEDGER_ORIGIN, the origin prefix the restored log must have when set. */
  ledgerOrigin?: string;
  /**
   * Restore: called with the staging directory (the restored files, not yet DATA_DIR) and the manifest,
   * before the rename; what it throws fails the restore, leaving no DATA_DIR (server/ops/restoreAudit.ts
   * writes the restore's audit row into the staged SQLite database here).
   */
  beforeCommit?: (staging: string, manifest: BackupManifest) => void;
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** Every regular file under `dir`, relative to it, with `/` separators. */
function filesUnder(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return filesUnder(p, base);
    return e.isFile() ? [relative(base, p).split(sep).join('/')] : [];
  });
}

/** Whether `dir` is missing or an empty directory. */
export function isEmptyDir(dir: string): boolean {
  return !existsSync(dir) || (statSync(dir).isDirectory() && readdirSync(dir).length === 0);
}

/**
 * Backs up `dataDir` into `target` (missing or empty), with the signed state of `opts.keyDir`.
 * `database` says which store the server uses.
 * @throws Error when `target` is not empty, the SQLite file is missing on SQLite, or the state file is
 * not a signed state
 */
export async function backup(
  dataDir: string,
  target: string,
  database: 'sqlite' | 'postgresql',
  opts: LedgerStateOptions = {},
): Promise<BackupManifest> {
  if (!isEmptyDir(target)) throw new Error(`${target} is not empty: back up into a new directory`);
  mkdirSync(target, { recursive: true });
  const createdAt = new Date().toISOString();
  const paths: string[] = [];
  if (database === 'sqlite') {
    const source = join(dataDir, DB_FILE);
    if (!existsSync(source)) throw new Error(`${source} does not exist: is DATA_DIR right?`);
    const db = new SQLite(source, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      // Every page in one step: one read transaction, a consistent snapshot (SQLite "backup API").
      await db.backup(join(target, DB_FILE), { progress: () => 2 ** 30 });
    } finally {
      db.close();
    }
    paths.push(DB_FILE);
  }
  const origins = new Set(
    database === 'sqlite' ? sqliteOrigins(join(target, DB_FILE)) : (opts.databaseOrigins ?? []),
  );
  // After the database snapshot: the signer writes its state after each commit, so this copy
  // remembers at least every checkpoint the snapshot holds.
  const stateFile = opts.keyDir ? join(opts.keyDir, STATE_FILE_NAME) : undefined;
  const state = stateFile ? readSignedState(stateFile) : undefined;
  if (state) {
    mkdirSync(dirname(join(target, BACKUP_STATE_PATH)), { recursive: true });
    writeFileSync(join(target, BACKUP_STATE_PATH), JSON.stringify(state, null, 1), { mode: 0o600 });
    paths.push(BACKUP_STATE_PATH);
    for (const o of Object.keys(state)) origins.add(o);
  }
  for (const f of KEY_FILES)
    if (existsSync(join(dataDir, f))) {
      copyFileSync(join(dataDir, f), join(target, f));
      paths.push(f);
    }
  for (const f of filesUnder(join(dataDir, 'uploads'))) {
    const to = join(target, 'uploads', f);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(join(dataDir, 'uploads', f), to);
    paths.push(`uploads/${f}`);
  }
  const manifest: BackupManifest = {
    format: 1,
    createdAt,
    database,
    files: paths.map((p) => ({
      path: p,
      bytes: statSync(join(target, p)).size,
      sha256: sha256(join(target, p)),
    })),
    origins: [...origins].sort(),
    ...(state ? { signedState: BACKUP_STATE_PATH } : {}),
  };
  writeFileSync(join(target, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * The manifest of backup `dir`, every file checked against its size and SHA-256.
 * @throws Error naming the first missing, short or altered file, or a missing/unreadable manifest
 */
export function verifyBackup(dir: string): BackupManifest {
  const file = join(dir, 'manifest.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: not a complete backup`);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8')) as BackupManifest;
  } catch (err) {
    throw new Error(`${file} is not JSON (${(err as Error).message}): the backup is truncated or damaged`);
  }
  if (manifest?.format !== 1 || !Array.isArray(manifest.files))
    throw new Error(`${file}: unknown manifest format ${String(manifest?.format)}`);
  for (const f of manifest.files) {
    const p = resolve(dir, f.path);
    if (!p.startsWith(resolve(dir) + sep)) throw new Error(`manifest path outside the backup: ${f.path}`);
    if (!existsSync(p)) throw new Error(`${f.path} is missing from the backup: the backup is truncated`);
    const bytes = statSync(p).size;
    if (bytes < f.bytes)
      throw new Error(`${f.path} has ${bytes} bytes, the manifest says ${f.bytes}: the backup is truncated`);
    if (bytes !== f.bytes || sha256(p) !== f.sha256)
      throw new Error(`${f.path} does not match its SHA-256 in the manifest: the backup is damaged`);
  }
  return manifest;
}

/**
 * The signed state to write into `keyDir` after restoring `manifest` from `source` (undefined: nothing
 * to merge), checked first: a backup of another log than the key dir's state or `ledgerOrigin` name is
 * refused. @throws Error saying which origins differ, or that a state file is unreadable
 */
function stateToRestore(
  source: string,
  manifest: BackupManifest,
  opts: LedgerStateOptions,
): { state: SignedState; taken: string[] } | undefined {
  if (manifest.signedState && !manifest.files.some((f) => f.path === manifest.signedState))
    throw new Error(`the manifest names ${manifest.signedState} as the signed state but does not list it`);
  const backupState = manifest.signedState ? readSignedState(join(source, manifest.signedState)) : undefined;
  const backupPrefixes = originPrefixes([...(manifest.origins ?? []), ...Object.keys(backupState ?? {})]);
  if (opts.ledgerOrigin && backupPrefixes.some((p) => p !== opts.ledgerOrigin))
    throw new Error(
      `the backup is of the log ${backupPrefixes.join(', ')}, but LEDGER_ORIGIN is ${opts.ledgerOrigin}: a backup of another log`,
    );
  if (!opts.keyDir) return undefined;
  const stateFile = join(opts.keyDir, STATE_FILE_NAME);
  const kept = readSignedState(stateFile) ?? {};
  const keptPrefixes = originPrefixes(Object.keys(kept));
  if (keptPrefixes.length > 0 && backupPrefixes.some((p) => !keptPrefixes.includes(p)))
    throw new Error(
      `the backup is of the log ${backupPrefixes.join(', ')}, but ${stateFile} remembers the log ${keptPrefixes.join(', ')}: a backup of another log (or the wrong LEDGER_KEY_DIR)`,
    );
  return backupState ? mergeSignedState(kept, backupState) : undefined;
}

/**
 * Restores backup `source` into `dataDir`, which must be missing or empty, then merges the backup's
 * signed state into `<opts.keyDir>/ledger-signed-checkpoints.json` (per origin the larger size; written
 * atomically, mode 0600). `merged` lists the origins whose entry came from the backup.
 * @throws Error when `dataDir` holds anything, the backup fails {@link verifyBackup}, or it is of
 * another log; nothing is written then
 */
export function restore(
  source: string,
  dataDir: string,
  opts: LedgerStateOptions = {},
): BackupManifest & { merged: string[] } {
  if (!isEmptyDir(dataDir)) throw new Error(`${dataDir} is not empty: restore into an empty DATA_DIR`);
  const manifest = verifyBackup(source);
  const merge = stateToRestore(source, manifest, opts);
  const staging = `${resolve(dataDir)}.restoring-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    for (const f of manifest.files) {
      if (f.path === manifest.signedState) continue; // the key dir's, merged below
      const to = join(staging, f.path);
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(join(source, f.path), to);
    }
    mkdirSync(join(staging, 'uploads'), { recursive: true });
    opts.beforeCommit?.(staging, manifest);
    if (existsSync(dataDir)) rmdirSync(dataDir); // empty, checked above
    renameSync(staging, dataDir);
  } catch (e) {
    rmSync(staging, { recursive: true, force: true });
    throw e;
  }
  if (merge && opts.keyDir) writeSignedState(join(opts.keyDir, STATE_FILE_NAME), merge.state);
  return { ...manifest, merged: merge?.taken ?? [] };
}

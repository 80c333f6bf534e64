/**
 * Online backup and restore of a data directory (issue 20), for `npm run backup -- <dir>` and
 * `npm run restore -- <dir>` (scripts/backup.ts, scripts/restore.ts).
 *
 * A backup directory holds:
 * - `baas.sqlite`: the SQLite database, copied by SQLite's online backup API (better-sqlite3 `backup`)
 *   in one step, i.e. one read transaction: a consistent snapshot while the server keeps writing (WAL
 *   mode: writers are not blocked). Absent on PostgreSQL (pg_dump, README "Run in production");
 * - `ledger-signing-key.pem` and `upload-secret` when DATA_DIR holds them (not when they come from
 *   LEDGER_SIGNING_KEY / UPLOAD_SECRET: keep those with the environment);
 * - `uploads/`: the uploaded files of the disk store, copied after the database snapshot, so every file
 *   the snapshot names is there (files are content-addressed and written once). The PostgreSQL store
 *   keeps uploads in the database's `upload_blob` table, so pg_dump carries them; an S3 bucket is backed
 *   up by the bucket's own means (versioning, replication): neither is in `uploads/`;
 * - `manifest.json`, written last: `{format: 1, createdAt, database, files: [{path, bytes, sha256}]}`,
 *   SHA-256 in hex of every file above. A backup without it is incomplete.
 *
 * Restore verifies every hash first, refuses a DATA_DIR that is not empty, copies into a new sibling
 * directory and renames it to DATA_DIR: a failed restore leaves no half-written DATA_DIR.
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

/** The manifest of a backup directory. */
export interface BackupManifest {
  format: 1;
  /** ISO-8601 UTC time the backup started. */
  createdAt: string;
  /** `sqlite` (baas.sqlite included) or `postgresql` (the database is backed up with pg_dump). */
  database: 'sqlite' | 'postgresql';
  files: { path: string; bytes: number; sha256: string }[];
}

/** Files of DATA_DIR a backup takes besides `uploads/` (the database is copied by SQLite). */
export const KEY_FILES = ['ledger-signing-key.pem', 'upload-secret'];
const DB_FILE = 'baas.sqlite';

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
 * Backs up `dataDir` into `target` (missing or empty). `database` says which store the server uses.
 * @throws Error when `target` is not empty, or the SQLite file is missing on SQLite
 */
export async function backup(
  dataDir: string,
  target: string,
  database: 'sqlite' | 'postgresql',
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
  };
  writeFileSync(join(target, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * The manifest of backup `dir`, every file checked against its size and SHA-256.
 * @throws Error naming the first missing or altered file, or a missing/unknown manifest
 */
export function verifyBackup(dir: string): BackupManifest {
  const file = join(dir, 'manifest.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: not a complete backup`);
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as BackupManifest;
  if (manifest.format !== 1 || !Array.isArray(manifest.files))
    throw new Error(`${file}: unknown manifest format ${String(manifest.format)}`);
  for (const f of manifest.files) {
    const p = resolve(dir, f.path);
    if (!p.startsWith(resolve(dir) + sep)) throw new Error(`manifest path outside the backup: ${f.path}`);
    if (!existsSync(p)) throw new Error(`${f.path} is missing from the backup`);
    if (statSync(p).size !== f.bytes || sha256(p) !== f.sha256)
      throw new Error(`${f.path} does not match its SHA-256 in the manifest: the backup is damaged`);
  }
  return manifest;
}

/**
 * Restores backup `source` into `dataDir`, which must be missing or empty.
 * @throws Error when `dataDir` holds anything, or the backup fails {@link verifyBackup}
 */
export function restore(source: string, dataDir: string): BackupManifest {
  if (!isEmptyDir(dataDir)) throw new Error(`${dataDir} is not empty: restore into an empty DATA_DIR`);
  const manifest = verifyBackup(source);
  const staging = `${resolve(dataDir)}.restoring-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    for (const f of manifest.files) {
      const to = join(staging, f.path);
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(join(source, f.path), to);
    }
    mkdirSync(join(staging, 'uploads'), { recursive: true });
    if (existsSync(dataDir)) rmdirSync(dataDir); // empty, checked above
    renameSync(staging, dataDir);
  } catch (e) {
    rmSync(staging, { recursive: true, force: true });
    throw e;
  }
  return manifest;
}

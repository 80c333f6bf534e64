/**
 * The audit row of a restore (issue 32, "One door"): `npm run restore -- <dir>` replaces every record at
 * once, so the restored database gets one audit row saying so, and Audit > System (and History's
 * neighbourhood) shows when the data was restored, by whom and from which backup:
 * - account `cli:<OS user>` (server/ops/admin.ts `cliAccount`), no account id;
 * - call `npm run restore <backup directory>` (its absolute path), resource {@link RESTORE_RESOURCE},
 *   record id the backup's `createdAt` (ISO-8601 UTC, from its manifest);
 * - `state` the restore: the backup directory, its `createdAt`, database kind, number of files and bytes,
 *   and `after` its SHA-256 (server/db/audit.ts `digestOf`); `before` null (DATA_DIR was empty).
 *
 * Where the row goes:
 * - SQLite: into the restored `baas.sqlite` while it is still in the staging directory, before the rename
 *   that makes it DATA_DIR (server/ops/backup.ts `restore`, option `beforeCommit`): the row is written
 *   in one statement by this process alone (no server has the file open), and a failure leaves no
 *   DATA_DIR, as any failed restore.
 * - PostgreSQL: pg_dump/pg_restore carry the database (README "Backup and restore (PostgreSQL)"), which
 *   the operator restores first; `npm run restore` then writes the row into DATABASE_URL's database, only
 *   when it has the audit trail (`audit_log`) and holds the log origins the backup names (or none): a
 *   DATABASE_URL still naming another database (the old one, an empty one) gets nothing, and the command
 *   says why.
 * Only the audit trail's columns the database has are written (a backup from before a migration added
 * one is restored as it is; the server migrates it at its next start).
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { AUDIT_TABLE, digestOf } from '../db/audit';
import { nowText } from '../db/database';
import { cliAccount } from './admin';
import type { BackupManifest } from './backup';
import { postgresOrigins } from './signedState';

/** The audit trail's resource of a restore. */
export const RESTORE_RESOURCE = 'database';

/** The audit row of restoring `manifest` from backup directory `source` (absolute), as column values. */
export function restoreAuditRow(
  source: string,
  manifest: BackupManifest,
  account = cliAccount(),
): Record<string, string | number | null> {
  const state = {
    backup: source,
    createdAt: manifest.createdAt,
    database: manifest.database,
    files: manifest.files.length,
    bytes: manifest.files.reduce((n, f) => n + f.bytes, 0),
  };
  return {
    time: nowText(),
    accountId: null,
    account,
    call: `npm run restore ${source}`,
    resource: RESTORE_RESOURCE,
    recordId: manifest.createdAt,
    before: null,
    after: digestOf(state),
    changed: '[]',
    state: JSON.stringify(state),
  };
}

/** `INSERT INTO audit_log` of the `row` columns the table has, with `?` or `$n` placeholders. */
function insertSql(row: Record<string, unknown>, has: Set<string>, placeholder: (i: number) => string) {
  const columns = Object.keys(row).filter((c) => has.has(c));
  return {
    text: `insert into ${AUDIT_TABLE} (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns
      .map((_, i) => placeholder(i + 1))
      .join(', ')})`,
    values: columns.map((c) => row[c]),
  };
}

/**
 * SQLite: adds `row` to the audit trail of the database file `file` (not in use by any other process).
 * @returns false when the database has no audit trail (a database older than it), true once written
 */
export function auditRestoreSqlite(file: string, row: Record<string, unknown>): boolean {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const has = new Set(
      (db.prepare(`select name from pragma_table_info('${AUDIT_TABLE}')`).all() as { name: string }[]).map(
        (c) => c.name,
      ),
    );
    if (!has.size) return false;
    const q = insertSql(row, has, () => '?');
    db.prepare(q.text).run(...q.values);
    return true;
  } finally {
    db.close();
  }
}

/**
 * PostgreSQL: adds `row` to the audit trail of the database at `url` when it is the restored one (see
 * the module doc). @returns null once written, else why it was not (for the operator)
 */
export async function auditRestorePostgres(
  url: string,
  manifest: BackupManifest,
  row: Record<string, unknown>,
): Promise<string | null> {
  const origins = await postgresOrigins(url);
  const expected = manifest.origins ?? [];
  if (expected.length && expected.join(' ') !== origins.join(' '))
    return `the database at DATABASE_URL holds the log ${origins.join(', ') || '(none)'}, the backup ${expected.join(', ')}: not the restored database`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const has = new Set(
      (
        await client.query<{ column_name: string }>(
          'select column_name from information_schema.columns where table_schema = current_schema() and table_name = $1',
          [AUDIT_TABLE],
        )
      ).rows.map((r) => r.column_name),
    );
    if (!has.size) return 'the database at DATABASE_URL has no audit trail: restore it with pg_restore first';
    const q = insertSql(row, has, (i) => `$${i}`);
    await client.query(q.text, q.values);
    return null;
  } finally {
    await client.end();
  }
}

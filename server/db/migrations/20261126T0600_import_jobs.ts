/**
 * Import jobs of the console's import (kernel/server/importJobs.ts): a file's rows after the dry run, kept on the
 * server so the commit can run in batches, resume after a browser reload and report rejects.
 * - `import_jobs`: one per uploaded file: resource, file name, who uploaded it, status
 *   (`ready` → `committing` → `done`, or `discarded`), row counts (JSON `{new, changed, unchanged,
 *   rejected}`), rows committed so far, times (UTC text `YYYY-MM-DD HH:mm:ss`).
 * - `import_job_rows`: one per row of the file: its 1-based row number, what the dry run found (`new`,
 *   `changed`, `unchanged`, `rejected`), the record id it changes, the body to write (JSON), the stored
 *   values it replaces (JSON, the sample diff), the field errors (JSON FieldError[]), whether it is written.
 * Frozen once landed: never edit, add a new migration instead. Portable SQL (SQLite and PostgreSQL).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('import_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('fileName', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('counts', 'text', (c) => c.notNull())
    .addColumn('committed', 'integer', (c) => c.notNull())
    .addColumn('createTime', 'text', (c) => c.notNull())
    .addColumn('updateTime', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('import_jobs_resource')
    .on('import_jobs')
    .columns(['resource', 'status'])
    .execute();
  await db.schema
    .createTable('import_job_rows')
    .addColumn('jobId', 'text', (c) => c.notNull().references('import_jobs.id').onDelete('cascade'))
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('recordId', 'integer')
    .addColumn('body', 'text')
    .addColumn('before', 'text')
    .addColumn('errors', 'text')
    .addColumn('done', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_job_rows_pk', ['jobId', 'line'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_job_rows').ifExists().execute();
  await db.schema.dropTable('import_jobs').ifExists().execute();
}

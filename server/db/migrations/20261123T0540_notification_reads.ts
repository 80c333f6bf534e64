/**
 * Per-recipient read state of notifications (Medicine > Messages, server/routes/medicine-api/message):
 * one row per recipient who has read a notification, with the time, so that the administrator and the
 * backup administrator of a company each have their own unread count. Before this migration a notification
 * had one read state, set by whichever recipient opened it first; that reader (`readBy`, `readTime`) is
 * carried over as the first row, and `readers` (the column the previous migration added from the schema)
 * is filled to match. Frozen once landed: never edit, add a new migration instead. Portable SQL (SQLite and
 * PostgreSQL).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_reads')
    .addColumn('notificationId', 'integer', (c) =>
      c.notNull().references('notifications.id').onDelete('cascade'),
    )
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('readTime', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_reads_pk', ['notificationId', 'account'])
    .execute();
  await db.schema
    .createIndex('notification_reads_account')
    .on('notification_reads')
    .column('account')
    .execute();
  const read = await db
    .selectFrom('notifications')
    .select(['id', 'readBy', 'readTime', 'updateTime'])
    .where('readBy', 'is not', null)
    .execute();
  for (const n of read) {
    await db
      .insertInto('notification_reads')
      .values({ notificationId: n.id, account: n.readBy, readTime: n.readTime ?? n.updateTime })
      .execute();
    await db
      .updateTable('notifications')
      .set({ readers: JSON.stringify([n.readBy]) })
      .where('id', '=', n.id)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notification_reads').ifExists().execute();
}

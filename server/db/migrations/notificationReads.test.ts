/**
 * Migration 20261123T0540_notification_reads on a database that already holds a read notification (the
 * state before it: one read state per notification): the first reader becomes the notification's first
 * `notification_reads` row and its `readers`; unread and draft notifications gain nothing. SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../connect';
import { migrations } from './index';

const dir = mkdtempSync(join(tmpdir(), 'baas-notification-reads-'));
const { db } = connect({ dataDir: dir }) as { db: Kysely<any> };
const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });

afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('migration 20261123T0540_notification_reads', () => {
  it('carries the one read state over as the first reader', async () => {
    const before = await migrator.migrateTo('20261123T0538_storage_notifications');
    expect(before.error).toBeUndefined();
    // The rows a database of the previous version holds (the company row is not needed for this).
    await sql`PRAGMA foreign_keys = OFF`.execute(db);
    const base = {
      companyId: 1,
      content: 'c',
      createTime: '2026-11-20 10:00:00',
      updateTime: '2026-11-21 09:00:00',
    };
    await db
      .insertInto('notifications')
      .values([
        {
          ...base,
          id: 1,
          title: 'read',
          status: 'read',
          sent: 1,
          recipients: '["a.one","b.one"]',
          sendTime: '2026-11-20 11:00:00',
          readBy: 'a.one',
          readTime: '2026-11-21 09:00:00',
        },
        {
          ...base,
          id: 2,
          title: 'unread',
          status: 'sent',
          sent: 1,
          recipients: '["a.one"]',
          sendTime: '2026-11-20 11:00:00',
        },
        { ...base, id: 3, title: 'draft', status: 'draft', sent: 0, recipients: '[]' },
      ])
      .execute();
    const after = await migrator.migrateToLatest();
    expect(after.error).toBeUndefined();
    const reads = await db.selectFrom('notification_reads').selectAll().execute();
    expect(reads).toEqual([{ notificationId: 1, account: 'a.one', readTime: '2026-11-21 09:00:00' }]);
    const rows = await db
      .selectFrom('notifications')
      .select(['id', 'readers', 'status', 'readBy'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 1, readers: '["a.one"]', status: 'read', readBy: 'a.one' },
      { id: 2, readers: '[]', status: 'sent', readBy: null },
      { id: 3, readers: '[]', status: 'draft', readBy: null },
    ]);
  });
});

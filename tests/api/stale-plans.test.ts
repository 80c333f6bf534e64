/**
 * An instance still serving beside one that migrates (issue 33): the other instance changes a table under
 * this one's prepared statements (here a column added to `artworks`, as a storage migration does), and this
 * one's next read of it must still answer. PostgreSQL refuses a prepared statement whose result columns
 * changed ("cached plan must not change result type", SQLSTATE 0A000): server/db/connect.ts `readQuery`
 * prepares the statement anew under a new name and runs it again. SQLite re-prepares by itself. Both
 * databases (PostgreSQL with TEST_DATABASE_URL).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../server/db/connect';
import { addArtwork, addAuthor, createTestApp, type TestApp } from './helpers';

let t: TestApp;
let id = 0;

beforeAll(async () => {
  t = await createTestApp({ databasePoolMax: 1 });
  id = await addArtwork(t, await addAuthor(t, 'Stale Plan'), 'Read before and after');
});
afterAll(() => t?.close());

const detail = () => t.get(`/artmanager/artwork/ArtInfoByArtId?artId=${id}`);
const list = () => t.post('/artmanager/artwork/searchArtworkList', { page: 1, pageSize: 5 });

describe("a table changed by another instance under this one's prepared statements", () => {
  it('the detail and list calls still answer, with the record as before', async () => {
    const first = await detail();
    expect(first.status).toBe(200);
    expect((await list()).status).toBe(200);
    // another instance (a connection of its own) migrates: a column added to the table
    const other = connect({
      dataDir: t.dataDir,
      databaseUrl: t.app.config.databaseUrl,
      sqliteFile: t.app.config.sqliteFile,
    });
    try {
      await sql`ALTER TABLE artworks ADD COLUMN "addedElsewhere" text`.execute(other.db);
    } finally {
      await other.db.destroy();
    }
    for (let i = 0; i < 2; i++) {
      const again = await detail();
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body.data).toEqual(first.body.data);
      const page = await list();
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      expect(page.body.data.list.map((a: { id: number }) => a.id)).toContain(id);
    }
  });
});

/**
 * Helpers for the import tests: a migrated throwaway SQLite database in a temp DATA_DIR, and a digest
 * of every registry table's content (to prove that an import changed nothing).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { Kysely } from 'kysely';
import { connect } from '../../server/db/connect';
import type { Database } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrator';

/** The bad-input rows (gzip of the team data folder's artworks.invalid.json; see fixtures/README.md). */
export const INVALID_FILE = fileURLToPath(new URL('./fixtures/artworks.invalid.json.gz', import.meta.url));

/** Parses a gzipped JSON file (the seed and fixture files) whole. */
export function readGzJson<T = Record<string, any>[]>(file: string): { rows: T; sha256: string } {
  const text = gunzipSync(readFileSync(file));
  return {
    rows: JSON.parse(text.toString('utf8')) as T,
    sha256: createHash('sha256').update(text).digest('hex'),
  };
}

export interface TempDb {
  db: Kysely<Database>;
  dir: string;
  close: () => Promise<void>;
}

/** A fresh, migrated SQLite database in its own temp directory; `close` destroys both. */
export async function tempDb(): Promise<TempDb> {
  const dir = mkdtempSync(join(tmpdir(), 'baas-import-'));
  const { db } = connect({ dataDir: dir });
  await migrateToLatest(db);
  return {
    db,
    dir,
    close: async () => {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Row counts and a SHA-256 over every row (ordered by id) of authors, artworks and art_categories. */
export async function snapshot(
  db: Kysely<Database>,
): Promise<Record<string, { rows: number; sha256: string }>> {
  const out: Record<string, { rows: number; sha256: string }> = {};
  for (const table of ['authors', 'artworks', 'art_categories'] as const) {
    const rows = await db.selectFrom(table).selectAll().orderBy('id').execute();
    out[table] = {
      rows: rows.length,
      sha256: createHash('sha256').update(JSON.stringify(rows)).digest('hex'),
    };
  }
  return out;
}

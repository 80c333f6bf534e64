/**
 * The BlobStore in the database (issue 20 item 4): every instance on one PostgreSQL database reads and
 * writes the same uploads. Table `upload_blob` (migration 20261126T0400_upload_blob): `key` (the
 * BlobStore key, `<dir>/<sha256 of the bytes>.<ext>`: content-addressed, so a put of the same key is the
 * same bytes and an existing row is left as it is), `contentType`, `size` (bytes), `bytes` (bytea) and
 * `updateTime` (UTC `YYYY-MM-DD HH:mm:ss`). Backed up with the database (pg_dump). Portable SQL: it also
 * runs on SQLite (tests), where the disk store is the default.
 */
import type { Kysely } from 'kysely';
import {
  checkedKey,
  cleanPrefix,
  listingOf,
  timeText,
  type BlobEntry,
  type BlobStore,
  type StoredBlob,
} from './blobStore';

/** The table this store uses. */
export interface UploadBlobTable {
  upload_blob: { key: string; contentType: string; size: number; bytes: Buffer; updateTime: string };
}

/** The BlobStore of the `upload_blob` table (see the module doc). */
export class PgBlobStore implements BlobStore {
  readonly kind = 'pg';
  /** @param db the app's database; @param urlPrefix where objects are served (`/uploads/`) */
  constructor(
    private readonly db: Kysely<UploadBlobTable>,
    private readonly urlPrefix = '/uploads/',
  ) {}

  async put(key: string, bytes: Buffer, contentType: string): Promise<{ url: string }> {
    await this.db
      .insertInto('upload_blob')
      .values({
        key: checkedKey(key),
        contentType,
        size: bytes.length,
        bytes,
        updateTime: timeText(new Date()),
      })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    return { url: `${this.urlPrefix}${key}` };
  }

  async get(key: string): Promise<StoredBlob | undefined> {
    const row = await this.db
      .selectFrom('upload_blob')
      .select(['bytes', 'contentType'])
      .where('key', '=', checkedKey(key))
      .executeTakeFirst();
    return row && { bytes: Buffer.from(row.bytes), contentType: row.contentType };
  }

  async size(key: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('upload_blob')
      .select('size')
      .where('key', '=', checkedKey(key))
      .executeTakeFirst();
    return row ? Number(row.size) : undefined;
  }

  async list(prefix: string): Promise<BlobEntry[]> {
    const clean = cleanPrefix(prefix);
    // Keys hold no `%` or `_`-free guarantee (`_` is allowed): compare the prefix with substr, not LIKE.
    const start = clean ? `${clean}/` : '';
    const rows = await this.db
      .selectFrom('upload_blob')
      .select(['key', 'size', 'updateTime'])
      .where((eb) => eb(eb.fn('substr', ['key', eb.val(1), eb.val(start.length)]), '=', start))
      .orderBy('key')
      .execute();
    return listingOf(
      clean,
      rows.map((r) => ({
        key: r.key,
        size: Number(r.size),
        updated: new Date(`${r.updateTime.replace(' ', 'T')}Z`),
      })),
      this.urlPrefix,
    );
  }
}

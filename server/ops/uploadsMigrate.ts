/**
 * Moving uploads from the disk to a shared store (issue 20 item 4; `npm run uploads:migrate -- --to
 * pg|s3`, scripts/uploads-migrate.ts): every file under `<DATA_DIR>/uploads` whose name is a valid
 * BlobStore key is put into `target` under the same key, so the URLs the database holds
 * (`/uploads/<key>`) stay right. Idempotent: a key the target already holds with the same size is skipped
 * (keys are content-addressed: same key, same bytes), so a second run, or a run after an interruption,
 * copies only what is missing. The disk files are left in place (remove them once the servers use the
 * new store). The content type is found by content (common/fileTypes.ts `detectFileKind`).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { detectFileKind } from '../../common/fileTypes';
import { isValidKey, type BlobStore } from '../storage/blobStore';

/** What a run did: keys copied, keys already there, files that are no valid key (left alone). */
export interface MigrateReport {
  copied: string[];
  skipped: string[];
  ignored: string[];
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(
    (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return [];
      throw e;
    },
  );
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

/**
 * Copies the files of `uploadsDir` into `target` (see the module doc).
 * @throws the store's error on the first failed put (what was copied before stays; run again)
 */
export async function migrateUploads(uploadsDir: string, target: BlobStore): Promise<MigrateReport> {
  const report: MigrateReport = { copied: [], skipped: [], ignored: [] };
  for (const key of await filesUnder(uploadsDir)) {
    if (!isValidKey(key) || key.endsWith('.tmp')) {
      report.ignored.push(key);
      continue;
    }
    const bytes = await readFile(join(uploadsDir, ...key.split('/')));
    if ((await target.size(key)) === bytes.length) {
      report.skipped.push(key);
      continue;
    }
    const mime = detectFileKind(bytes, key)?.mime ?? 'application/octet-stream';
    await target.put(key, bytes, mime);
    report.copied.push(key);
  }
  return report;
}

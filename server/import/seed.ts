/**
 * The first-start seed: on an empty registry (no authors), loads the shipped Tate sample
 * (server/db/seed/: 948 artists, 2,000 artworks, CC0, see ATTRIBUTION.md there) through the same import
 * pipeline as `npm run import` (importer.ts). Rows that break the registry's rules (about 170 artworks
 * with a title, medium or dimensions wider than 60, or more than 9 images, and 3 artists with names
 * wider than 60) are rejected there, as in any import; the log line says how many. Each seeded record
 * gets its audit row, actor `system` ({@link SEED_ACTOR}).
 */
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database';
import type { WriteActor } from '../db/audit';
import { importTate, summaryLine, type ImportOptions, type ImportSummary } from './importer';

/** The shipped seed files. */
export const SEED_FILES = {
  artists: fileURLToPath(new URL('../db/seed/artists.sample.json.gz', import.meta.url)),
  artworks: fileURLToPath(new URL('../db/seed/artworks.sample.json.gz', import.meta.url)),
};

/** The audit actor of the seeded records. */
export const SEED_ACTOR: WriteActor = {
  accountId: null,
  account: 'system',
  call: 'first start: seed (Tate sample)',
};

/** Where the seed's one log line goes: a function, or a logger with `info` (pino/Fastify, `console`). */
export type SeedLog = ((msg: string) => void) | { info: (msg: string) => void };

/**
 * Seeds the registry when the authors table is empty; does nothing otherwise.
 * @param opts.reportFile where to write the rejected seed rows (JSON Lines); none when omitted
 * @param opts.onProgress the import's progress reports (the server's /metrics)
 * @param opts.files the Tate files to load instead of the shipped sample
 * @returns the import summary, or null when the database already had authors
 * @throws ImportBatchError when a batch fails (that batch is rolled back)
 */
export async function seedIfEmpty(
  db: Kysely<Database>,
  log: SeedLog,
  opts: {
    reportFile?: string;
    onProgress?: ImportOptions['onProgress'];
    /** Other files than the shipped ones (tests: a small sample with broken rows). */
    files?: { artistsFile: string; artworksFile: string };
  } = {},
): Promise<ImportSummary | null> {
  const { n } = await db
    .selectFrom('authors')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(n) > 0) return null;
  const summary = await importTate(db, {
    artistsFile: opts.files?.artistsFile ?? SEED_FILES.artists,
    artworksFile: opts.files?.artworksFile ?? SEED_FILES.artworks,
    reportFile: opts.reportFile,
    onProgress: opts.onProgress,
    actor: SEED_ACTOR,
  });
  const line =
    `seed (Tate sample, CC0): artists ${summaryLine(summary.artists)}; artworks ${summaryLine(summary.artworks)}` +
    ' (rejected rows break the registry rules, e.g. wider than 60)' +
    (opts.reportFile ? `; report ${opts.reportFile}` : '') +
    ` in ${summary.seconds.toFixed(1)} s`;
  if (typeof log === 'function') log(line);
  else log.info(line);
  return summary;
}

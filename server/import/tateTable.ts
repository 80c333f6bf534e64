/**
 * Tate-format JSON in the console's import (kernel/server/importJobs.ts): a JSON file of Tate artwork rows
 * (Tate's own layout, ../shared/data/tate/README.md from the repository root) uploaded for the artworks
 * resource is mapped row by row through the SAME code as `npm run import` (validate.ts `checkArtwork`:
 * the source schema `import/tateArtwork` and mapping.ts `mapArtwork`), not a copy:
 * - the body is the mapped artwork (`artwork.create` shape), its author the registry author imported
 *   from `contributors[0].id` (authors.sourceId), as the command line resolves it;
 * - the key is the command line's: `sourceId` = acno and `sourceDigest` = SHA-256 of the row's canonical
 *   JSON (mapping.ts `sourceDigest`), so a row the command line imported is found again (unchanged when
 *   the mapping gives the stored values) and a second console import of the same file changes nothing;
 * - the source layer's reasons (shape, unknown author) become the row's FieldErrors; the registry's
 *   rules are checked by the import job with the schema's own validators, as for any row.
 */
import type { Kysely } from 'kysely';
import type { FieldError } from '../../common/envelope';
import { mapArtwork, primaryArtistId, SOURCE_FIELD, sourceDigest } from './mapping';
import type { TableRow } from './table';
import { checkArtwork } from './validate';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Registry field by Tate field (SOURCE_FIELD reversed), to label a source reason with the registry's field. */
const TARGET_FIELD = Object.fromEntries(Object.entries(SOURCE_FIELD).map(([target, src]) => [src, target]));

/** True when `rows` (a JSON file's rows) are Tate artwork rows: objects with `acno` and `contributors`. */
export function isTateArtworks(rows: TableRow[]): boolean {
  return (
    rows.length > 0 && rows.every((r) => isObj(r.cells) && 'acno' in r.cells && 'contributors' in r.cells)
  );
}

/**
 * The rows of a Tate artworks file as the import job takes them: `body` (mapped), `key` (sourceId and
 * sourceDigest) and `errors` (the source layer's reasons), `line` kept.
 * @param db the registry's database (authors are looked up by their Tate id, `sourceId`)
 */
export async function tateArtworkRows(db: Kysely<any>, rows: TableRow[]): Promise<TableRow[]> {
  const artistIds = [...new Set(rows.map((r) => primaryArtistId(r.cells)).filter((id) => id !== undefined))];
  const authorOf = new Map<number, number>();
  for (let i = 0; i < artistIds.length; i += 500)
    for (const a of await db
      .selectFrom('authors')
      .select(['id', 'sourceId'])
      .where('sourceId', 'in', artistIds.slice(i, i + 500))
      .execute())
      authorOf.set(Number(a.sourceId), Number(a.id));
  return rows.map(({ line, cells }) => {
    const artistId = primaryArtistId(cells);
    const authorId = artistId === undefined ? undefined : authorOf.get(artistId);
    const { reasons } = checkArtwork(cells, authorId);
    // The registry layer's reasons (those with a target) are left to the job's own validation, which
    // keeps their params for the texts in the user's language; the source layer's are kept here.
    const errors: FieldError[] = reasons
      .filter((r) => r.target === undefined)
      .map((r) => ({
        field: TARGET_FIELD[r.field] ?? r.field,
        keyword: r.keyword,
        params: {},
        message: r.message,
      }));
    if (artistId !== undefined && authorId === undefined)
      errors.push({
        field: 'author',
        keyword: 'reference',
        params: { id: artistId },
        message: `author: no author was imported from Tate artist ${artistId} (contributors.0.id)`,
      });
    // The registry's rules are checked by the job: the mapped record is taken whatever they say.
    const body: Obj = errors.length ? {} : { ...mapArtwork(cells, authorId!) };
    const acno = typeof cells.acno === 'string' && cells.acno ? cells.acno : undefined;
    return {
      line,
      cells: {},
      body,
      key: acno ? { sourceId: acno, sourceDigest: sourceDigest(cells) } : undefined,
      errors,
    };
  });
}

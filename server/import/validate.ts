/**
 * Validation of Tate rows for the import, in two layers, both reported in full (every reason, not the
 * first one):
 * 1. the source format: `schemas/import/tateArtwork.schema.json` / `tateArtist.schema.json` (shape and
 *    the import's own requirements);
 * 2. the registry: the mapped record against `artwork.create` / `author.create`, the same schemas the
 *    API and the console use (x-maxWidth, x-plainText, x-notFuture, x-ordered, maxItems...).
 * Registry field paths are translated back to the Tate field (`SOURCE_FIELD`), so a reason reads
 * "title (artWorkName): must be at most 60 wide ...". Reasons of both layers about the same source
 * field and keyword are reported once.
 */
import { formatErrors, type SchemaValidator } from '../../kernel/dialect/schemaRegistry';
import { validatorFor } from '../../kernel/dialect/validators';
import { importValidators } from '../../common/generated/importValidators';
import { mapArtist, mapArtwork, SOURCE_FIELD, type MappedArtwork, type MappedAuthor } from './mapping';

/** Why a row was refused: the Tate field, the registry field it maps to, the rule, a readable message. */
export interface Reason {
  /** Tate field path, e.g. `title`, `contributors.0.id`, `dateRange`; `row` for the row as a whole. */
  field: string;
  /** Registry field path when the rule is the registry's, e.g. `artWorkName`, `baseInfo.size`. */
  target?: string;
  /** The rule: a JSON Schema keyword (`x-maxWidth`, `type`, `required`, ...) or an import rule
   * (`reference` unknown author, `conflict` same source id with other content, `json` unparsable). */
  keyword: string;
  message: string;
}

/** The validator of `id`: precompiled by codegen, the registry's schemas and the Tate source schemas alike. */
function compiled(id: string): SchemaValidator {
  if (!id.startsWith('import/')) return validatorFor(id);
  const v = Object.hasOwn(importValidators, id) ? importValidators[id] : undefined;
  if (!v) throw new Error(`Unknown schema "${id}"`);
  return v;
}

function sourceReasons(validate: SchemaValidator, row: unknown): Reason[] {
  if (validate(row)) return [];
  return formatErrors(validate.errors).map((e) => ({
    field: e.field || 'row',
    keyword: e.keyword,
    message: e.field ? e.message : `row: ${e.message.replace(/^body: /, '')}`,
  }));
}

function targetReasons(validate: SchemaValidator, record: unknown): Reason[] {
  if (validate(record)) return [];
  return formatErrors(validate.errors).map((e) => {
    const field = SOURCE_FIELD[e.field] ?? e.field;
    const detail = e.message.slice(e.message.indexOf(': ') + 2);
    return {
      field,
      target: e.field,
      keyword: e.keyword,
      message: field === e.field ? `${field}: ${detail}` : `${field} (${e.field}): ${detail}`,
    };
  });
}

/** Merges reason lists, keeping the first reason per (field, keyword). */
export function mergeReasons(...lists: Reason[][]): Reason[] {
  const seen = new Set<string>();
  const out: Reason[] = [];
  for (const r of lists.flat()) {
    const key = `${r.field}|${r.keyword}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(r);
  }
  return out;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks a Tate artwork row and maps it. `authorId` is the registry id of contributors[0], or undefined
 * when that artist is unknown (the caller adds the `reference` reason; a placeholder id is used so that
 * every other rule is still checked).
 * @returns the mapped record when `reasons` is empty.
 */
export function checkArtwork(
  row: unknown,
  authorId: number | undefined,
): { record: MappedArtwork | null; reasons: Reason[] } {
  const src = sourceReasons(compiled('import/tateArtwork'), row);
  if (!isObj(row)) return { record: null, reasons: src };
  const record = mapArtwork(row, authorId ?? 1);
  const reasons = mergeReasons(src, targetReasons(compiled('artwork.create'), record));
  return { record: reasons.length ? null : record, reasons };
}

/** Checks a Tate artist row and maps it to an author. @returns the mapped author when `reasons` is empty. */
export function checkArtist(row: unknown): { record: MappedAuthor | null; reasons: Reason[] } {
  const src = sourceReasons(compiled('import/tateArtist'), row);
  if (!isObj(row)) return { record: null, reasons: src };
  const record = mapArtist(row);
  const reasons = mergeReasons(src, targetReasons(compiled('author.create'), record));
  return { record: reasons.length ? null : record, reasons };
}

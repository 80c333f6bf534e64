/**
 * Which fields of a registry record its on-chain digest covers (docs/ledger.md section 7): the record as
 * the API answers it, without the chain bookkeeping fields and the derived display fields. Browser-safe.
 */

export type RecordKind = 'author' | 'artwork';

/**
 * Chain bookkeeping fields, and the kernel's revision (kernel/dialect/revision.ts: it moves when the
 * bookkeeping is written), left out of every record's digest.
 */
export const BOOKKEEPING_FIELDS = [
  'revision',
  'isBlock',
  'status',
  'chain',
  'blockTime',
  'chainDigest',
  'chainVersion',
] as const;
/**
 * Derived display fields and publishing settings, left out per kind: an author's work count and the
 * public-page switch with its link and code (`wxIsEnable`, `wxUrl`, `wxCode`, `wxCreateTime`: switching
 * the public page on or off does not change the record); an artwork's author name.
 */
export const DERIVED_FIELDS: Record<RecordKind, readonly string[]> = {
  author: ['artWorks', 'wxIsEnable', 'wxUrl', 'wxCode', 'wxCreateTime'],
  artwork: ['authorName'],
};

/** The part of `record` its digest covers. */
export function digestFields(kind: RecordKind, record: object): Record<string, unknown> {
  const skip = new Set<string>([...BOOKKEEPING_FIELDS, ...DERIVED_FIELDS[kind]]);
  return Object.fromEntries(Object.entries(record).filter(([k]) => !skip.has(k)));
}

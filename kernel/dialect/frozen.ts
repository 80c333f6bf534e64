/**
 * The `x-frozen` predicate (kernel/dialect/keywords.ts), shared by the kernel, which refuses to change or delete a
 * final record, and the console, which offers no Edit, Delete or selection box for it.
 */

/** True when `record` has every value of `when` (strict equality per property): the record is final. */
export function isFinal(
  when: Record<string, unknown> | null | undefined,
  record: Record<string, unknown> | null | undefined,
): boolean {
  if (!when || !record) return false;
  return Object.entries(when).every(([k, v]) => record[k] === v);
}

/**
 * The revision every stored record carries (kernel/server/model.ts adds the column; scripts/codegen/storage.ts
 * the trigger that makes it one more at every update of the row, whoever writes it). It is answered with
 * the record, and taken by an update (and a one-record delete) as the revision the write started from:
 * the `If-Match` header (`"7"`, RFC 9110 entity-tag syntax) or the body's `revision`. A stale one is
 * refused with 409 and the current record (kernel/server/repository.ts). A module of its own: the ledger's
 * bundled tools read the name without the schema registry.
 */
export const REVISION = 'revision';

/** The revision a write names: a positive 32-bit integer, like the column. */
export const REVISION_SCHEMA = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;

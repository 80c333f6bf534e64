/**
 * Cross-field rules (`x-ordered`, `x-distinct`) of a partial update, checked on the merged record (the
 * stored writable fields + the patch) with the schema's own `<id>.create` validator, and reported on a
 * field the patch changes (400, envelope `request.invalid` with `data.errors`). Used by the generic
 * repository's update (repository.ts).
 */
import { msg } from '../../common/messages/index';
import { Codes, type FieldError } from '../../common/envelope';
import { formatErrors, schemas } from '../dialect/schemaRegistry';
import { validatorFor } from '../dialect/validators';
import { ApiError } from '../../server/errors';
import type { ResourceModel } from './model';
import type { RecordOut } from './records';

/** Rules relating two fields: a partial update is re-checked on the merged record for these. */
const CROSS_FIELD = new Set(['x-ordered', 'x-distinct']);

/** Cross-field rules on the merged record (stored writable fields + patch), reported on a patched field. */
export function checkMerged(model: ResourceModel, current: RecordOut, patch: Record<string, unknown>): void {
  const schema = schemas[model.schemaId];
  const merged: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(schema.properties))
    if (!p.readOnly && current[name] !== undefined) merged[name] = current[name];
  Object.assign(merged, structuredClone(patch));
  const validate = validatorFor(`${model.schemaId}.create`);
  if (validate(merged)) return;
  const errors: FieldError[] = [];
  for (const e of formatErrors(validate.errors)) {
    if (!CROSS_FIELD.has(e.keyword)) continue;
    const params = e.params as { first?: string; second?: string };
    // Both rules are reported at the pair's second field (`<object>.b`); the pair's object is its parent.
    let field = e.field;
    if (!(field.split('.')[0] in patch)) {
      // The rule relates two fields; report it on the one this call changes (a top-level pair's first).
      if (params.first && !field.includes('.') && params.first in patch) field = params.first;
      else continue;
    }
    const other = field === params.first ? params.second : params.first;
    const message =
      field === e.field
        ? e.message
        : e.keyword === 'x-distinct'
          ? `${field}: must differ from ${other}`
          : `${field}: must not be after ${other}`;
    errors.push({ ...e, field, message });
  }
  if (errors.length)
    throw new ApiError(Codes.INVALID, 400, msg('request.invalid', { part: 'body', schema: model.schemaId }), {
      errors,
    });
}

/**
 * `x-schemaFrom` (kernel/dialect/keywords.ts): a value that must satisfy a JSON Schema stored in another
 * record, e.g. a contract's `params` and the `paramsSchema` of the template its `templateId` names.
 *
 * - `schemaFromSpecs(schema)` (kernel/dialect/schemaFromSpecs.ts): every place that declares it, at any
 *   depth (a top-level property, a nested object's property, an array's items, a map's values), each with
 *   the top-level `x-references` property naming the record that holds the schema.
 * - `checkSchemaFrom(db, model, specs, values, current?)`: inside a create/update transaction, validates the
 *   value at each place (the value being written, else the stored one when only the reference changes;
 *   every item of a list, every value of a map) against the referenced record's schema, with the run-time
 *   ajv of kernel/dialect/schemaCompiler.ts (its custom keywords and the data policy of docs/api.md "Text",
 *   "Numbers"); defaults of the referenced schema are filled into a value the write sends (a reference
 *   changed alone checks the stored value and leaves it as it is). A top-level place left absent is checked
 *   as `{}`; a nested one absent or null has nothing to check. Refusal: 400 `request.invalid` with one
 *   FieldError per parameter, `field` `<path>.<name>` (`params.note`, `steps.0.params.note`), `label` the
 *   parameter's own `x-i18n` {en, zh} (so every language names it). A referenced schema that ajv cannot
 *   compile is a 400 on the top-level property (keyword `schema`).
 * Compiled validators are kept per schema text (at most {@link MAX_CACHED}, oldest dropped first).
 */
import type Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import type { Kysely } from 'kysely';
import { Codes, type FieldError } from '../../common/envelope';
import { msg } from '../../common/messages/index';
import { formatErrors } from '../dialect/schemaRegistry';
import { createAjv } from '../dialect/schemaCompiler';
import { ApiError, invalidField } from '../../server/errors';
import type { ResourceModel } from './model';
import { schemaFromSpecs, schemaFromTargets, type SchemaFromSpec } from '../dialect/schemaFromSpecs';

export { schemaFromSpecs, type SchemaFromSpec };

/** Largest number of compiled referenced schemas kept. */
export const MAX_CACHED = 200;

let ajv: Ajv | undefined;
const cache = new Map<string, { schema: object; validate: ValidateFunction }>();

/**
 * The validator of a stored JSON Schema (its text as stored); throws ajv's error for a schema it cannot
 * compile.
 */
export function compiledSchema(text: string): ValidateFunction {
  const hit = cache.get(text);
  if (hit) {
    cache.delete(text);
    cache.set(text, hit);
    return hit.validate;
  }
  ajv ??= createAjv();
  const schema = JSON.parse(text) as object;
  const validate = ajv.compile(schema);
  cache.set(text, { schema, validate });
  if (cache.size > MAX_CACHED) {
    const [oldest, entry] = cache.entries().next().value!;
    cache.delete(oldest);
    ajv.removeSchema(entry.schema);
  }
  return validate;
}

/** The `{en, zh}` label of parameter `name` in a stored schema, when it has one. */
function labelOf(schemaText: object, name: string): { en: string; zh: string } | undefined {
  const l = (schemaText as { properties?: Record<string, { 'x-i18n'?: { en?: string; zh?: string } }> })
    .properties?.[name]?.['x-i18n'];
  return l?.en && l?.zh ? { en: l.en, zh: l.zh } : undefined;
}

/**
 * Checks every `x-schemaFrom` place of a write (see the module doc). `values` are the column values
 * about to be written (JSON columns as text); the checked value, defaults filled, replaces its column.
 * @param current the stored record (update), for the reference or value the patch does not name
 */
export async function checkSchemaFrom(
  db: Kysely<any>,
  model: ResourceModel,
  specs: SchemaFromSpec[],
  values: Record<string, unknown>,
  current?: Record<string, unknown>,
): Promise<void> {
  const parsed = new Map<string, unknown>();
  const errors: FieldError[] = [];
  for (const { property, path, reference, field } of specs) {
    if (!(property in values) && !(reference in values) && current) continue;
    const refId = reference in values ? values[reference] : current?.[reference];
    if (refId === undefined || refId === null) continue;
    const ref = model.references.find((r) => r.field === reference)!;
    const row = (await db.selectFrom(ref.table).select(field).where('id', '=', refId).executeTakeFirst()) as
      Record<string, unknown> | undefined;
    if (!row) continue; // the reference check answers for a missing record
    const text = typeof row[field] === 'string' ? (row[field] as string) : JSON.stringify(row[field]);
    let validate: ValidateFunction;
    try {
      validate = compiledSchema(text);
    } catch (e) {
      throw invalidField(
        property,
        'schema',
        `the ${field} of ${reference} ${String(refId)} cannot be used: ${(e as Error).message}`,
      );
    }
    // The property's value as it will stand (parsed once for all its places): the one written, else the
    // stored one; a top-level place absent is checked as `{}` (its required parameters).
    if (!parsed.has(property)) {
      const raw = property in values ? values[property] : current?.[property];
      parsed.set(property, typeof raw === 'string' ? JSON.parse(raw) : structuredClone(raw));
    }
    if (!path.length && parsed.get(property) == null) parsed.set(property, {});
    for (const target of schemaFromTargets(parsed.get(property), property, path)) {
      if (validate(target.value)) continue;
      const schema = JSON.parse(text) as object;
      for (const e of formatErrors(validate.errors, target.field)) {
        const name = e.field.slice(target.field.length + 1).split('.')[0];
        const label = name ? labelOf(schema, name) : undefined;
        errors.push(
          label
            ? { ...e, label, message: `${e.field} ("${label.en}")${e.message.slice(e.field.length)}` }
            : e,
        );
      }
    }
    // Defaults are filled into a value this write sends (ajv's useDefaults changed it in place); a
    // reference changed alone leaves the stored value as it is (an update changes exactly the fields it names).
    if (property in values) values[property] = JSON.stringify(parsed.get(property));
  }
  // every value that breaks its schema, at every place, in one answer
  if (errors.length)
    throw new ApiError(Codes.INVALID, 400, msg('request.invalid', { part: 'body', schema: model.schemaId }), {
      errors,
    });
}

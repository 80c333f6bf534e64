/**
 * `x-schemaFrom` (kernel/dialect/keywords.ts): a property whose value must satisfy a JSON Schema stored in another
 * record, e.g. a contract's `params` and the `paramsSchema` of the template its `templateId` names.
 *
 * - `schemaFromSpecs(schema)`: the properties that declare it, `{ property, reference, field }`.
 * - `checkSchemaFrom(db, model, values, current?)`: inside a create/update transaction, validates each such
 *   property (the value being written, else the stored one when only the reference changes) against the
 *   referenced record's schema, with the run-time ajv of kernel/dialect/schemaCompiler.ts (its custom keywords and
 *   the data policy of docs/api.md "Text", "Numbers"); defaults of the referenced schema are filled into a
 *   value the write sends (a reference changed alone checks the stored value and leaves it as it is). Refusal: 400 `request.invalid` with one FieldError per parameter, `field`
 *   `<property>.<name>`, `label` the parameter's own `x-i18n` {en, zh} (so every language names it).
 *   A referenced schema that ajv cannot compile is a 400 on the property itself (keyword `schema`).
 * Compiled validators are kept per schema text (at most {@link MAX_CACHED}, oldest dropped first).
 */
import type Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import type { Kysely } from 'kysely';
import { Codes, type FieldError } from '../../common/envelope';
import { msg } from '../../common/messages/index';
import { formatErrors, type ResourceSchema } from '../dialect/schemaRegistry';
import { createAjv } from '../dialect/schemaCompiler';
import { ApiError, invalidField } from '../../server/plugins/app/errors';
import type { ResourceModel } from './model';

/** One `x-schemaFrom` property. */
export interface SchemaFromSpec {
  /** The property validated, e.g. `params`. */
  property: string;
  /** The `x-references` property naming the record that holds the schema, e.g. `templateId`. */
  reference: string;
  /** The field of that record holding the JSON Schema, e.g. `paramsSchema`. */
  field: string;
}

/** The `x-schemaFrom` properties of `schema`. */
export function schemaFromSpecs(schema: ResourceSchema): SchemaFromSpec[] {
  return Object.entries(schema.properties).flatMap(([property, p]) => {
    const spec = p?.['x-schemaFrom'] as { reference?: string; field?: string } | undefined;
    if (!spec) return [];
    if (!spec.reference || !spec.field || !schema.properties[spec.reference]?.['x-references'])
      throw new Error(
        `${schema.$id}.${property}: x-schemaFrom needs { reference: <x-references property>, field }`,
      );
    return [{ property, reference: spec.reference, field: spec.field }];
  });
}

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
 * Checks every `x-schemaFrom` property of a write (see the module doc). `values` are the column values
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
  for (const { property, reference, field } of specs) {
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
    const raw = property in values ? values[property] : current?.[property];
    const value = typeof raw === 'string' ? JSON.parse(raw) : structuredClone(raw ?? {});
    if (!validate(value)) {
      const schema = JSON.parse(text) as object;
      const errors: FieldError[] = formatErrors(validate.errors, property).map((e) => {
        const name = e.field.split('.')[1];
        const label = name ? labelOf(schema, name) : undefined;
        return label
          ? { ...e, label, message: `${e.field} ("${label.en}")${e.message.slice(e.field.length)}` }
          : e;
      });
      throw new ApiError(
        Codes.INVALID,
        400,
        msg('request.invalid', { part: 'body', schema: model.schemaId }),
        {
          errors,
        },
      );
    }
    // Defaults are filled into a value this write sends; a reference changed alone leaves the stored value
    // as it is (an update changes exactly the fields it names).
    if (property in values) values[property] = JSON.stringify(value);
  }
}

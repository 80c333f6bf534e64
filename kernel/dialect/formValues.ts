/**
 * Form values as the API takes them (shared by the console's form validation, src/schema-ui/validate.ts,
 * and its dataProvider, src/dataProvider/index.ts, so that what is validated is what is sent).
 *
 * react-admin gives `null` for an emptied input, and for an input of an array item or nested object whose
 * property the record lacks. Where the property does not allow `null` (JSON Schema `type` without "null",
 * or an `enum` without it), that `null` means "absent": it is dropped, so an emptied required field reads
 * "Required" rather than "must be string", and an untouched array item keeps its property absent.
 */
import type { PropertySchema, ResourceSchema } from './schemaRegistry';
import { deref } from './deref';

type Values = Record<string, unknown>;

/** Whether `prop` accepts `null` (its `type` lists "null", or its `enum` holds null). */
export function allowsNull(prop: PropertySchema): boolean {
  const types = ([] as string[]).concat(prop.type ?? []);
  return types.includes('null') || (Array.isArray(prop.enum) && prop.enum.includes(null));
}

function prepareObject(
  schema: ResourceSchema,
  parent: { properties?: Record<string, PropertySchema>; required?: unknown },
  values: Values,
  top: boolean,
): Values {
  const props = parent.properties ?? {};
  const out: Values = {};
  for (const [k, v] of Object.entries(values ?? {})) {
    const raw = props[k];
    if (!raw || v === undefined) continue;
    const prop = deref(schema, raw);
    if (top && prop.readOnly) continue;
    if (v === null && !allowsNull(prop)) continue;
    const value = prepareValue(schema, prop, v);
    if (value !== undefined) out[k] = value;
    else if (requires(parent, k)) out[k] = {};
  }
  return out;
}

/** Whether the object schema `parent` lists `name` in its `required`. */
export function requires(parent: { required?: unknown }, name: string): boolean {
  return Array.isArray(parent.required) && parent.required.includes(name);
}

/**
 * `v`, a value of `prop`, with the disallowed nulls and unknown keys of its nested objects and array
 * items dropped (recursively); a scalar is returned as it is. A nested object left empty whose schema
 * has `required` properties is `undefined` (absent): react-admin renders the inputs of an optional object
 * the record lacks and gives it `{}`, which its `required` would refuse (the fuzzer's `fzTourGrant6`).
 * The caller keeps it (as `{}`) where its own parent requires it, so the error names the inner fields.
 */
export function prepareValue(schema: ResourceSchema, prop: PropertySchema, v: unknown): unknown {
  if (v && typeof v === 'object' && !Array.isArray(v) && prop.properties) {
    const out = prepareObject(schema, prop, v as Values, false);
    const required = Array.isArray(prop.required) && prop.required.length > 0;
    return required && Object.keys(out).length === 0 ? undefined : out;
  }
  if (Array.isArray(v) && prop.items) {
    const items = deref(schema, prop.items);
    return v.map((item) =>
      Array.isArray(item)
        ? prepareValue(schema, items, item) // an inner list of a list of lists
        : item && typeof item === 'object' && items.properties
          ? prepareObject(schema, items, item as Values, false)
          : item,
    );
  }
  return v;
}

/**
 * The values of a create (`create`) or edit (`update`) form as they are validated: writable, known
 * fields, disallowed nulls dropped at every level; `id` kept on update.
 */
export function prepareValues(schema: ResourceSchema, values: Values, mode: 'create' | 'update'): Values {
  const out = prepareObject(schema, schema, structuredClone(values ?? {}), true);
  if (mode === 'update' && values?.id !== undefined) out.id = values.id;
  return out;
}

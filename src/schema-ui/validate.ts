/**
 * Form validation with the SAME validators the server runs (kernel/dialect/schemaRegistry.ts: the precompiled
 * `<schemaId>.create` / `.update` variants, `formValidatorFor`, and `formatErrors`; no ajv compiler in the
 * console, so its CSP needs no 'unsafe-eval'), as a react-admin record-level `validate`
 * function. Each error becomes `{ message: 'baas.validation.<keyword>', args }` (src/i18n/validation.ts),
 * nested like the form values (`{ baseInfo: { size: … } }`), so react-admin shows it under the field in
 * the current language.
 *
 * Before validating, the values are prepared as the dataProvider will send them
 * (kernel/dialect/formValues.ts): readOnly and unknown fields left out, and `null` (react-admin's value for
 * an emptied input) dropped where the property does not allow null, so an emptied required field reads
 * "Required" rather than "must be string".
 */
import type { FieldError } from '../../common/envelope';
import { formatErrors, type PropertySchema, type ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { formValidatorFor } from '../../kernel/dialect/formValidator';
import { messageFor, type RaMessage } from '../i18n/validation';
import { deref } from '../../kernel/dialect/kinds';
import { prepareValues } from '../../kernel/dialect/formValues';
import { loadedSchema, paramFieldErrors } from './schemaFrom';
import {
  schemaFromSpecs,
  schemaFromTargets,
  type SchemaFromSpec,
} from '../../kernel/dialect/schemaFromSpecs';
import { i18nProvider } from '../i18n';

type Values = Record<string, unknown>;

const specs = new WeakMap<ResourceSchema, SchemaFromSpec[]>();
/** The `x-schemaFrom` places of `schema` (kernel/dialect/schemaFromSpecs.ts), found once per schema. */
function specsOf(schema: ResourceSchema): SchemaFromSpec[] {
  let found = specs.get(schema);
  if (!found) specs.set(schema, (found = schemaFromSpecs(schema)));
  return found;
}

export { prepareValues };

/** The label of a dotted field of `schema` in `locale` (its `x-i18n`), or the field key itself. */
export function fieldLabel(schema: ResourceSchema, dotted: string, locale: string): string {
  let props: Record<string, PropertySchema> | undefined = schema.properties;
  let prop: PropertySchema | undefined;
  for (const seg of dotted.split('.').filter((x) => !/^\d+$/.test(x))) {
    prop = props?.[seg] ? deref(schema, props[seg]) : undefined;
    if (!prop) return dotted.split('.').pop()!;
    props = prop.properties ?? (prop.items ? deref(schema, prop.items).properties : undefined);
  }
  const labels = prop?.['x-i18n'] as Record<string, string> | undefined;
  return labels?.[locale] ?? labels?.en ?? dotted.split('.').pop()!;
}

/**
 * Rules that relate two fields (x-ordered, x-distinct) name the other field in their message: give it
 * its label in `locale` rather than its key. Both are reported at the pair's second field, so the pair
 * lives in that field's parent.
 */
function withFieldLabels(e: FieldError, schema: ResourceSchema, locale: string): FieldError {
  if (e.keyword !== 'x-ordered' && e.keyword !== 'x-distinct') return e;
  const parts = e.field ? e.field.split('.') : [];
  const base = parts.slice(0, -1).join('.');
  const label = (name: unknown) =>
    fieldLabel(schema, base ? `${base}.${String(name)}` : String(name), locale);
  const params = e.params as { first?: unknown; second?: unknown };
  return { ...e, params: { ...e.params, first: label(params.first), second: label(params.second) } };
}

/**
 * Nests dotted-field errors into a react-admin errors object (first error per field wins).
 * @param forMessage adjusts an error before its message is made (e.g. field labels in params)
 */
export function nestErrors(
  errors: FieldError[],
  forMessage: (e: FieldError) => FieldError = (e) => e,
): Record<string, unknown> {
  const out: Record<string, any> = {};
  for (const e of errors) {
    const path = (e.field || '_').split('.');
    let node = out;
    for (const seg of path.slice(0, -1)) {
      if (typeof node[seg] !== 'object' || node[seg] === null || 'message' in node[seg]) node[seg] = {};
      node = node[seg];
    }
    const leaf = path[path.length - 1];
    if (!(leaf in node)) {
      const m = forMessage(e);
      node[leaf] = messageFor(m.keyword, m.params, m.message) satisfies RaMessage;
    }
  }
  return out;
}

/** The schema's field errors for `values` (empty when valid). */
export function schemaErrors(
  schema: ResourceSchema,
  values: Values,
  mode: 'create' | 'update',
): FieldError[] {
  const data = prepareValues(schema, values, mode);
  const validate = formValidatorFor(schema.$id, mode);
  const errors = validate(data) ? [] : formatErrors(validate.errors);
  if (mode === 'update') {
    // The update variant makes every field optional (partial update); a form holds the whole record,
    // so a required field emptied in the form is an error here too.
    for (const f of schema.required ?? [])
      if (!(f in data) && !schema.properties[f]?.readOnly)
        errors.push({
          field: f,
          keyword: 'required',
          params: { missingProperty: f },
          message: `${f}: is required`,
        });
  }
  // `x-schemaFrom` places, at any depth: checked with the referenced record's schema the form has loaded.
  for (const spec of specsOf(schema)) {
    const resource = schema.properties[spec.reference]?.['x-references']?.resource as string | undefined;
    const refSchema = resource && loadedSchema(resource, values?.[spec.reference], spec.field);
    if (!refSchema) continue;
    const top = values?.[spec.property];
    const targets = spec.path.length
      ? schemaFromTargets(top, spec.property, spec.path)
      : [{ field: spec.property, value: top }];
    for (const t of targets) errors.push(...paramFieldErrors(refSchema, t.value, t.field));
  }
  return errors.filter((e) => !(mode === 'update' && e.field === 'id'));
}

/**
 * A react-admin `validate` function for a Create (`create`) or Edit (`update`) form of `schema`.
 * @param locale the language for field labels inside messages (default: the console's current locale)
 */
export function schemaValidator(
  schema: ResourceSchema,
  mode: 'create' | 'update',
  locale: () => string = () => i18nProvider.getLocale(),
) {
  return (values: Values) =>
    nestErrors(schemaErrors(schema, values, mode), (e) => withFieldLabels(e, schema, locale()));
}

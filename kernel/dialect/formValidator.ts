/**
 * The console forms' validators: `formValidatorFor(schemaId, kind)` answers the precompiled standalone
 * code that codegen emitted into common/generated/formValidators.ts (scripts/codegen/validators.ts). A
 * module of its own (not kernel/dialect/schemaRegistry.ts, which the console's entry chunk needs) so that the
 * generated code loads with the first form, not with the login page. No ajv compiler runs here.
 */
import type { FormVariant, SchemaValidator } from './schemaRegistry';
import { formValidators } from '../../common/generated/formValidators';

/**
 * The precompiled validator of the form variant `<schemaId>.<kind>` (bodies' build: no type coercion,
 * `useDefaults` fills absent fields with their `default`): what the console's forms run, and the same
 * function the server runs for that variant (kernel/dialect/validators.ts `validatorFor`).
 * @throws Error for a schema without that variant (not a resource schema, or stale generated code)
 */
export function formValidatorFor(schemaId: string, kind: FormVariant): SchemaValidator {
  const id = `${schemaId}.${kind}`;
  const v = Object.hasOwn(formValidators, id) ? formValidators[id] : undefined;
  if (!v) throw new Error(`Unknown schema "${id}"`);
  return v;
}

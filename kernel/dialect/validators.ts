/**
 * The precompiled validators of every schema and variant (server and tests; the console uses
 * formValidator.ts `formValidatorFor`, which holds only the form variants, to keep its bundle small).
 * Both builds are codegen output (scripts/codegen/validators.ts): ajv standalone code with the options of
 * kernel/dialect/schemaCompiler.ts `createAjv`.
 */
import type { SchemaValidator } from './schemaRegistry';
import { bodyValidators } from '../../common/generated/bodyValidators';
import { queryValidators } from '../../common/generated/queryValidators';

function lookup(map: Record<string, SchemaValidator>, id: string): SchemaValidator {
  const v = Object.hasOwn(map, id) ? map[id] : undefined;
  if (!v) throw new Error(`Unknown schema "${id}"`);
  return v;
}

/**
 * The precompiled validator for `id` (a schema `$id` or `<id>.<variant>`), bodies' build: no type
 * coercion, `useDefaults` fills absent fields with their `default`. For `<id>.create` / `<id>.update` it
 * is the console's function (formValidator.ts `formValidatorFor`).
 * @throws Error for an id codegen has not emitted (an unknown schema, or stale generated code)
 */
export function validatorFor(id: string): SchemaValidator {
  return lookup(bodyValidators, id);
}

/**
 * The precompiled validator for `id` in the query-string build: like {@link validatorFor}, but strings
 * are coerced to the schema's types ("2" → 2, "true" → true).
 * @throws Error for an id codegen has not emitted
 */
export function queryValidatorFor(id: string): SchemaValidator {
  return lookup(queryValidators, id);
}

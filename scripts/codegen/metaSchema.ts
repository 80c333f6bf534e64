/**
 * The dialect's meta-schema check (codegen only): every `schemas/*.schema.json` against
 * `schemas/meta.schema.json` (JSON Schema draft-07, ajv 8, all errors), each failure turned into one
 * {@link DialectError}: the file, the JSON pointer (RFC 6901) of the offending value in that file, and the
 * reason in plain words ("unknown keyword "x-foo" (known: ...)", "must be one of: ...", "is required").
 * The rules a meta-schema cannot say (references to resources that exist, comparable `x-ordered` pairs,
 * icons, ...) are scripts/codegen/dialectRules.ts.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import metaSchema from '../../schemas/meta.schema.json' with { type: 'json' };

export { META_SCHEMA_REF } from '../../kernel/dialect/keywords';

/** The file name of the meta-schema in schemas/ (not a resource schema: codegen's list leaves it out). */
export const META_SCHEMA_FILE = 'meta.schema.json';

/** One refusal: `file` (e.g. `schemas/loan.schema.json`), `pointer` (`/properties/a/type`, `` for the root), `reason`. */
export interface DialectError {
  file: string;
  pointer: string;
  reason: string;
}

/** One line per error: `schemas/loan.schema.json#/properties/a/type: must be one of: ...`. */
export function formatDialectError(e: DialectError): string {
  return `${e.file}#${e.pointer}: ${e.reason}`;
}

/** A JSON pointer (RFC 6901) from path segments: `~` → `~0`, `/` → `~1`. */
export function pointer(...segments: (string | number)[]): string {
  return segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

let validator: ValidateFunction | undefined;

function metaValidator(): ValidateFunction {
  if (!validator) {
    // verbose: each error carries its parent schema (the known keys of an unknown-key error).
    const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, verbose: true });
    addFormats(ajv, ['regex']);
    validator = ajv.compile(metaSchema);
  }
  return validator;
}

const list = (values: unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');

/** The reason of one ajv error, and the pointer it is about (a missing or unknown key: that key's). */
function describe(e: ErrorObject): { pointer: string; reason: string } {
  const p = e.params as Record<string, any>;
  switch (e.keyword) {
    case 'additionalProperties': {
      const known = Object.keys((e.parentSchema as { properties?: object })?.properties ?? {});
      const what =
        e.instancePath === '' || /\/properties\/[^/]+$|\/items$|\/definitions\/[^/]+$/.test(e.instancePath)
          ? 'keyword'
          : 'key';
      return {
        pointer: `${e.instancePath}${pointer(p.additionalProperty)}`,
        reason: known.length
          ? `unknown ${what} "${p.additionalProperty}" (known: ${known.join(', ')})`
          : `unknown ${what} "${p.additionalProperty}"`,
      };
    }
    case 'required':
      return { pointer: `${e.instancePath}${pointer(p.missingProperty)}`, reason: 'is required' };
    case 'enum':
      return { pointer: e.instancePath, reason: `must be one of: ${list(p.allowedValues)}` };
    case 'const':
      return { pointer: e.instancePath, reason: `must be ${JSON.stringify(p.allowedValue)}` };
    case 'type':
      return { pointer: e.instancePath, reason: `must be of type ${[].concat(p.type).join(' or ')}` };
    case 'pattern':
      return { pointer: e.instancePath, reason: `must match the pattern ${p.pattern}` };
    case 'propertyNames':
      return { pointer: `${e.instancePath}${pointer(p.propertyName)}`, reason: 'is not a valid name' };
    case 'format':
      return { pointer: e.instancePath, reason: `must be a valid ${p.format}` };
    default:
      return { pointer: e.instancePath, reason: e.message ?? `fails ${e.keyword}` };
  }
}

/**
 * The meta-schema errors of one parsed schema file (empty when it is in the dialect). One error per
 * pointer; a wrong type hides the other errors at the same pointer, and the `if`/`then` bookkeeping
 * errors and the property-name errors ajv repeats are left out.
 * @param file the path shown in the errors, e.g. `schemas/loan.schema.json`
 */
export function metaSchemaErrors(file: string, schema: unknown): DialectError[] {
  const validate = metaValidator();
  if (validate(schema)) return [];
  const errors = (validate.errors ?? []).filter(
    (e) => e.keyword !== 'if' && !(e.keyword === 'pattern' && e.propertyName !== undefined),
  );
  const typed = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const out: DialectError[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (e.keyword !== 'type' && typed.has(e.instancePath)) continue;
    const d = describe(e);
    const key = `${d.pointer} ${d.reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ file, ...d });
  }
  return out;
}

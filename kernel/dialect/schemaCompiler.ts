/**
 * The run-time ajv compiler, for the server, codegen and tests only: the console must not import this
 * module (nor ajv itself), it runs the precompiled validators (kernel/dialect/schemaRegistry.ts
 * `formValidatorFor`; tests/unit/console-bundle.test.ts builds the console and checks that no ajv compiler
 * is in it). The server's precompiled validators are kernel/dialect/validators.ts.
 *
 * - `createAjv`: an ajv 8 instance (strict mode, all errors, `useDefaults`, the formats of keywordRules.ts
 *   `formats` (date, date-time, email, uri; no format library), the custom keywords of keywords.ts) holding every schema and variant; codegen emits its standalone code
 *   (scripts/codegen/validators.ts), the server compiles ad-hoc route schemas with it.
 * - `queryValidatorFor`: the precompiled validators of the query-string build (`coerceTypes`).
 */
import Ajv, { _, Name, type AnySchema } from 'ajv';
import { formats } from './keywordRules';
import { ANNOTATION_KEYWORDS, META_SCHEMA_REF, RULES_IMPORT, registerKeywords } from './keywords';
import { schemasWithVariants, withDataPolicy } from './schemaRegistry';

export interface CompilerOptions {
  /** true for query strings (GET): "2" becomes 2. Bodies are never coerced. */
  coerceTypes?: boolean;
  /**
   * Keep every compiled function's source, ESM flavour, for ajv/dist/standalone (codegen only). Formats
   * then refer to common/keywordRules.ts `formats` (as `keywordRules.formats[...]`), like the keywords.
   */
  standalone?: boolean;
}

/** Keywords that only annotate (no validation, no default): left out of the standalone code. */
const ANNOTATIONS = new Set<string>([...ANNOTATION_KEYWORDS, 'title', 'description', '$comment', 'examples']);
/** Schema maps whose keys are names, not keywords (a property may be called `title`). */
const NAME_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']);

/**
 * A deep copy of `schema` without annotation keywords ({@link ANNOTATIONS}), at every depth; property
 * names are kept. Validation is unchanged; the standalone code, which embeds the root schema (ajv keeps it
 * for error params such as `allowedValues`), gets smaller.
 */
function withoutAnnotations<T>(schema: T): T {
  const walk = (node: unknown, names: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, false));
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (!names && ANNOTATIONS.has(k)) continue;
      out[k] = walk(v, !names && NAME_MAPS.has(k));
    }
    return out;
  };
  return walk(schema, false) as T;
}

/**
 * A new ajv instance with createAjv's options, formats and custom keywords, and no schema: what codegen
 * compiles a schema of its own with (scripts/codegen.ts, a schema not yet in the registry).
 */
export function createBareAjv(opts: CompilerOptions = {}): Ajv {
  const ajv = new Ajv({
    strict: true,
    allErrors: true,
    useDefaults: true,
    coerceTypes: opts.coerceTypes ?? false,
    allowUnionTypes: true,
    ...(opts.standalone
      ? {
          code: {
            source: true,
            esm: true,
            lines: true,
            formats: _`${new Name(RULES_IMPORT)}.formats`,
          },
        }
      : {}),
  });
  // The dialect's formats (keywordRules.ts `formats`); any other `format` is refused by strict mode.
  for (const [name, check] of Object.entries(formats)) ajv.addFormat(name, check);
  registerKeywords(ajv);
  // The schemas name their dialect (`$schema`: schemas/meta.schema.json). At run time ajv checks them as
  // the draft-07 they are; the dialect's own rules are codegen's (scripts/codegen/metaSchema.ts).
  // (ajv's own copy of the draft-07 meta-schema: a JSON import of a package would need an import
  // attribute the server bundle does not keep.)
  const draft07 = ajv.getSchema('http://json-schema.org/draft-07/schema')?.schema;
  const { $id: _draftId, ...draft } = draft07 as Record<string, unknown>;
  ajv.addMetaSchema(draft, META_SCHEMA_REF);
  return ajv;
}

/**
 * A new ajv instance with formats, the custom keywords, every schema and every variant
 * (schemaRegistry.ts `schemasWithVariants`). Its `compile` adds the data policy (schemaRegistry.ts
 * `withDataPolicy`: x-text, x-finite, id ranges) to the schema it is given; `addSchema` does not (the
 * import's Tate source schemas describe the source file, not a request). With `standalone`, the schemas are added
 * {@link withoutAnnotations}.
 */
export function createAjv(opts: CompilerOptions = {}): Ajv {
  const ajv = createBareAjv(opts);
  for (const s of schemasWithVariants({ coerceTypes: opts.coerceTypes }))
    ajv.addSchema(opts.standalone ? withoutAnnotations(s) : s);
  // Ad-hoc schemas (route schemas the server compiles at start-up: login, id parameters, getManyReference
  // queries) get the data policy too; the registry's schemas above already carry it.
  const compile = ajv.compile.bind(ajv);
  ajv.compile = ((schema: AnySchema, meta?: boolean) =>
    compile(
      typeof schema === 'object' ? withDataPolicy(schema, { finite: opts.coerceTypes }) : schema,
      meta,
    )) as typeof ajv.compile;
  return ajv;
}

/**
 * Codegen of the precompiled validators: ajv's standalone code (ajv/dist/standalone, ESM) for every schema
 * of `schemas/` and every request variant (kernel/dialect/schemaRegistry.ts `schemasWithVariants`, driven by
 * `buildVariant`), in two builds, bodies (no coercion, `useDefaults`) and query strings (`coerceTypes: true`):
 * - `common/generated/formValidators.ts` (`formValidators`): the body build of the form variants
 *   (`<id>.create`, `<id>.update`), all the console carries (formValidator.ts `formValidatorFor`);
 * - `common/generated/bodyValidators.ts` (`bodyValidators`): the body build of every id, the form variants
 *   taken from formValidators.ts (kernel/dialect/validators.ts `validatorFor`, server);
 * - `common/generated/queryValidators.ts` (`queryValidators`): the query build of every id
 *   (kernel/dialect/validators.ts `queryValidatorFor`, server);
 * - `common/generated/importValidators.ts` (`importValidators`): the Tate source schemas of the import
 *   (`schemas/import/`, server/import/validate.ts), body options, so the import compiles nothing at run
 *   time (issue 10: precompiled validators).
 * Each module maps an id (`artwork`, `artwork.create`, ...) to its validation function. The ajv instances
 * are kernel/dialect/schemaCompiler.ts `createAjv` with `standalone: true`, so the precompiled code and the
 * server's run-time compile have the same options and keywords. The custom keywords' code calls
 * kernel/dialect/keywordRules.ts (imported as `keywordRules`); ajv's run-time helpers (ucs2length, equal,
 * ValidationError, ...) are imported from ajv's CommonJS files.
 *
 * Output is deterministic: a fresh ajv per build, schemas in file order, names numbered in compile order.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type Ajv from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import { RULES_IMPORT } from '../../kernel/dialect/keywords';

type Build = 'body' | 'query' | 'import';

interface Output {
  path: string;
  /** Name of the exported map id -> validator. */
  exportName: string;
  build: Build;
  /** The ids whose code this module holds. */
  own: (id: string, formIds: Set<string>) => boolean;
  /** Another output whose map this one spreads into its own (imported, not emitted again). */
  includes?: Output;
  /** Schemas of its own instead of the registry's (added to the build's ajv first). */
  schemas?: () => Promise<{ $id: string }[]>;
}

const FORM: Output = {
  path: 'common/generated/formValidators.ts',
  exportName: 'formValidators',
  build: 'body',
  own: (id, formIds) => formIds.has(id),
};

/** The generated modules, relative to the project root. */
export const VALIDATOR_OUTPUTS: Output[] = [
  FORM,
  {
    path: 'common/generated/bodyValidators.ts',
    exportName: 'bodyValidators',
    build: 'body',
    own: (id, formIds) => !formIds.has(id),
    includes: FORM,
  },
  {
    path: 'common/generated/queryValidators.ts',
    exportName: 'queryValidators',
    build: 'query',
    own: () => true,
  },
  {
    // The Tate source formats of the import (server/import/validate.ts), body options, an ajv of its own.
    path: 'common/generated/importValidators.ts',
    exportName: 'importValidators',
    build: 'import',
    own: () => true,
    schemas: async () => [
      (await import('../../schemas/import/tateArtwork.schema.json', { with: { type: 'json' } })).default,
      (await import('../../schemas/import/tateArtist.schema.json', { with: { type: 'json' } })).default,
    ],
  },
];

/** How the generated module (in common/generated/) imports kernel/dialect/keywordRules.ts and schemaRegistry.ts (its types). */
const RULES_MODULE = '../../kernel/dialect/keywordRules';
const REGISTRY_MODULE = '../../kernel/dialect/schemaRegistry';

/**
 * Standalone code refers to ajv's run-time helpers as `require("<module>")` (CommonJS). An ES module
 * imports them as a namespace instead; this helper gives the CommonJS `exports` object from that
 * namespace in Node (where the namespace's `default` is `module.exports`) and in the console's bundler
 * (where it already is the exports, `__esModule` interop).
 */
const CJS_INTEROP = `function cjsExports(ns) {
  return ns.default && ns.default.__esModule ? ns.default : ns;
}`;

/**
 * Turns every `require("m")` of standalone code into an ES namespace import (`imports`) and a binding of
 * its CommonJS exports (`bindings`, see {@link CJS_INTEROP}); `code` refers to the bindings.
 */
function esmImports(code: string): { imports: string[]; bindings: string[]; code: string } {
  const modules: string[] = [];
  const out = code.replace(/require\("([^"]+)"\)/g, (_m, mod: string) => {
    if (!modules.includes(mod)) modules.push(mod);
    return `cjs${modules.indexOf(mod)}`;
  });
  const imports = modules.map(
    (mod, i) => `import * as cjs${i}ns from '${mod.endsWith('.js') ? mod : `${mod}.js`}';`,
  );
  const bindings = modules.map((_mod, i) => `const cjs${i} = cjsExports(cjs${i}ns);`);
  return { imports, bindings, code: out };
}

/** A JavaScript identifier for an id: `artwork.create` → `artwork_create`. */
const ident = (id: string) => id.replace(/[^A-Za-z0-9_$]/g, '_').replace(/^(?=[0-9])/, '_');

/**
 * The text of one generated module (before formatting).
 * @param banner the do-not-edit banner every generated file starts with
 * @param ajv the build's ajv (kernel/dialect/schemaCompiler.ts `createAjv` with `standalone: true`)
 * @throws when two ids give the same identifier, or ajv cannot emit a schema (e.g. a keyword without code)
 */
async function validatorModule(output: Output, banner: string, ajv: Ajv): Promise<string> {
  const { schemasWithVariants, resourceSchemas, FORM_VARIANTS } =
    await import('../../kernel/dialect/schemaRegistry');
  const formIds = new Set(resourceSchemas().flatMap((s) => FORM_VARIANTS.map((kind) => `${s.$id}.${kind}`)));
  const extra = await output.schemas?.();
  for (const schema of extra ?? []) if (!ajv.getSchema(schema.$id)) ajv.addSchema(schema);
  const ids = extra ? extra.map((s) => s.$id) : schemasWithVariants().map((s) => s.$id as string);
  const names = new Map<string, string>();
  for (const id of ids) {
    const name = ident(id);
    if ([...names.values()].includes(name)) throw new Error(`Two schema ids give the export name ${name}`);
    names.set(id, name);
  }
  const own = ids.filter((id) => output.own(id, formIds));
  let source: string;
  try {
    source = standaloneCode(ajv, Object.fromEntries(own.map((id) => [names.get(id)!, id])));
  } catch (e) {
    // e.g. `CodeGen: "code" for keyword0 not defined`: a keyword defined by a `validate` function.
    throw new Error(
      `${(e as Error).message} while emitting ${output.path}: every validation keyword must generate code ` +
        '(kernel/dialect/keywords.ts `ruleKeyword`, its rule in kernel/dialect/keywordRules.ts), so it can run precompiled',
    );
  }
  const { imports, bindings, code } = esmImports(source.replace(/^"use strict";/, ''));
  const rules = code.includes(`${RULES_IMPORT}.`)
    ? [`import * as ${RULES_IMPORT} from '${RULES_MODULE}';`]
    : [];
  const included = output.includes;
  const base = included
    ? [`import { ${included.exportName} } from './${included.path.split('/').pop()!.replace(/\.ts$/, '')}';`]
    : [];
  const entry = (id: string) =>
    output.own(id, formIds)
      ? `  ${JSON.stringify(id)}: ${names.get(id)},`
      : included?.own(id, formIds)
        ? `  ${JSON.stringify(id)}: ${included.exportName}[${JSON.stringify(id)}],`
        : '';
  const what =
    output.build === 'query'
      ? 'query strings: `coerceTypes` ("2" becomes 2), `useDefaults`'
      : output.build === 'import'
        ? "the import's Tate source rows (schemas/import/), body options"
        : 'bodies: no type coercion, `useDefaults` fills absent fields with their default';
  return `${banner}// @ts-nocheck -- ajv standalone code (plain JavaScript); the exported map is typed at the end.
/* eslint-disable */
// Precompiled validators for ${what}. Emitter: scripts/codegen/validators.ts.
import type { SchemaValidator } from '${REGISTRY_MODULE}';
${[...base, ...rules, ...imports].join('\n')}

${CJS_INTEROP}
${bindings.join('\n')}
${code}

/** Validation function by schema id (\`<id>\` or \`<id>.<variant>\`). */
export const ${output.exportName}: Record<string, SchemaValidator> = {
${ids.map(entry).filter(Boolean).join('\n')}
};
`;
}

/**
 * The generated validator modules: path relative to the project root -> content. They are left as ajv
 * writes them (one statement a line), not run through prettier: formatting 1.5 MB of code takes seconds
 * and common/generated/ is outside prettier's and eslint's checks. A missing module is first written as
 * an empty map, since the registry this emitter loads imports it (a stale one is fine: it is regenerated
 * from the schemas, not read).
 */
export async function validatorFiles(root: string, banner: string): Promise<Record<string, string>> {
  for (const { path, exportName } of VALIDATOR_OUTPUTS) {
    const file = join(root, path);
    if (existsSync(file)) continue;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${banner}export const ${exportName} = {};\n`);
  }
  const out: Record<string, string> = {};
  const { createAjv } = await import('../../kernel/dialect/schemaCompiler');
  // One ajv per build (a fresh one per run, so names are numbered the same way every time).
  const builds = new Map<Build, Ajv>();
  for (const output of VALIDATOR_OUTPUTS) {
    if (!builds.has(output.build))
      builds.set(output.build, createAjv({ coerceTypes: output.build === 'query', standalone: true }));
    out[output.path] = await validatorModule(output, banner, builds.get(output.build)!);
  }
  return out;
}

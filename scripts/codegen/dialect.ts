/**
 * Codegen's gate: the schemas are in the dialect before anything is generated from them.
 * `dialectErrors(files)` runs the meta-schema check (metaSchema.ts, schemas/meta.schema.json) on each file,
 * then the cross-schema rules (dialectRules.ts) on the files that passed it; `iconExists` looks the
 * icon up in the installed @mui/icons-material (one module per icon). `probeSchema` runs the per-schema
 * steps of codegen on one schema and, when one throws, names the property that makes it throw (the
 * schema reduced to that property throws too): codegen reports a file, a pointer and a reason, never a
 * stack trace.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { dialectRuleErrors, type SchemaFile } from './dialectRules';
import { metaSchemaErrors, pointer, type DialectError } from './metaSchema';

export type { DialectError } from './metaSchema';
export { formatDialectError } from './metaSchema';

const require = createRequire(import.meta.url);
let iconsDir: string | undefined;

/** Whether `@mui/icons-material/<name>` is an icon of the installed package (`Museum`, `Image`, ...). */
export function iconExists(name: string): boolean {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) return false;
  iconsDir ??= dirname(require.resolve('@mui/icons-material'));
  return existsSync(join(iconsDir, `${name}.js`));
}

/**
 * Every dialect error of `files`, meta-schema errors first, in file order (empty: all in the dialect).
 * @param opts.iconExists defaults to {@link iconExists}
 */
export function dialectErrors(
  files: SchemaFile[],
  opts: { iconExists?: (name: string) => boolean } = {},
): DialectError[] {
  const out: DialectError[] = [];
  const valid: SchemaFile[] = [];
  for (const f of files) {
    try {
      const errors = metaSchemaErrors(f.file, f.schema);
      out.push(...errors);
      if (!errors.length) valid.push(f);
    } catch (e) {
      out.push({ file: f.file, pointer: '', reason: `cannot be checked: ${(e as Error).message}` });
    }
  }
  try {
    out.push(...dialectRuleErrors(valid, { iconExists: opts.iconExists ?? iconExists }));
  } catch (e) {
    out.push({ file: 'schemas/', pointer: '', reason: `the dialect rules failed: ${(e as Error).message}` });
  }
  return out;
}

/** The first line of an error and where it was thrown (the first stack frame in the project). */
export function errorText(e: unknown): string {
  const err = e instanceof Error ? e : new Error(String(e));
  const frame = (err.stack ?? '')
    .split('\n')
    .map((l) => /(?<![\w-])((?:scripts|common|server|src|kernel)\/[^():]+:\d+)/.exec(l)?.[1])
    .find(Boolean);
  return `${err.name === 'Error' ? '' : `${err.name}: `}${err.message.split('\n')[0]}${frame ? ` (at ${frame})` : ''}`;
}

/**
 * Runs `steps` (codegen's per-schema work: model, migration, registry row, labels...) on `file`'s schema
 * and answers the errors they throw as dialect errors: at the property whose one-property copy of the
 * schema throws as well, else at the root. Empty when the steps succeed.
 */
export async function probeSchema(
  file: SchemaFile,
  steps: (schema: Record<string, any>) => unknown,
): Promise<DialectError[]> {
  const run = async (schema: Record<string, any>): Promise<unknown> => {
    try {
      await steps(schema);
      return undefined;
    } catch (e) {
      return e ?? new Error('failed');
    }
  };
  const failure = await run(file.schema);
  if (failure === undefined) return [];
  const reason = `codegen cannot generate from this (${errorText(failure)})`;
  const props = Object.keys(file.schema.properties ?? {});
  const culprits: string[] = [];
  for (const name of props) {
    if (name === 'id') continue;
    const { id } = file.schema.properties;
    const reduced: Record<string, any> = {
      ...file.schema,
      properties: { ...(id ? { id } : {}), [name]: file.schema.properties[name] },
      required: (file.schema.required ?? []).filter((r: string) => r === name || r === 'id'),
    };
    // Keywords that name other properties are dropped from the reduced copy (they would fail for that reason).
    for (const k of ['x-ordered', 'x-distinct', 'x-frozen', 'x-chain', 'x-sections']) delete reduced[k];
    reduced['x-storage'] = { table: file.schema['x-storage']?.table ?? 'probe' };
    if ((await run(reduced)) !== undefined) culprits.push(name);
  }
  if (!culprits.length) return [{ file: file.file, pointer: '', reason }];
  return culprits.map((name) => ({ file: file.file, pointer: pointer('properties', name), reason }));
}

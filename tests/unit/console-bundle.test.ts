/**
 * The console carries no ajv compiler, so its Content-Security-Policy needs no 'unsafe-eval': the
 * production build (`vite build`, in memory) bundles ajv only through its run-time helpers
 * (ajv/dist/runtime/*, imported by the precompiled validators), neither ajv's core, its code generator
 * nor ajv-formats, and its code has none of the compiler's messages. It does bundle the precompiled form
 * validators and the keyword rules they call, but not in the chunks the entry loads at start (its static
 * imports): the form validators, the schema views and recharts are split off and load on demand.
 */
import { build, type Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/serverProcess';

let built: Promise<Rollup.OutputChunk[]> | undefined;
/** The production build's chunks (built once per run, in memory). */
function consoleChunks(): Promise<Rollup.OutputChunk[]> {
  return (built ??= buildChunks());
}

async function buildChunks(): Promise<Rollup.OutputChunk[]> {
  const result = await build({ root: ROOT, logLevel: 'silent', build: { write: false } });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  return outputs.flatMap((o) => o.output).filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
}

describe('console bundle', () => {
  it('has the precompiled validators and no ajv compiler', { timeout: 180_000 }, async () => {
    const chunks = await consoleChunks();
    const modules = chunks.flatMap((c) => c.moduleIds).map((m) => m.replace(/\\/g, '/'));
    const ajvModules = modules.filter((m) => /\/node_modules\/ajv(-formats)?\//.test(m));
    expect(ajvModules.filter((m) => !/\/node_modules\/ajv\/dist\/runtime\/[^/]+\.js$/.test(m))).toEqual([]);
    expect(modules).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\/common\/generated\/formValidators\.ts$/),
        expect.stringMatching(/\/kernel\/dialect\/keywordRules\.ts$/),
      ]),
    );
    for (const m of ['bodyValidators', 'queryValidators', 'schemaCompiler', 'keywords'])
      expect(
        modules.filter((id) => id.includes(`/kernel/dialect/${m}`) || id.includes(`/generated/${m}`)),
      ).toEqual([]);
    const code = chunks.map((c) => c.code).join('\n');
    // Messages of ajv's code generator and compiler (ajv/dist/compile/*, ajv/dist/core.js).
    for (const marker of ['CodeGen: ', 'ajv implementation error', 'strict mode: unknown keyword'])
      expect(code).not.toContain(marker);
  });
});

describe('console bundle splitting', () => {
  it(
    'the entry and its static imports carry no form validators, schema views, recharts or react-admin UI',
    { timeout: 180_000 },
    async () => {
      const chunks = await consoleChunks();
      const byName = new Map(chunks.map((c) => [c.fileName, c]));
      const entry = chunks.find((c) => c.isEntry)!;
      const closure = new Set<string>();
      const stack = [entry.fileName];
      while (stack.length) {
        const f = stack.pop()!;
        if (closure.has(f)) continue;
        closure.add(f);
        stack.push(...byName.get(f)!.imports);
      }
      const startModules = [...closure]
        .flatMap((f) => byName.get(f)!.moduleIds)
        .map((m) => m.replace(/\\/g, '/'));
      const allModules = chunks.flatMap((c) => c.moduleIds).map((m) => m.replace(/\\/g, '/'));
      for (const pattern of [
        /\/common\/generated\/formValidators\.ts$/,
        /\/src\/schema-ui\/views\.tsx$/,
        /\/node_modules\/recharts\//,
        /\/src\/i18n\/zh\.ts$/,
      ]) {
        expect(
          allModules.some((m) => pattern.test(m)),
          String(pattern),
        ).toBe(true);
        expect(
          startModules.filter((m) => pattern.test(m)),
          String(pattern),
        ).toEqual([]);
      }
      expect(
        startModules.filter((m) => m.includes('/node_modules/ra-ui-materialui/') && !m.includes('/theme/')),
      ).toEqual([]);
    },
  );
});

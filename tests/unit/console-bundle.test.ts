/**
 * The console carries no ajv compiler, so its Content-Security-Policy needs no 'unsafe-eval': the
 * production build (`vite build`, in memory) bundles ajv only through its run-time helpers
 * (ajv/dist/runtime/*, imported by the precompiled validators), neither ajv's core, its code generator
 * nor ajv-formats, and its code has none of the compiler's messages. It does bundle the precompiled form
 * validators and the keyword rules they call.
 */
import { build, type Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/serverProcess';

async function consoleChunks(): Promise<Rollup.OutputChunk[]> {
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
        expect.stringMatching(/\/common\/keywordRules\.ts$/),
      ]),
    );
    for (const m of ['bodyValidators', 'queryValidators', 'schemaCompiler', 'keywords'])
      expect(modules.filter((id) => id.includes(`/common/${m}`) || id.includes(`/generated/${m}`))).toEqual(
        [],
      );
    const code = chunks.map((c) => c.code).join('\n');
    // Messages of ajv's code generator and compiler (ajv/dist/compile/*, ajv/dist/core.js).
    for (const marker of ['CodeGen: ', 'ajv implementation error', 'strict mode: unknown keyword'])
      expect(code).not.toContain(marker);
  });
});

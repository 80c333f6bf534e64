/**
 * The console (src/) imports nothing from the server (server/, kernel/server/, kernel/hooks/): code both
 * sides need lives in common/ (e.g. common/ledger/) or kernel/dialect/. Every import specifier of every src/ file — static `import ... from`, bare
 * `import '...'`, `export ... from`, dynamic `import()` and `import.meta.glob` patterns — is resolved
 * against its file and must not land in server/. eslint.config.js holds the same rule
 * (`no-restricted-imports` for src/**) for editors; this test also catches what a lint config misses.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** Every .ts/.tsx file under `dir`. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|tsx)$/.test(e.name) ? [p] : [];
  });
}

/** The module specifiers a source text imports (static, re-exports, dynamic, import.meta.glob). */
export function specifiers(text: string): string[] {
  const out: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g,
    /\bimport\.meta\.glob(?:<[^>]*>)?\(\s*(\[[^\]]*\]|['"`][^'"`]+['"`])/g,
  ];
  for (const re of patterns)
    for (const m of text.matchAll(re)) {
      const arg = m[1];
      if (arg.startsWith('[')) for (const s of arg.matchAll(/['"`]([^'"`]+)['"`]/g)) out.push(s[1]);
      else out.push(arg);
    }
  return out;
}

/** The server's folders: server/ and the kernel's server side (kernel/server/, kernel/hooks/). */
const SERVER_DIRS = ['server', 'kernel/server', 'kernel/hooks'].map((d) => join(ROOT, d) + sep);

/** `file`'s imports that resolve into server code (relative specifiers only; packages never do). */
export function serverImports(file: string, text: string): string[] {
  return specifiers(text).filter((s) => {
    if (!s.startsWith('.') && !s.startsWith('/')) return false;
    const target = s.startsWith('/') ? join(ROOT, s) : resolve(dirname(file), s);
    return SERVER_DIRS.some((d) => (target + sep).startsWith(d));
  });
}

describe('src/ imports nothing from server/', () => {
  it('finds server imports in every form it checks (so a pass below means something)', () => {
    const file = join(ROOT, 'src/resources/blockchain/x.tsx');
    const text = [
      "import type { Ledger } from '../../../server/ledger/types';",
      "import '../../../server/plugins/app/db';",
      "export { a } from '../../../server/ledger/tx';",
      "const m = await import('../../../server/ledger/merkle');",
      "const g = import.meta.glob(['../../../server/routes/*.ts']);",
      "import { ok } from '../../../common/ledger/types';",
      "import { Repository } from '../../../kernel/server/repository';",
      "import { deref } from '../../../kernel/dialect/kinds';",
      "import { List } from 'react-admin';",
    ].join('\n');
    expect(serverImports(file, text)).toEqual([
      '../../../server/ledger/types',
      '../../../server/ledger/tx',
      '../../../kernel/server/repository',
      '../../../server/plugins/app/db',
      '../../../server/ledger/merkle',
      '../../../server/routes/*.ts',
    ]);
  });

  it('no file of src/ imports from server/', () => {
    const offenders = sourceFiles(join(ROOT, 'src')).flatMap((f) =>
      serverImports(f, readFileSync(f, 'utf8')).map((s) => `${relative(ROOT, f)}: ${s}`),
    );
    expect(offenders).toEqual([]);
  });
});

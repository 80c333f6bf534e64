/**
 * The kernel's move into `kernel/` (issue 18 item 7), as data: `MOVES` maps each old path to its new one.
 *
 * `tsx scripts/kernel-move.ts --move` does the move (`git mv`) and rewrites every relative import
 * specifier of the tree (static and dynamic imports, `export … from`, `vi.mock`) that pointed at a moved
 * file, or that a moved file wrote relative to its old folder. Without `--move` it only rewrites: run it
 * after merging the move into a branch whose new code still imports the old paths (it is idempotent: a
 * specifier that resolves where it stands is left as it is). Prints each rewrite as `file: old → new`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Old path → new path, relative to the project root. */
export const MOVES: Record<string, string> = {
  'common/keywords.ts': 'kernel/dialect/keywords.ts',
  'common/keywords.test.ts': 'kernel/dialect/keywords.test.ts',
  'common/keywordRules.ts': 'kernel/dialect/keywordRules.ts',
  'common/keywordRules.test.ts': 'kernel/dialect/keywordRules.test.ts',
  'common/schemaRegistry.ts': 'kernel/dialect/schemaRegistry.ts',
  'common/schemaRegistry.test.ts': 'kernel/dialect/schemaRegistry.test.ts',
  'common/schemaCompiler.ts': 'kernel/dialect/schemaCompiler.ts',
  'common/validators.ts': 'kernel/dialect/validators.ts',
  'common/formValidator.ts': 'kernel/dialect/formValidator.ts',
  'common/frozen.ts': 'kernel/dialect/frozen.ts',
  'src/schema-ui/kinds.ts': 'kernel/dialect/kinds.ts',
  'server/kernel/audit.ts': 'kernel/server/audit.ts',
  'server/kernel/countCache.ts': 'kernel/server/countCache.ts',
  'server/kernel/dbErrors.ts': 'kernel/server/dbErrors.ts',
  'server/kernel/listQuery.ts': 'kernel/server/listQuery.ts',
  'server/kernel/model.ts': 'kernel/server/model.ts',
  'server/kernel/repository.ts': 'kernel/server/repository.ts',
  'server/kernel/schemaFrom.ts': 'kernel/server/schemaFrom.ts',
  'server/routes/resources.ts': 'kernel/server/resources.ts',
  'server/plugins/app/validation.ts': 'kernel/server/validation.ts',
  'server/plugins/app/validation.test.ts': 'kernel/server/validation.test.ts',
  'server/kernel/hooks.ts': 'kernel/hooks/index.ts',
  'server/routes/artmanager/authors/hooks.ts': 'kernel/hooks/authors.ts',
  'server/routes/artmanager/artwork/hooks.ts': 'kernel/hooks/artworks.ts',
  'server/routes/artmanager/subjects/hooks.ts': 'kernel/hooks/bidUsers.ts',
  'server/routes/dev-api/user/hooks.ts': 'kernel/hooks/accounts.ts',
  'server/routes/medicine-api/smContract/hooks.ts': 'kernel/hooks/contractTemplates.ts',
  'server/routes/medicine-api/company/hooks.ts': 'kernel/hooks/companies.ts',
  'server/routes/medicine-api/notification/hooks.ts': 'kernel/hooks/notifications.ts',
};

const OLD_OF = Object.fromEntries(Object.entries(MOVES).map(([o, n]) => [n, o]));
const EXTS = ['', '.ts', '.tsx', '.js', '.mjs', '/index.ts', '/index.tsx'];
const SKIP = new Set(['node_modules', '.git', 'dist', 'data', 'coverage', '.tmp']);

/** Every source file of the tree (project-relative). */
function sources(dir = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    if (SKIP.has(name) || name.startsWith('.bundle-test-')) continue;
    const rel = dir ? `${dir}/${name}` : name;
    if (statSync(join(root, rel)).isDirectory()) out.push(...sources(rel));
    else if (/\.(ts|tsx|mts|js|mjs|cjs)$/.test(name)) out.push(rel);
  }
  return out;
}

/** The existing file `spec` names from folder `dir` (project-relative), as it stands now, or undefined. */
function resolveNow(dir: string, spec: string): string | undefined {
  const base = posix.normalize(posix.join(dir, spec));
  for (const e of EXTS)
    if (existsSync(join(root, base + e)) && statSync(join(root, base + e)).isFile()) return base + e;
  return undefined;
}

/** The file `spec` named from `dir` before the move, at its new path, or undefined. */
function resolveOld(dir: string, spec: string): string | undefined {
  const base = posix.normalize(posix.join(dir, spec));
  for (const e of EXTS) {
    const p = base + e;
    if (MOVES[p]) return MOVES[p];
    if (!OLD_OF[p] && existsSync(join(root, p)) && statSync(join(root, p)).isFile()) return p;
  }
  return undefined;
}

/** The specifier naming `target` from `dir`, in the style of `spec` (extensionless unless it had one). */
function specifier(dir: string, target: string, spec: string): string {
  let rel = posix.relative(dir, target);
  if (!/\.(json|mjs|js)$/.test(spec) && !/\.tsx?$/.test(spec)) rel = rel.replace(/\.(tsx?|js|mjs)$/, '');
  if (!spec.endsWith('/index') && rel.endsWith('/index') && !spec.includes('index')) rel = rel.slice(0, -6);
  return rel.startsWith('.') ? rel : `./${rel}`;
}

const SPEC = /((?:from|import|mock|importActual)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*)\2/g;

/** Rewrites the relative specifiers of one file; returns the rewrites. */
function rewrite(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const dir = posix.dirname(file);
  const oldDir = posix.dirname(OLD_OF[file] ?? file);
  const done: string[] = [];
  const next = text.replace(SPEC, (all, pre: string, q: string, spec: string) => {
    // A moved file's specifiers were written from its old folder (until rewritten); the others' from here.
    const target = OLD_OF[file]
      ? (resolveOld(oldDir, spec) ?? resolveNow(dir, spec))
      : (resolveNow(dir, spec) ?? resolveOld(dir, spec));
    if (!target) {
      console.warn(`unresolved: ${file}: ${spec}`);
      return all;
    }
    if (!OLD_OF[file] && target === resolveNow(dir, spec)) return all;
    const s = specifier(dir, target, spec);
    if (s === spec) return all;
    done.push(`${file}: ${spec} → ${s}`);
    return `${pre}${q}${s}${q}`;
  });
  if (next !== text) writeFileSync(join(root, file), next);
  return done;
}

if (process.argv.includes('--move')) {
  for (const [from, to] of Object.entries(MOVES)) {
    if (!existsSync(join(root, from))) continue;
    execFileSync('mkdir', ['-p', dirname(join(root, to))]);
    execFileSync('git', ['mv', from, to], { cwd: root });
  }
}
for (const f of sources()) for (const line of rewrite(f)) console.log(line);

/**
 * Docstrings, schema descriptions and docs name repository paths (`server/app.ts`, `../shared/data/tate/`
 * from the repository root), never a machine's absolute paths: no tracked source or doc file may contain
 * an absolute path in the `/work` or `/home` trees. URLs whose path merely has a `work` folder (e.g.
 * Tate's `.../art/images/work/...`) are not paths on this machine and pass. (This file names those trees
 * without their trailing slash, so it passes its own check.)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Files checked: source, schemas, docs and scripts, as `git ls-files` lists them. */
const CHECKED = /\.(ts|tsx|js|mjs|cjs|json|md|sh|html|css|ya?ml)$/;
const SKIPPED = new Set(['package-lock.json']);

/** An absolute path in the `/work` or `/home` trees: not preceded by a URL's or a relative path's characters. */
const ABSOLUTE = /(^|[^A-Za-z0-9_.~/-])\/(work|home)\/\S*/g;

/** `line: text` of every absolute machine path in `text`. */
function absolutePaths(text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(ABSOLUTE)) out.push(`${i + 1}: ${m[0].trim()}`);
  });
  return out;
}

describe('no absolute machine paths in tracked files', () => {
  it('finds them where they are, and only there', () => {
    const root = '/' + 'work';
    expect(absolutePaths(` * see ${root}/shared/design/STYLE.md`)).toEqual([
      `1: ${root}/shared/design/STYLE.md`,
    ]);
    expect(
      absolutePaths(`a\n"description": "Field meanings: ${root}/shared/data/tate/README.md."`),
    ).toHaveLength(1);
    expect(absolutePaths(`cd /${'home'}/dev/baas-admin`)).toHaveLength(1);
    expect(absolutePaths(`(${root}/main)`)).toHaveLength(1);
    expect(absolutePaths('http://www.tate.org.uk/art/images/work/A/A00/A00006_8.jpg')).toEqual([]);
    expect(absolutePaths('see ../shared/data/tate/README.md from the repository root')).toEqual([]);
    expect(absolutePaths('src/work/x.ts and docs/home/y.md')).toEqual([]);
  });

  it('no tracked source or doc file names a path under /work or /home', () => {
    const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => CHECKED.test(f) && !SKIPPED.has(f.split('/').pop()!));
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => {
      let text: string;
      try {
        text = readFileSync(f, 'utf8');
      } catch {
        return []; // listed but deleted in the work tree
      }
      return absolutePaths(text).map((hit) => `${f}:${hit}`);
    });
    expect(found).toEqual([]);
  });
});

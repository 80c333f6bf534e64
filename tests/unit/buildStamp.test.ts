/**
 * Build stamps (scripts/buildStamp.mjs): what decides whether `npm start` rebuilds. A stamp changes with
 * any source file's bytes or name, and not with what never goes into a build: test files, build
 * outputs (`dist`, `dist-<stamp>`), run-time markers (`.running`).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, stampOf } from '../../scripts/buildStamp.mjs';

const rel = `.tmp/stamp-test-${process.pid}`;
const dir = join(ROOT, rel);
mkdirSync(join(dir, 'src'), { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('build stamps', () => {
  it('change with a source file and only with what goes into the build', () => {
    writeFileSync(join(dir, 'src/a.ts'), 'export const a = 1;\n');
    const first = stampOf([rel]);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(stampOf([rel])).toBe(first);

    writeFileSync(join(dir, 'src/a.test.ts'), 'test');
    mkdirSync(join(dir, 'dist-0123456789abcdef'));
    writeFileSync(join(dir, 'dist-0123456789abcdef/index.html'), '<html>');
    mkdirSync(join(dir, '.running'));
    writeFileSync(join(dir, '.running/1.json'), '{}');
    expect(stampOf([rel])).toBe(first);

    writeFileSync(join(dir, 'src/a.ts'), 'export const a = 2;\n');
    const second = stampOf([rel]);
    expect(second).not.toBe(first);
    rmSync(join(dir, 'src/a.ts'));
    writeFileSync(join(dir, 'src/b.ts'), 'export const a = 2;\n'); // same bytes, another name
    expect(stampOf([rel])).not.toBe(second);
    expect(stampOf([rel, `${rel}/missing`])).toBe(stampOf([rel]));
  });
});

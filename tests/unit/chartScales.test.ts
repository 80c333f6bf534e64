/**
 * The console's build replaces recharts' namespace import of every d3 scale with the scales the charts
 * use (src/charts/d3Scale.ts, aliased in vite.config.ts). recharts looks a scale up by name and falls
 * back to a point scale for a name it does not find, so a chart asking for a scale the module lacks would
 * draw wrong without an error: this test fails instead. It reads every `scale=` a recharts component is
 * given in src/ (a string literal; an expression fails the test, as it cannot be checked) and the scales
 * recharts picks itself for `scale="auto"` (band and point for category axes, linear for number axes).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as d3Scale from '../../src/charts/d3Scale';
import { ROOT } from '../support/serverProcess';

/** The .tsx files under `dir`, recursively. */
function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsxFiles(join(dir, e.name)) : e.name.endsWith('.tsx') ? [join(dir, e.name)] : [],
  );
}

/** `scale<Name>` for a recharts scale name (`band` → `scaleBand`). */
const d3Name = (name: string) => `scale${name[0].toUpperCase()}${name.slice(1)}`;

/** The `scale` props of the recharts components in `source`: `{ value }` for a literal, else `{ expr }`. */
export function scaleProps(source: string): ({ value: string } | { expr: string })[] {
  const out: ({ value: string } | { expr: string })[] = [];
  for (const m of source.matchAll(
    /\bscale=(?:"([^"]*)"|'([^']*)'|\{\s*(['"`])([^'"`]*)\3\s*\}|\{([^}]*)\})/g,
  ))
    out.push(m[5] !== undefined ? { expr: m[5] } : { value: m[1] ?? m[2] ?? m[4] });
  return out;
}

describe('chart scales', () => {
  it('reads literal and expression scale props', () => {
    expect(scaleProps('<XAxis scale="log" /><YAxis scale={"time"} /><YAxis scale={myScale} />')).toEqual([
      { value: 'log' },
      { value: 'time' },
      { expr: 'myScale' },
    ]);
  });

  it('has every scale recharts picks for scale="auto" and every scale a chart in src/ names', () => {
    const have = Object.keys(d3Scale).filter(
      (k) => typeof (d3Scale as Record<string, unknown>)[k] === 'function',
    );
    const wanted = new Map<string, string>([
      ['scaleBand', 'recharts: category axis of a bar chart'],
      ['scalePoint', 'recharts: category axis of a line or area chart, Brush'],
      ['scaleLinear', 'recharts: number axis'],
    ]);
    const problems: string[] = [];
    for (const file of tsxFiles(join(ROOT, 'src'))) {
      const source = readFileSync(file, 'utf8');
      if (!/from ['"]recharts['"]/.test(source)) continue;
      for (const p of scaleProps(source)) {
        const where = relative(ROOT, file);
        if ('expr' in p) problems.push(`${where}: scale={${p.expr}} is not a string literal`);
        else if (p.value !== 'auto') wanted.set(d3Name(p.value), where);
      }
    }
    for (const [name, by] of wanted)
      if (!have.includes(name)) problems.push(`${by} needs ${name}: export it from src/charts/d3Scale.ts`);
    expect(problems).toEqual([]);
  });
});

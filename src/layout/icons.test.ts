/**
 * Icons: any @mui/icons-material name a schema gives (`x-resource.icon`) is imported by the generated
 * src/generated/icons.ts (scripts/codegen/icons.ts, tested there), nothing is looked up in a hand-kept
 * list; the shell's own routes find theirs.
 */
import { describe, expect, it } from 'vitest';
import { generatedResources } from '../generated/resources';
import { allRoutes, type ShellRoute } from '../shell/routes';
import { iconNamed, routeIcon } from './icons';

describe('icons', () => {
  it("every schema's icon is the @mui/icons-material module of that name", async () => {
    const named = generatedResources.filter((r) => r.icon);
    expect(named.length).toBeGreaterThan(5);
    for (const r of named)
      expect(iconNamed(r.icon!), r.icon!).toBe((await import(`@mui/icons-material/${r.icon}`)).default);
  });

  it("every route of the shell's tree has its icon (no dot for a named icon)", () => {
    const dot = routeIcon(undefined);
    const missing: string[] = [];
    const walk = (routes: ShellRoute[]) => {
      for (const r of routes) {
        if (r.meta?.icon && routeIcon(r.meta.icon) === dot) missing.push(`${r.path}: ${r.meta.icon}`);
        walk(r.children ?? []);
      }
    };
    walk(allRoutes);
    expect(missing).toEqual([]);
  });
});

/**
 * Codegen emitter of `src/generated/icons.ts`: the @mui/icons-material icons the schemas name
 * (`x-resource.icon`), each imported from its own module (`import Museum from
 * '@mui/icons-material/Museum'`, so the bundle carries only these), in a map by name that the console's
 * menu and react-admin resources read (src/layout/icons.tsx). Any icon of the package may be named:
 * codegen refuses a name the package does not have (scripts/codegen/dialect.ts `iconExists`), so no
 * hand-kept list is involved.
 */
type Json = Record<string, any>;

/** The icon names of the schemas, sorted, without repeats. */
export function schemaIcons(list: { schema: Json }[]): string[] {
  const names = list
    .map(({ schema }) => schema['x-resource']?.icon)
    .filter((n): n is string => typeof n === 'string');
  return [...new Set(names)].sort();
}

/** The source of `src/generated/icons.ts` (unformatted), after `banner`. */
export function emitIcons(list: { schema: Json }[], banner: string): string {
  const names = schemaIcons(list);
  return `${banner}
import type { SvgIconComponent } from '@mui/icons-material';
${names.map((n) => `import ${n}Icon from '@mui/icons-material/${n}';`).join('\n')}

/** The icons the schemas name (\`x-resource.icon\`), by @mui/icons-material name. */
export const schemaIcons: Record<string, SvgIconComponent> = {
${names.map((n) => `  ${n}: ${n}Icon,`).join('\n')}
};
`;
}

/**
 * Codegen emitter of `src/generated/resources.ts`: the console's resource registry, one row per schema
 * with an `x-resource` block. Besides the react-admin facts (name, schema id, roles, record
 * representation, icon, verbs, the roles of the calls that admit fewer, `verbRoles`, and the final
 * records' values, `frozen`, from `x-frozen`), it carries what the shell needs to build a resource's routes, menu entry,
 * breadcrumbs and titles (src/shell/resourceRoutes.ts):
 *
 * `x-resource` = {
 *   name            react-admin resource name (required);
 *   recordRepresentation, icon (an @mui/icons-material name, also the menu icon);
 *   group           the parent menu route's path in src/shell/routes.ts (`"industry/artwork"`,
 *                   `"medicine"`); absent: a top-level menu entry;
 *   path            the list's product path (default `/<group>/<name>`);
 *   order           position among the resources of the same group, and of react-admin's resources;
 *   roles           roles that see the resource in the console (default: `x-roles`);
 *   hidden          true: a data-only resource (no menu entry, no generated routes; its own pages mount it);
 *   titles          { list, show, create, edit }: each the schema's own title `{ en, zh }` (emitted
 *                   into the generated messages as `resources.<name>.titles.<view>`, the key the row
 *                   then names), or a `shell.route.*` key of the console's catalogue (src/layout/i18n.ts);
 *                   default: the generated label `resources.<name>.name`, and derived detail titles;
 *   routes          [{ path, title }]: the resource's own child routes, `path` relative to `/<name>`
 *                   (e.g. `":id/works"`), rendered by the resource folder's `<Resource>` children.
 * }
 *
 * The tab paths of the show, create and edit pages come from the schema's `x-ui.section`s in the order
 * kernel/dialect/kinds.ts `sectionsOf` gives (the same function the views use, src/schema-ui/views.tsx):
 * every section but `main` (the index tab) on show; on forms only the sections with a writable field.
 * Errors: an unknown `x-resource` key, a missing name or a tab path that collides with a route throw.
 */
import { MAIN_SECTION, sectionsOf } from '../../kernel/dialect/kinds';
import type { GeneratedResource } from '../../kernel/dialect/resourceRow';

type Json = Record<string, any>;

const KEYS = new Set([
  'name',
  'recordRepresentation',
  'icon',
  'group',
  'path',
  'order',
  'roles',
  'hidden',
  'titles',
  'routes',
  'twoStep',
]);
const VIEWS = ['list', 'show', 'create', 'edit'] as const;

/**
 * The title key of view `view` of resource `name` (see the module doc): a schema's own title `{ en, zh }`
 * is the generated message `resources.<name>.titles.<view>` (codegen.ts `labels` emits it), a string the
 * catalogue key it is; null for none.
 */
export function titleKey(name: string, view: string, given: unknown): string | null {
  if (typeof given === 'string') return given;
  return given && typeof given === 'object' ? `resources.${name}.titles.${view}` : null;
}

/** One row of the registry (the emitted `GeneratedResource`, kernel/dialect/resourceRow.ts). */
export type ResourceRow = GeneratedResource;

/** The registry row of one schema; throws naming the schema file on a malformed `x-resource`. */
export function resourceRow(schema: Json): ResourceRow {
  const x: Json = schema['x-resource'];
  const where = `schemas/${schema.$id}.schema.json x-resource`;
  for (const k of Object.keys(x)) if (!KEYS.has(k)) throw new Error(`${where}: unknown key "${k}"`);
  if (typeof x.name !== 'string' || !x.name) throw new Error(`${where}: "name" is required`);
  const group = typeof x.group === 'string' ? `/${x.group.replace(/^\/+|\/+$/g, '')}` : null;
  const sections = sectionsOf(schema as never).filter((s) => s.name !== MAIN_SECTION);
  const tabs = {
    show: sections.map((s) => s.name),
    form: sections.filter((s) => s.fields.some((f) => !f.prop.readOnly)).map((s) => s.name),
  };
  const routes: { path: string; title: string }[] = (x.routes ?? []).map((r: Json) => {
    if (typeof r.path !== 'string' || typeof r.title !== 'string')
      throw new Error(`${where}.routes: each route needs a "path" and a "title"`);
    return { path: r.path.replace(/^\/+/, ''), title: r.title };
  });
  // `/<name>/:id/<tab>` (edit tabs) must not shadow `/<name>/:id/show` or an own route.
  const taken = new Set(['show', 'create', ...routes.map((r) => r.path.split('/').pop()!)]);
  for (const t of [...tabs.show, ...tabs.form])
    if (taken.has(t)) throw new Error(`${where}: the section "${t}" collides with a route of the resource`);
  return {
    name: x.name,
    schemaId: schema.$id,
    roles: x.roles ?? schema['x-roles'] ?? [],
    recordRepresentation: x.recordRepresentation ?? 'id',
    icon: x.icon ?? null,
    verbs: Object.keys(schema['x-endpoints'] ?? {}),
    verbRoles: Object.fromEntries(
      Object.entries((schema['x-endpoints'] ?? {}) as Json)
        .filter(([, e]) => Array.isArray(e.roles))
        .map(([verb, e]) => [verb, e.roles as string[]]),
    ),
    frozen: schema['x-frozen']?.when ?? null,
    group,
    path: x.path ?? `${group ?? ''}/${x.name}`,
    order: typeof x.order === 'number' ? x.order : 1000,
    hidden: x.hidden === true,
    titles: Object.fromEntries(
      VIEWS.map((v) => [v, titleKey(x.name, v, x.titles?.[v])]),
    ) as ResourceRow['titles'],
    tabs,
    routes,
  };
}

/** The source of `src/generated/resources.ts` (unformatted), after `banner`. */
export function emitResources(list: { schema: Json }[], banner: string): string {
  const rows = list.filter(({ schema }) => schema['x-resource']).map(({ schema }) => resourceRow(schema));
  return `${banner}
export type { GeneratedResource } from '../../kernel/dialect/resourceRow';
import type { GeneratedResource } from '../../kernel/dialect/resourceRow';

export const generatedResources: GeneratedResource[] = ${JSON.stringify(rows, null, 2)};
`;
}

/**
 * The text of a route title (src/shell/routes.ts `RouteMeta.title`), for the sidebar, breadcrumbs, tab
 * strip, page title and the "not available yet" page:
 * - `authors` → `shell.route.authors` (src/layout/i18n.ts);
 * - `resources.authors.name` → the generated plural label (src/generated/messages.ts);
 * - `resources.authors.name#show` (also `#create`, `#edit`) → `shell.view.show` with `%{name}` the
 *   singular label, e.g. "Author details".
 */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The translated text of route title `title`. */
export function routeTitle(translate: Translate, title: string): string {
  if (!title.startsWith('resources.')) return translate(`shell.route.${title}`);
  const [key, view] = title.split('#');
  if (!view) return translate(key, { smart_count: 2 });
  return translate(`shell.view.${view}`, { name: translate(key, { smart_count: 1 }) });
}

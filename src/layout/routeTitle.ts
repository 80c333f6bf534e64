/**
 * The text of a route title (src/shell/routes.ts `RouteMeta.title`), for the sidebar, breadcrumbs, tab
 * strip, page title and the "not available yet" page:
 * - `authors` → `shell.route.authors` (src/layout/i18n.ts);
 * - `resources.authors.name` → the generated plural label (src/generated/messages.ts);
 * - `resources.treatments.titles.list` → a schema's own title of that view (`x-resource.titles`, generated);
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

/**
 * The text of a record page's tab: `<label>: <record name>` for a show page, `Edit <label>: <name>` for
 * an edit page (`shell.tagsView.record`, `shell.view.edit`; label = the resource's singular label).
 */
export function recordTagText(
  translate: Translate,
  record: { resource: string; name: string; view: 'show' | 'edit' },
): string {
  const label = translate(`resources.${record.resource}.name`, { smart_count: 1 });
  const name = record.view === 'edit' ? translate('shell.view.edit', { name: label }) : label;
  return translate('shell.tagsView.record', { name, record: record.name });
}

/**
 * A saved list view (filter, sort, columns; src/schema-ui/savedViews.tsx) made fit for the list as the
 * schema is now (issue 33 item 4: "a saved view naming a removed column still opens, without it").
 *
 * Columns are saved by their source (the field's name), not by react-admin's column index
 * (DatagridConfigurable keeps `preferences.<resource>.datagrid.columns` as indexes into its
 * `availableColumns`): a field removed or added shifts the indexes, a name stays. Views saved before hold
 * indexes (digit strings): those are kept while they name a column of the list.
 */

/** One column of a configurable datagrid (react-admin's `availableColumns` preference). */
export interface AvailableColumn {
  index: string;
  source?: string;
}

export interface ViewSettings {
  filter: Record<string, unknown>;
  sort: { field: string; order: 'ASC' | 'DESC' } | null;
  columns: string[] | null;
}

/** Filter keys that name no field: free text, and the bounds of a range (`<field>_gte`, `<field>_lte`). */
const RANGE = /^(.+)_(gte|lte)$/;

/**
 * The columns shown (react-admin indexes) as the view saves them: each column's source, else `#<index>`
 * for a column without one. Null stays null (the list's default columns).
 */
export function columnSources(
  columns: string[] | null | undefined,
  available: AvailableColumn[],
): string[] | null {
  if (!columns) return null;
  return columns.map((i) => available.find((c) => c.index === i)?.source ?? `#${i}`);
}

/**
 * `view` for the list now: filters and sort on fields the resource no longer has are left out, columns
 * mapped back to react-admin indexes (sources to the current index; a source no column has any more is
 * left out; `available` empty: only indexes are kept). `fields`: the names the resource's records have now (its schema's properties and display
 * fields); undefined keeps every filter and sort. `renamed` (old name → new, `renamedFields`): a field
 * renamed since the view was saved is found under its new name. A view left without any column shows the
 * list's default columns (null).
 */
export function restorableView(
  view: ViewSettings,
  available: AvailableColumn[],
  fields?: Iterable<string>,
  renamed: Record<string, string> = {},
): ViewSettings {
  const known = fields ? new Set(fields) : undefined;
  const has = (name: string) => !known || known.has(name);
  const now = (name: string) => (Object.hasOwn(renamed, name) ? renamed[name] : name);
  /** A filter key under the field's name now (`<field>_gte` too). */
  const key = (k: string) => {
    const range = RANGE.exec(k);
    return range ? `${now(range[1])}_${range[2]}` : now(k);
  };
  const filter = Object.fromEntries(
    Object.entries(view.filter ?? {})
      .map(([k, v]) => [key(k), v] as const)
      .filter(([k]) => k === 'q' || has(RANGE.exec(k)?.[1] ?? k) || has(k)),
  );
  const sorted = view.sort && { ...view.sort, field: now(view.sort.field) };
  const sort = sorted && has(sorted.field) ? sorted : null;
  let columns: string[] | null = null;
  if (view.columns) {
    const mapped = view.columns.flatMap((c) => {
      const legacy = /^\d+$/.test(c) ? c : /^#\d+$/.test(c) ? c.slice(1) : undefined;
      // before the datagrid has listed its columns, an index is kept as it is
      if (legacy !== undefined)
        return !available.length || available.some((a) => a.index === legacy) ? [legacy] : [];
      const found = available.find((a) => a.source === now(c));
      return found ? [found.index] : [];
    });
    columns = mapped.length ? mapped : null;
  }
  return { filter, sort, columns };
}

/**
 * The fields `schema` renamed (`x-renamedFrom` on a property: README "Changing a schema"), old name → new
 * name: a view saved before the rename keeps the field under its new name.
 */
export function renamedFields(schema: { properties: Record<string, unknown> }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, prop] of Object.entries(schema.properties)) {
    const from = (prop as { 'x-renamedFrom'?: unknown } | null)?.['x-renamedFrom'];
    if (typeof from === 'string' && !(from in schema.properties)) out[from] = name;
  }
  return out;
}

/** The field names of `schema`'s records: its properties and display fields (`x-storage.display`). */
export function recordFields(schema: {
  properties: Record<string, unknown>;
  'x-storage'?: { display?: Record<string, unknown> };
}): string[] {
  return [...Object.keys(schema.properties), ...Object.keys(schema['x-storage']?.display ?? {})];
}

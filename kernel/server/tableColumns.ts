/**
 * A resource's records as a table of cells, both ways, for file exports and imports (exportRoutes.ts,
 * server/import/table.ts):
 * - `tableColumns(model)`: the columns a list call answers (every property that is not `writeOnly`, then the
 *   display fields), each with its label in each language from the schema's `x-i18n`;
 * - `cellOf(column, value, lang)`: a record's value as a cell: an enum value as its `x-enumLabels` label in
 *   `lang`, a date-time (`x-ui.widget: "datetime"` or an `x-storage.timestamps` column) as
 *   `YYYY-MM-DD HH:mm:ss` (UTC), an object or array as its JSON text, booleans as true/false;
 * - `valueOf(column, cell)`: a cell read back (the inverse: a label in either language, or the value
 *   itself, becomes the enum value; JSON text becomes the object; numeric text of a number property
 *   becomes the number); an empty cell is `undefined` (the field is absent);
 * - `columnFor(columns, header)`: the column a header names: the property's name or its label in any
 *   language (case-insensitive), so an exported file imports back.
 * Pure; labels and rules from the schemas only (kernel/dialect/keywords.ts documents the keywords).
 */
import type { LocalizedText, Language } from '../../common/messages/index';
import { resourceSchemas, type PropertySchema } from '../dialect/schemaRegistry';
import type { ResourceModel } from './model';

/** One column of a resource's table. */
export interface TableColumn {
  name: string;
  label: LocalizedText;
  prop?: PropertySchema;
  kind: 'enum' | 'date' | 'json' | 'boolean' | 'number' | 'text';
  /** A display field (joined from another record): exported, never imported. */
  display?: boolean;
}

const typesOf = (p: PropertySchema | undefined): string[] =>
  ([] as string[]).concat(p?.type ?? []).filter((t) => t !== 'null');

function kindOf(name: string, p: PropertySchema | undefined, model: ResourceModel): TableColumn['kind'] {
  const types = typesOf(p);
  if (p?.['x-enumLabels']) return 'enum';
  if (p?.['x-ui']?.widget === 'datetime' || Object.hasOwn(model.timestamps, name)) return 'date';
  if (types.some((t) => t === 'object' || t === 'array')) return 'json';
  if (types.includes('boolean')) return 'boolean';
  if (types.some((t) => t === 'integer' || t === 'number')) return 'number';
  return 'text';
}

const labelOf = (name: string, p: PropertySchema | undefined): LocalizedText => ({
  en: p?.['x-i18n']?.en ?? name,
  zh: p?.['x-i18n']?.zh ?? p?.['x-i18n']?.en ?? name,
});

/** The columns of `model`'s table, in schema order (see the module doc). */
export function tableColumns(model: ResourceModel): TableColumn[] {
  const columns: TableColumn[] = Object.entries(model.schema.properties)
    .filter(([, p]) => !p.writeOnly)
    .map(([name, p]) => ({ name, label: labelOf(name, p), prop: p, kind: kindOf(name, p, model) }));
  for (const d of model.display) {
    const target = resourceSchemas().find((s) => s['x-storage']?.table === d.table);
    const p = target?.properties[d.field];
    columns.push({
      name: d.name,
      label: labelOf(d.name, p),
      prop: p,
      kind: kindOf(d.name, p, model),
      display: true,
    });
  }
  return columns;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date-time as `YYYY-MM-DD HH:mm:ss` (UTC): stored text as it is, ISO text or epoch seconds/ms converted. */
export function dateText(v: unknown): string {
  if (typeof v === 'string' && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(v)) return v;
  const d = typeof v === 'number' ? new Date(v < 1e11 ? v * 1000 : v) : new Date(String(v));
  if (Number.isNaN(d.getTime())) return String(v);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** A record's value as a cell in `lang` (see the module doc); null and absent values are empty cells. */
export function cellOf(
  column: TableColumn,
  value: unknown,
  lang: Language,
): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  switch (column.kind) {
    case 'enum':
      return column.prop!['x-enumLabels']![String(value)]?.[lang] ?? String(value);
    case 'date':
      return dateText(value);
    case 'json':
      return JSON.stringify(value);
    default:
      return typeof value === 'object' ? JSON.stringify(value) : (value as string | number | boolean);
  }
}

/**
 * A cell as the property's value (see the module doc); `undefined` for an empty cell. A text that does not
 * parse stays text, for the schema's validator to refuse naming the field.
 */
export function valueOf(column: TableColumn, cell: unknown): unknown {
  if (cell === null || cell === undefined || cell === '') return undefined;
  if (cell instanceof Date) return dateText(cell.getTime());
  const text = typeof cell === 'string' ? cell.trim() : cell;
  switch (column.kind) {
    case 'enum': {
      const labels = Object.entries(column.prop!['x-enumLabels']!);
      const hit = labels.find(([, l]) => l.en === text || l.zh === text);
      const raw = hit ? hit[0] : String(text);
      return typesOf(column.prop).some((t) => t === 'integer' || t === 'number') &&
        /^-?\d+(\.\d+)?$/.test(raw)
        ? Number(raw)
        : raw;
    }
    case 'json':
      if (typeof text !== 'string') return text;
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    case 'number':
      return typeof text === 'string' && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text) ? Number(text) : text;
    case 'boolean':
      if (text === 'true' || text === 1 || text === '1') return true;
      if (text === 'false' || text === 0 || text === '0') return false;
      return text;
    case 'date':
      return typeof text === 'number' ? dateText(text) : text;
    default:
      return typeof text === 'number' ? String(text) : text;
  }
}

/** The column a file's header names: the property name or its label in any language, case-insensitive. */
export function columnFor(columns: TableColumn[], header: string): TableColumn | undefined {
  const h = header.trim().toLowerCase();
  return (
    columns.find((c) => c.name.toLowerCase() === h) ??
    columns.find((c) => c.label.en.toLowerCase() === h || c.label.zh.toLowerCase() === h)
  );
}

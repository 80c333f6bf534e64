/**
 * Between the API's records and the stored rows of a resource (model.ts), both ways:
 * - `recordBuilder(model)`: a stored row → the API record (JSON columns parsed, booleans as true/false,
 *   optional properties left out when absent, counts as numbers, display fields, the kernel's `revision`);
 * - `columnValues(model, body)`: the fields a body names → column values (JSON columns as text, booleans
 *   as 1/0, plain text trimmed and NFC: kernel/dialect/plainText.ts, shared with the command-line import);
 * - `filterValue(model, field, value)`: a list filter's value as the column holds it (booleans as 1/0).
 * Pure; used by the generic repository (repository.ts).
 */
import { REVISION, type ResourceModel } from './model';
import { nfcPlainText, trimmedText } from '../dialect/plainText';

/** A record as the API answers it. */
export type RecordOut = Record<string, unknown>;

/** The plain-text rule is shared with the command-line import: kernel/dialect/plainText.ts. */
export { nfcPlainText };

/** A JSON column's text parsed; `empty` ('[]', '{}', or null for a nullable one) for an absent or empty one. */
function parseColumn(v: unknown, empty: string | null): unknown {
  if (typeof v === 'string' && v) return JSON.parse(v);
  return empty === null ? null : JSON.parse(empty);
}

/** A boolean column's value (0/1, or a PostgreSQL boolean) as JSON true/false; null stays null. */
function toBoolean(v: unknown): boolean | null {
  if (v === null || v === undefined) return null;
  return v === true || Number(v) === 1;
}

/**
 * The function turning a stored row of `model` into the API record: the stored properties in schema order
 * (JSON columns parsed, booleans as true/false, an absent optional property left out), the counts as
 * numbers, the display fields (null when absent). Generated once per model as one object literal: a record
 * built key by key has more than V8 keeps in an object's fast properties and cost twice the floor's time
 * per row in the list profile (issue 10). Property names come from the schemas (trusted) and are quoted
 * with JSON.stringify.
 */
export function recordBuilder(model: ResourceModel): (row: Record<string, unknown>) => RecordOut {
  const key = (name: string) => JSON.stringify(name);
  const at = (name: string) => `row[${key(name)}]`;
  const booleans = new Set(model.booleans);
  const optional = new Set(model.optional);
  const value = (n: string) => {
    const v =
      model.json[n] !== undefined
        ? `parse(${at(n)}, ${JSON.stringify(model.json[n])})`
        : booleans.has(n)
          ? `bool(${at(n)})`
          : at(n);
    // `undefined` leaves the key out of the JSON answer (not `delete`: the record keeps one shape).
    return optional.has(n) ? `${v} ?? undefined` : v;
  };
  const fields = [
    ...model.stored.map((n) => `${key(n)}: ${value(n)}`),
    ...model.counts.map((c) => `${key(c.name)}: Number(${at(c.name)})`),
    ...model.display.map((d) => `${key(d.name)}: ${at(d.name)} ?? null`),
    `${key(REVISION)}: Number(${at(REVISION)})`,
  ];
  return new Function('parse', 'bool', `return (row) => ({ ${fields.join(', ')} });`)(
    parseColumn,
    toBoolean,
  ) as (row: Record<string, unknown>) => RecordOut;
}

/** A boolean as its column value (1/0); other values as they are. */
const booleanColumn = (v: unknown) => (typeof v === 'boolean' ? (v ? 1 : 0) : v);

/** Column values of the fields `body` names (see the module doc); `id` and unknown names are skipped. */
export function columnValues(model: ResourceModel, body: Record<string, unknown>): Record<string, unknown> {
  const { json, trimmed, nullable, columns, booleans, schema } = model;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    // `revision` names the revision a write started from (repository.ts), never a value to store.
    if (k === 'id' || k === REVISION || !columns[k]) continue;
    if (json[k] !== undefined) {
      out[k] =
        v === undefined || v === null
          ? json[k]
          : JSON.stringify(nfcPlainText(schema.properties[k], v, schema));
    } else if (typeof v === 'string' && trimmed.includes(k)) {
      // Trimmed and NFC (kernel/dialect/plainText.ts): one spelling per name, whichever door wrote it.
      out[k] = trimmedText(v, nullable.has(k));
    } else out[k] = booleans.includes(k) ? booleanColumn(v) : v;
  }
  return out;
}

/** A list filter's (or range bound's) value for the column of `field` (booleans as 1/0). */
export function filterValue(model: ResourceModel, field: string, value: unknown): unknown {
  return model.booleans.includes(field) ? booleanColumn(value) : value;
}

/**
 * The columns an audit entry keeps as a record's values (its `state`, server/db/audit.ts): the schema's
 * stored properties, write-only ones (a password) left out.
 */
export function stateColumnsOf(model: ResourceModel): string[] {
  const props = model.schema.properties;
  return Object.keys(model.columns).filter((c) => c in props && !props[c].writeOnly);
}

/**
 * The value rules of stored columns, as the storage snapshot records them, and the checks a tightened
 * rule needs on a live database (scripts/codegen/storage/diff.ts; README "Changing a schema").
 *
 * - `columnRules(schema)`: per stored scalar property, the JSON Schema rules a row's value must meet:
 *   `type`, `format`, `maxLength`/`minLength` (characters), `maximum`/`minimum` and their exclusive forms,
 *   `enum`, `pattern`. Objects and arrays (JSON text columns) record their type only: the plan does not
 *   check rules inside them.
 * - `tightenedChecks(table, column, before, after, fix)`: one {@link Check} per rule that admits fewer
 *   values after than before. A check is an SQL condition selecting the rows that break the rule (the same
 *   text on SQLite and PostgreSQL: `length()` counts characters on both), or for `pattern` the regular
 *   expression the migration tests each value with in JavaScript (as ajv does, flag `u`).
 * - `ONBREAK` fixes (`x-onBreak`, kernel/dialect/keywords.ts): `{ set: value }` writes that value into
 *   the breaking rows, `{ truncate: true }` (maxLength only) cuts the text to the limit.
 */
import type { PropertySchema, ResourceSchema } from '../../../kernel/dialect/schemaRegistry';

/** A stored column's value rules (see the module doc). */
export interface Rule {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'json';
  format?: string;
  maxLength?: number;
  minLength?: number;
  maximum?: number;
  minimum?: number;
  exclusiveMaximum?: number;
  exclusiveMinimum?: number;
  enum?: (string | number | boolean | null)[];
  pattern?: string;
}

/** What to do with the rows a tightened rule breaks (`x-onBreak.<field>`, or `x-fill` for `required`). */
export type Fix = { set: string | number | boolean | null } | { truncate: true };

/** One rule a migration checks on the live rows before it changes anything. */
export interface Check {
  table: string;
  column: string;
  /** The rule's name: a JSON Schema keyword (`maxLength`, `enum`, ...), `required` or `x-unique`. */
  rule: string;
  /** The new limit, for messages (`20`, `["a","b"]`, the pattern). */
  limit: unknown;
  /** SQL condition of the breaking rows, or undefined for `pattern` (tested in JavaScript). */
  where?: string;
  pattern?: string;
  fix?: Fix;
}

const SCALAR_KEYS = [
  'format',
  'maxLength',
  'minLength',
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'enum',
  'pattern',
] as const;

/** The rule of one property (see the module doc). */
export function ruleOf(p: PropertySchema): Rule {
  const types = ([] as string[])
    .concat((p.type as string | string[] | undefined) ?? [])
    .filter((t) => t !== 'null');
  if (types.includes('object') || types.includes('array')) return { type: 'json' };
  const type = (['string', 'number', 'integer', 'boolean'].find((t) => types.includes(t)) ??
    'string') as Rule['type'];
  const rule: Rule = { type };
  for (const k of SCALAR_KEYS) if (p[k] !== undefined) (rule as unknown as Record<string, unknown>)[k] = p[k];
  return rule;
}

/** The rules of a schema's stored properties, by column name (write-only and counted ones are not stored). */
export function columnRules(schema: ResourceSchema): Record<string, Rule> {
  const out: Record<string, Rule> = {};
  for (const [name, p] of Object.entries(schema.properties)) {
    if (p.writeOnly || p['x-count'] || name === 'id') continue;
    out[name] = ruleOf(p);
  }
  return out;
}

const q = (id: string) => JSON.stringify(id);
/** An SQL literal of a rule's value (numbers as they are; booleans as 1/0, as they are stored). */
export function sqlLiteral(v: unknown): string {
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'string') return `'${v.replace(/'/g, "''")}'`;
  throw new Error(`storage: cannot write ${JSON.stringify(v)} as an SQL value`);
}

/**
 * The checks of the rules `after` that admit fewer values than `before` (undefined: a new column, every
 * rule is new). `fix` is the schema's `x-onBreak` for this column.
 */
export function tightenedChecks(
  table: string,
  column: string,
  before: Rule | undefined,
  after: Rule,
  fix?: Fix,
): Check[] {
  const c = q(column);
  const out: Check[] = [];
  const add = (rule: string, limit: unknown, where: string | undefined, pattern?: string) =>
    out.push({
      table,
      column,
      rule,
      limit,
      ...(where ? { where: `${c} IS NOT NULL AND ${where}` } : {}),
      ...(pattern ? { pattern } : {}),
      ...(fix && (!('truncate' in fix) || rule === 'maxLength') ? { fix } : {}),
    });
  const tighter = (k: keyof Rule, lower: boolean) => {
    const a = after[k] as number | undefined;
    const b = before?.[k] as number | undefined;
    return a !== undefined && (b === undefined || (lower ? a < b : a > b));
  };
  if (tighter('maxLength', true)) add('maxLength', after.maxLength, `length(${c}) > ${after.maxLength}`);
  if (tighter('minLength', false)) add('minLength', after.minLength, `length(${c}) < ${after.minLength}`);
  if (tighter('maximum', true)) add('maximum', after.maximum, `${c} > ${after.maximum}`);
  if (tighter('exclusiveMaximum', true))
    add('exclusiveMaximum', after.exclusiveMaximum, `${c} >= ${after.exclusiveMaximum}`);
  if (tighter('minimum', false)) add('minimum', after.minimum, `${c} < ${after.minimum}`);
  if (tighter('exclusiveMinimum', false))
    add('exclusiveMinimum', after.exclusiveMinimum, `${c} <= ${after.exclusiveMinimum}`);
  if (after.enum && (!before?.enum || before.enum.some((v) => !after.enum!.includes(v)))) {
    const values = after.enum.filter((v) => v !== null);
    add('enum', after.enum, values.length ? `${c} NOT IN (${values.map(sqlLiteral).join(', ')})` : 'TRUE');
  }
  if (after.pattern && after.pattern !== before?.pattern)
    add('pattern', after.pattern, undefined, after.pattern);
  return out;
}

/** The check of a column that becomes NOT NULL (`required`): rows holding null; `x-fill` or `x-onBreak` fills them. */
export function requiredCheck(table: string, column: string, fix?: Fix): Check {
  return {
    table,
    column,
    rule: 'required',
    limit: true,
    where: `${q(column)} IS NULL`,
    ...(fix ? { fix } : {}),
  };
}

/** The check of a column that becomes unique (`x-unique`): rows sharing a value with another row. */
export function uniqueCheck(table: string, column: string): Check {
  const c = q(column);
  return {
    table,
    column,
    rule: 'x-unique',
    limit: true,
    where: `${c} IN (SELECT ${c} FROM ${q(table)} WHERE ${c} IS NOT NULL GROUP BY ${c} HAVING count(*) > 1)`,
  };
}

/**
 * Whether a column's values convert from rule `before` to `after` as the storage codegen defines it:
 * the same type; integer → number; a string gaining or changing its enum (checked like a tightened
 * rule); a date → date-time (`YYYY-MM-DD` becomes `YYYY-MM-DDT00:00:00Z`); any other `format` change
 * keeps the values as they are (existing rows are not checked against a new format). Returns the conversion's
 * name, `'none'` when values stay as they are, or undefined when no conversion is defined.
 */
export function conversion(before: Rule, after: Rule): 'none' | 'toDateTime' | undefined {
  if (before.type === after.type)
    return before.format === 'date' && after.format === 'date-time' ? 'toDateTime' : 'none';
  if (before.type === 'integer' && after.type === 'number') return 'none';
  return undefined;
}

/**
 * What a storage migration leaves in the audit trail (issue 32 "One door", issue 33; README "Changing a
 * schema"), as source the emitter (emit.ts) writes into the migration, and the data it needs from the steps.
 *
 * A migration writes, in its own transaction, after every other phase (phase 10), as account `system`
 * with the call `migration <name>` (server/db/audit.ts `MIGRATION_ACTOR_CALL`):
 * - one row for the migration itself (resource `database`, record id the migration's name, as a restore's
 *   row), when it renames existing tables or changes their columns: its `state` ({@link MigrationAuditState})
 *   names per table (by its new name) its previous name, and the columns renamed, removed (with their type;
 *   their values are in `removed_values`), added and converted (date → date-time). The ledger's edit audit (server/ledger/editAudit.ts) undoes these to
 *   tell a record the migration reshaped from one changed behind the API's back;
 * - for every row a fix wrote (`x-onBreak`, or `x-fill` on a column that already existed): its audit row,
 *   resource the table's resource, `before` the SHA-256 of the row just before its first fix, `after` of the
 *   row once the migration is done, `changed` the columns that differ, `state` the record's values (the
 *   stored properties, write-only ones left out, as kernel/server/records.ts `stateColumnsOf`), so History
 *   shows who changed what, and Revert can restore the value before the fix. A record with no audit row
 *   yet first gets its base revision (server/db/audit.ts `ensureBaseRevision`).
 * Digests are server/db/audit.ts `digestOf`: SHA-256 (hex) of the row's canonical JSON (RFC 8785,
 * common/ledger/canonical.ts), `revision` left out; the migration computes them itself (it is frozen and
 * imports nothing of the project).
 */
import type { MigrationAuditState, MigrationTableChanges } from '../../../server/db/audit';
import { REVISION } from '../../../kernel/server/model';

/** The parts of a storage step (diff.ts `Step`) read here (diff.ts imports this module: no import back). */
interface StepLike {
  kind: string;
  table: string;
  column?: string;
  from?: string;
  spec?: unknown;
  convert?: string;
}

/** Where a fix's audit rows go: the table's resource and the columns of a record's `state`. */
export interface AuditTarget {
  resource: string;
  state: string[];
}

/** The audit target of a table (its after-migration snapshot), or undefined without a resource name. */
export function auditTarget(
  spec: { resource?: string; columns: Record<string, unknown>; rules?: Record<string, unknown> } | undefined,
): AuditTarget | undefined {
  if (!spec?.resource) return undefined;
  const rules = spec.rules ?? {};
  return {
    resource: spec.resource,
    state: Object.keys(spec.columns).filter((c) => c === 'id' || c in rules),
  };
}

/** Per existing table, its previous name and the column changes of `steps` (the migration record's `tables`). */
export function tableChanges(steps: StepLike[]): MigrationAuditState['tables'] {
  const out: Record<string, MigrationTableChanges> = {};
  const of = (t: string) => (out[t] ??= { renamed: {}, removed: {}, added: [], converted: {} });
  const fresh = new Set(steps.filter((s) => s.kind === 'addTable').map((s) => s.table));
  for (const s of steps) {
    if (fresh.has(s.table)) continue;
    const column = s.column!;
    if (s.kind === 'renameTable') of(s.table).from = s.from!;
    else if (s.kind === 'renameColumn') of(s.table).renamed[column] = s.from!;
    else if (s.kind === 'removeColumn') of(s.table).removed[column] = (s.spec as { type: string }).type;
    else if (s.kind === 'addColumn' && column !== REVISION) of(s.table).added.push(column);
    else if (s.kind === 'changeColumn' && s.convert === 'toDateTime')
      of(s.table).converted[column] = s.convert;
  }
  return out;
}

/** The columns `steps` add to existing tables, as `table.column` (a fix there writes a new value, not a change). */
export function addedColumns(steps: StepLike[]): Set<string> {
  return new Set(steps.filter((s) => s.kind === 'addColumn').map((s) => `${s.table}.${s.column}`));
}

/**
 * The runtime of phase 10, written into a migration that fixes rows or changes existing tables (no
 * template literals: it is itself inside one). Needs `sql`, `Kysely`, `MIGRATION`, `steps`, `CHANGES`.
 */
export const AUDIT_RUNTIME = `
/** Rows a fix wrote, per table: where their audit rows go, the fixed columns, each row before its first fix. */
type Fixes = Map<
  string,
  { resource: string; state: string[]; columns: Set<string>; before: Map<number, Record<string, unknown>> }
>;

/** Canonical JSON (RFC 8785) of a stored value: the audit trail's digests (server/db/audit.ts digestOf). */
function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(canonical).join(',') + ']';
  const o = v as Record<string, unknown>;
  return (
    '{' +
    Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => JSON.stringify(k) + ':' + canonical(o[k]))
      .join(',') +
    '}'
  );
}

/** SHA-256 (hex) of a stored row's canonical JSON, its revision left out; null for no row. */
function digest(row: Record<string, unknown> | undefined): string | null {
  if (!row) return null;
  const { revision: _revision, ...values } = row;
  return createHash('sha256').update(canonical(values)).digest('hex');
}

/** The rows of ids of a table, every column. */
async function rowsOf(db: Kysely<any>, table: string, ids: number[]): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < ids.length; i += 500)
    out.push(
      ...(
        await sql
          .raw<Record<string, unknown>>('SELECT * FROM "' + table + '" WHERE id IN (' + ids.slice(i, i + 500).join(', ') + ')')
          .execute(db)
      ).rows,
    );
  return out;
}

/** Keeps the rows a check is about to fix as they are before their first fix (phase 6). */
async function keepBefore(db: Kysely<any>, fixes: Fixes, c: Check, ids: number[]): Promise<void> {
  if (!c.audit) return;
  let f = fixes.get(c.table);
  if (!f) fixes.set(c.table, (f = { ...c.audit, columns: new Set(), before: new Map() }));
  f.columns.add(c.column);
  const fresh = ids.filter((id) => !f.before.has(id));
  for (const row of await rowsOf(db, c.table, fresh)) f.before.set(Number(row.id), row);
}

/** Phase 10: the migration's audit row, then the audit rows of the rows its fixes wrote. */
async function auditMigration(db: Kysely<any>, fixes: Fixes): Promise<void> {
  const head = {
    time: new Date().toISOString().slice(0, 19).replace('T', ' '),
    accountId: null,
    account: 'system',
    call: 'migration ' + MIGRATION,
  };
  if (Object.keys(CHANGES).length) {
    const state = { migration: MIGRATION, steps, tables: CHANGES };
    await db
      .insertInto('audit_log')
      .values({ ...head, resource: 'database', recordId: MIGRATION, before: null, after: digest(state), changed: '[]', state: JSON.stringify(state) })
      .execute();
  }
  for (const [table, f] of fixes) {
    const ids = [...f.before.keys()].sort((a, b) => a - b);
    const after = new Map((await rowsOf(db, table, ids)).map((r) => [Number(r.id), r]));
    const stateOf = (row: Record<string, unknown> | undefined) =>
      row ? JSON.stringify(Object.fromEntries(f.state.filter((c) => c in row).map((c) => [c, row[c]]))) : null;
    for (let i = 0; i < ids.length; i += 200) {
      const chunk = ids.slice(i, i + 200);
      const seen = new Set(
        (
          await db
            .selectFrom('audit_log')
            .select('recordId')
            .distinct()
            .where('resource', '=', f.resource)
            .where('recordId', 'in', chunk.map(String))
            .execute()
        ).map((r) => String(r.recordId)),
      );
      const rows: Record<string, unknown>[] = [];
      for (const id of chunk) {
        const before = f.before.get(id)!;
        const now = after.get(id);
        if (!seen.has(String(id)))
          rows.push({
            ...head,
            call: 'base revision: the record as stored before its first audited write (seed, import or an older version)',
            resource: f.resource,
            recordId: String(id),
            before: null,
            after: digest(before),
            changed: '[]',
            state: stateOf(before),
          });
        const changed = [...new Set([...Object.keys(before), ...Object.keys(now ?? {})])]
          .filter((k) => k !== 'revision' && canonical(before[k] ?? null) !== canonical(now?.[k] ?? null))
          .sort();
        rows.push({
          ...head,
          resource: f.resource,
          recordId: String(id),
          before: digest(before),
          after: digest(now),
          changed: JSON.stringify(changed),
          state: stateOf(now),
        });
      }
      await db.insertInto('audit_log').values(rows).execute();
    }
  }
}
`;

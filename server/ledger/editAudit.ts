/**
 * Edits are not tampering (docs/ledger.md section 6, "Edited since put on chain"): tells an on-chain
 * record edited through the API after its put from one changed behind the API's back.
 *
 * Every write of a record through the API or the ledger's commit hook adds an audit_log row
 * (server/db/audit.ts) holding the SHA-256 of the stored row after it (`after`, canonical JSON of every
 * column). A record whose stored row has exactly the digest of its latest audited write was last
 * written through the API, so a digest that differs from its latest transaction's is an edit, explained
 * by that write. A stored row that matches no audited write was changed in the database directly.
 *
 * Schema migrations (issue 33) are declared, audited changes too: a storage migration that renames,
 * removes, adds or converts columns of existing rows leaves one audit row naming those changes
 * (server/db/audit.ts `MigrationAuditState`, written by the migration itself, scripts/codegen/storage/
 * audit.ts), and a row one of its fixes (`x-onBreak`) wrote gets its own audit row. A stored row whose
 * digest is not its latest audited write's is therefore undone through the migrations run since that
 * write, newest first (added columns dropped, converted values converted back, removed columns restored
 * from `removed_values`, renamed ones named back, a renamed table followed to its older name): if the
 * result has the digest of that write, the record is an edit explained by the newest of those migrations
 * that reshaped it; otherwise it was changed behind the API's back, before or after the migration (a
 * migration never launders a direct change: its undoing gives the row as changed, whose digest no audited
 * write has).
 */
import type { Kysely } from 'kysely';
import type { EditedRecord } from '../../common/ledger/audit';
import type { RecordKind } from '../../common/ledger/recordFields';
import {
  AUDIT_TABLE,
  digestOf,
  migrationAuditRows,
  storedRow,
  type MigrationAuditState,
  type MigrationTableChanges,
} from '../db/audit';
import { PUT_CALL, RECORD_TABLE } from './records';

/** The latest put transaction of a record in the ledger, and how many versions it has. */
export interface LatestRecordTx {
  txId: string;
  version: number;
  digest: string;
  blockNumber: number;
  versions: number;
}

/** An audit_log row, as the edit audit reads it. */
export interface AuditRow {
  id: number;
  time: string;
  account: string;
  call: string;
  after: string | null;
}

type Row = Record<string, unknown>;

/**
 * What one audit run reads once about the storage migrations (see the module doc): their audit rows,
 * newest first, and per migration and table the values `removed_values` keeps (record id → field → text).
 */
export class MigrationMemo {
  private migrations?: Promise<(AuditRow & { state: MigrationAuditState })[]>;
  private readonly removed = new Map<string, Promise<Map<number, Row>>>();

  constructor(private readonly db: Kysely<any>) {}

  /** The migrations' own audit rows, newest first. */
  list() {
    this.migrations ??= migrationAuditRows(this.db, 'desc').then((rows) =>
      rows.map((r) => ({ ...r, state: JSON.parse(r.state ?? '{}') as MigrationAuditState })),
    );
    return this.migrations;
  }

  /** The values migration `name` removed from `table`, by record id. */
  removedValues(name: string, table: string): Promise<Map<number, Row>> {
    const key = `${name}\u0000${table}`;
    let out = this.removed.get(key);
    if (!out) {
      out = this.db
        .selectFrom('removed_values')
        .select(['recordId', 'field', 'value'])
        .where('migration', '=', name)
        .where('tableName', '=', table)
        .execute()
        .then((rows) => {
          const byId = new Map<number, Row>();
          for (const r of rows as { recordId: number; field: string; value: string | null }[]) {
            const id = Number(r.recordId);
            byId.set(id, { ...byId.get(id), [r.field]: r.value });
          }
          return byId;
        });
      this.removed.set(key, out);
    }
    return out;
  }
}

/** `row` as it was before `changes` of migration `name` (see the module doc). */
async function undo(
  memo: MigrationMemo,
  name: string,
  table: string,
  row: Row,
  changes: MigrationTableChanges,
): Promise<Row> {
  const out = { ...row };
  if (Object.keys(changes.removed).length) {
    const kept = (await memo.removedValues(name, table)).get(Number(row.id)) ?? {};
    for (const [column, type] of Object.entries(changes.removed)) {
      const text = kept[column];
      // removed_values keeps CAST(value AS TEXT): numbers are read back as numbers
      out[column] = text === undefined || text === null ? null : type === 'text' ? text : Number(text);
    }
  }
  for (const column of Object.keys(changes.converted)) {
    const v = out[column];
    if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T00:00:00Z$/.test(v)) out[column] = v.slice(0, 10);
  }
  for (const column of changes.added) delete out[column];
  for (const [now, was] of Object.entries(changes.renamed)) {
    out[was] = out[now];
    delete out[now];
  }
  return out;
}

/**
 * The newest migration that explains why stored row `row` of `table` is not its latest audited write
 * `latest` (undoing the migrations run since gives that write's digest), or undefined. A migration that
 * renamed the table (its changes' `from`) sends the walk on under the table's previous name, for the
 * older migrations; `removed_values` names the table by its name now (a rename renames it there too,
 * scripts/codegen/storage/rename.ts). A rename alone changes no row: it is not the migration reported.
 */
export async function explainingMigration(
  memo: MigrationMemo,
  table: string,
  row: Row,
  latest: AuditRow,
): Promise<AuditRow | undefined> {
  let undone = row;
  let newest: AuditRow | undefined;
  let name = table;
  for (const m of await memo.list()) {
    if (m.id <= Number(latest.id)) break;
    const changes = m.state.tables?.[name];
    if (!changes) continue;
    const { from, ...columns } = changes;
    if (Object.values(columns).some((c) => Object.keys(c).length)) newest ??= m;
    undone = await undo(memo, m.state.migration, table, undone, changes);
    if (from) name = from;
  }
  return newest && digestOf(undone) === latest.after ? newest : undefined;
}

/**
 * The audited edit that explains why record `kind`/`id` (current digest `digest`) differs from its
 * latest transaction `latest`, or undefined when its stored row matches no audited write (tampering).
 * Reads the record's audit rows newest first: the latest must name the stored row's digest, or that
 * row undone through the migrations since (see the module doc; the migration is then the edit reported);
 * else the write reported is the latest one that is not the ledger marking the record on chain.
 * @param memo what the audit run reads once about migrations (one per run, or a new one)
 */
export async function explainEdit(
  db: Kysely<any>,
  kind: RecordKind,
  id: number,
  digest: string,
  latest: LatestRecordTx,
  memo: MigrationMemo = new MigrationMemo(db),
): Promise<EditedRecord | undefined> {
  const row = await storedRow(db, RECORD_TABLE[kind], id);
  const rows = (await db
    .selectFrom(AUDIT_TABLE)
    .select(['id', 'time', 'account', 'call', 'after'])
    .where('resource', '=', RECORD_TABLE[kind])
    .where('recordId', '=', String(id))
    .orderBy('id', 'desc')
    .limit(50)
    .execute()) as AuditRow[];
  if (!row || rows.length === 0) return undefined;
  const edit =
    rows[0].after === digestOf(row)
      ? (rows.find((r) => r.call !== PUT_CALL[kind]) ?? rows[0])
      : await explainingMigration(memo, RECORD_TABLE[kind], row, rows[0]);
  if (!edit) return undefined;
  const audit = { id: Number(edit.id), time: edit.time, account: edit.account, call: edit.call };
  return {
    kind,
    recordId: id,
    version: latest.version,
    txId: latest.txId,
    blockNumber: latest.blockNumber,
    chainDigest: latest.digest,
    digest,
    audit,
    message: `${kind} ${id}: edited since it was put on chain (version ${latest.version}), by audited write #${audit.id} (${audit.call} by ${audit.account || 'the server'} at ${audit.time})`,
  };
}

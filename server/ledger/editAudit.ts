/**
 * Edits are not tampering (docs/ledger.md section 6, "Edited since put on chain"): tells an on-chain
 * record edited through the API after its put from one changed behind the API's back.
 *
 * Every write of a record through the API or the ledger's commit hook adds an audit_log row
 * (server/db/audit.ts) holding the SHA-256 of the stored row after it (`after`, canonical JSON of every
 * column). A record whose stored row has exactly the digest of its latest audited write was last
 * written through the API, so a digest that differs from its latest transaction's is an edit, explained
 * by that write. A stored row that matches no audited write was changed in the database directly.
 */
import type { Kysely } from 'kysely';
import type { EditedRecord } from '../../common/ledger/audit';
import type { RecordKind } from '../../common/ledger/recordFields';
import { AUDIT_TABLE, digestOf, storedRow } from '../db/audit';
import { PUT_CALL, RECORD_TABLE } from './records';

/** The latest put transaction of a record in the ledger, and how many versions it has. */
export interface LatestRecordTx {
  txId: string;
  version: number;
  digest: string;
  blockNumber: number;
  versions: number;
}

interface AuditRow {
  id: number;
  time: string;
  account: string;
  call: string;
  after: string | null;
}

/**
 * The audited edit that explains why record `kind`/`id` (current digest `digest`) differs from its
 * latest transaction `latest`, or undefined when its stored row matches no audited write (tampering).
 * Reads the record's audit rows newest first: the latest must name the stored row's digest; the write
 * reported is the latest one that is not the ledger marking the record on chain (the edit itself).
 */
export async function explainEdit(
  db: Kysely<any>,
  kind: RecordKind,
  id: number,
  digest: string,
  latest: LatestRecordTx,
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
  if (!row || rows.length === 0 || rows[0].after !== digestOf(row)) return undefined;
  const edit = rows.find((r) => r.call !== PUT_CALL[kind]) ?? rows[0];
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

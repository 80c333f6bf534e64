/**
 * Chaincode uploads and lifecycle (docs/ledger.md section 8): the Go-source check (extension, content,
 * size), argument parsing, and the commit hook that moves a chaincode installed → approved → committed
 * when the matching `_lifecycle` transaction is committed (inside the block's database transaction).
 *
 * One door (issue 32): every write of a `chaincode` row has its audit row (server/db/audit.ts, resource
 * {@link CHAINCODE_RESOURCE}) in the write's own transaction: the upload's insert (and the removal of an
 * installation that never reached the ledger) by the route, as the signed-in account; each lifecycle
 * step's status and history by the commit hook, in the block's transaction, as the transaction's
 * creator (the account that made the call) with the call of that step ({@link LIFECYCLE_CALL}).
 */
import type { Kysely } from 'kysely';
import type { LedgerTables } from './tables';
import type { CommitHook } from '../../common/ledger/types';
import { recordAudit, storedRow, type WriteActor } from '../db/audit';

/** Largest accepted chaincode source, bytes. */
export const MAX_CHAINCODE_BYTES = 512 * 1024;
export const LIFECYCLE_CHAINCODE = '_lifecycle';

export type ChaincodeStatus = 'installed' | 'approved' | 'committed';

/** Fabric's `_lifecycle` functions, per state reached. */
export const LIFECYCLE_FUNCTION: Record<ChaincodeStatus, string> = {
  installed: 'InstallChaincode',
  approved: 'ApproveChaincodeDefinitionForMyOrg',
  committed: 'CommitChaincodeDefinition',
};

/** The audit trail's resource of the `chaincode` rows. */
export const CHAINCODE_RESOURCE = 'chaincode';

/** The call that reaches each state (the audit row's `call` of the commit hook's write). */
export const LIFECYCLE_CALL: Record<ChaincodeStatus, string> = {
  installed: 'POST /baas-api/chaincode/upload',
  approved: 'POST /baas-api/chaincode/approve',
  committed: 'POST /baas-api/chaincode/commit',
};

/**
 * The columns of a chaincode row an audit entry keeps as its `state`: every column but the source
 * `code` (up to 512 KiB; `codeHash`, its SHA-256, stands for it, and the digests cover it).
 */
export const CHAINCODE_STATE_COLUMNS = [
  'id',
  'channelId',
  'name',
  'version',
  'initArgs',
  'args',
  'policy',
  'function',
  'functionType',
  'fileName',
  'codeHash',
  'status',
  'history',
  'createdBy',
  'createTime',
  'updateTime',
] as const;

/**
 * Adds the audit row of a write of chaincode row `id` inside its transaction `trx` (server/db/audit.ts
 * `recordAudit`): `before` and `after` are the stored rows (undefined for a create / a delete).
 */
export async function auditChaincode(
  trx: Kysely<any>,
  actor: WriteActor,
  id: number,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): Promise<void> {
  await recordAudit(trx, actor, {
    resource: CHAINCODE_RESOURCE,
    recordId: id,
    before,
    after,
    stateColumns: CHAINCODE_STATE_COLUMNS,
  });
}

/** The state a lifecycle step starts from. */
export const PREVIOUS_STATUS: Record<'approved' | 'committed', ChaincodeStatus> = {
  approved: 'installed',
  committed: 'approved',
};

/**
 * Checks an uploaded file is Go source: name ends in `.go`, at most MAX_CHAINCODE_BYTES, valid UTF-8
 * without NUL bytes, and its first statement (after comments and blank lines) is a `package` clause.
 * @returns the source text, or an error message that says what is wrong.
 */
export function checkGoSource(
  fileName: string,
  bytes: Uint8Array,
): { ok: true; code: string } | { ok: false; message: string } {
  if (!/\.go$/i.test(fileName))
    return { ok: false, message: `"${fileName}" is not a Go source file: the name must end in .go` };
  if (bytes.length === 0) return { ok: false, message: `"${fileName}" is empty` };
  if (bytes.length > MAX_CHAINCODE_BYTES)
    return {
      ok: false,
      message: `"${fileName}" is ${bytes.length} bytes; chaincode source is limited to ${MAX_CHAINCODE_BYTES} bytes (512 KiB)`,
    };
  if (bytes.includes(0))
    return { ok: false, message: `"${fileName}" is binary (it contains NUL bytes), not Go source` };
  let code: string;
  try {
    code = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, message: `"${fileName}" is not UTF-8 text, so it is not Go source` };
  }
  const body = code
    .replace(/^\uFEFF/, '')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\/\/[^\n]*/g, '')
    .trimStart();
  if (!/^package\s+[A-Za-z_][A-Za-z0-9_]*\s*(;|\n|$)/.test(body))
    return {
      ok: false,
      message: `"${fileName}" does not start with a Go package clause (e.g. "package main"), so it is not Go source`,
    };
  return { ok: true, code };
}

/** Arguments given as a JSON array of strings, or as comma-separated text ("a, b"); empty → []. */
export function parseArgList(text: string | undefined, field: string): string[] {
  const t = (text ?? '').trim();
  if (!t) return [];
  if (t.startsWith('[')) {
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch {
      throw new Error(`${field}: not a JSON array`);
    }
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
      throw new Error(`${field}: must be an array of strings`);
    return v as string[];
  }
  return t.split(',').map((s) => s.trim());
}

/**
 * Commit hook: apply committed `_lifecycle` approve/commit/install transactions to the chaincode rows,
 * each change audited in the block's transaction as its transaction's creator (see the module doc).
 */
export const applyLifecycle: CommitHook = async (block, txs, trx) => {
  const db = trx as Kysely<LedgerTables>;
  const accounts = new Map<string, number | null>();
  for (const tx of txs) {
    if (tx.chaincode !== LIFECYCLE_CHAINCODE) continue;
    const status = (Object.keys(LIFECYCLE_FUNCTION) as ChaincodeStatus[]).find(
      (s) => LIFECYCLE_FUNCTION[s] === tx.function,
    );
    if (!status) continue;
    const [name, version] = tx.args;
    const row = await db
      .selectFrom('chaincode')
      .selectAll()
      .where('channelId', '=', block.channelId)
      .where('name', '=', name)
      .where('version', '=', version)
      .executeTakeFirst();
    if (!row) continue;
    const history = JSON.parse(row.history) as { status: string; txId: string; time: string }[];
    history.push({ status, txId: tx.txId, time: block.createdAt });
    await db
      .updateTable('chaincode')
      .set({ status, history: JSON.stringify(history), updateTime: block.createdAt })
      .where('id', '=', row.id)
      .execute();
    if (!accounts.has(tx.creator))
      accounts.set(
        tx.creator,
        (
          await (db as Kysely<any>)
            .selectFrom('accounts')
            .select('id')
            .where('username', '=', tx.creator)
            .executeTakeFirst()
        )?.id ?? null,
      );
    const actor = {
      accountId: accounts.get(tx.creator) ?? null,
      account: tx.creator,
      call: LIFECYCLE_CALL[status],
    };
    await auditChaincode(db, actor, row.id, row, await storedRow(db, 'chaincode', row.id));
  }
};

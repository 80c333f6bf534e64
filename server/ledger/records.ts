/**
 * Putting registry records on chain (docs/ledger.md section 7): the record digest, the put-on-chain
 * transaction (chaincode `artregistry`, function `putAuthor` / `putArtwork`, args [id, version, digest]),
 * the commit hook that marks the record on chain inside the block's database transaction, and the
 * idempotency rule (same digest as the last version: answer the existing transaction, write nothing).
 */
import { CompiledQuery, type Kysely } from 'kysely';
import { compiledSql } from '../db/connect';
import type { Database } from '../db/database';
import { canonicalJson } from '../../common/ledger/canonical';
import { digestFields, type RecordKind } from '../../common/ledger/recordFields';
import { sha256Hex } from './tx';
import { AUDIT_TABLE, changedColumns, digestOf, stateText, storedRow, type WriteActor } from '../db/audit';
import { nowText } from '../db/database';
import type { CommitHook, CommittedTx, Ledger, PutOnChainResult } from '../../common/ledger/types';

type Json = Record<string, unknown>;

/** The channel records are put on. */
export const RECORD_CHANNEL = 'artchannel';
/** The chaincode of record transactions. */
export const RECORD_CHAINCODE = 'artregistry';
export type { RecordKind };

/** The chaincode function of each record kind's put transaction. */
export const RECORD_FUNCTION: Record<RecordKind, string> = { author: 'putAuthor', artwork: 'putArtwork' };
/** The tables (and resources, audit_log `resource`) of the records put on chain. */
export type RecordTable = 'authors' | 'artworks';
/** The table (and resource, audit_log `resource`) of each record kind. */
export const RECORD_TABLE: Record<RecordKind, RecordTable> = { author: 'authors', artwork: 'artworks' };
/** The audit_log `call` of the commit hook that marks a record on chain (its put-on-chain call). */
export const PUT_CALL: Record<RecordKind, string> = {
  author: 'POST /artmanager/authors/blockChain',
  artwork: 'POST /artmanager/artwork/blockChain',
};

/** SHA-256 hex of the canonical JSON of `digestFields(kind, record)`. */
export function recordDigest(kind: RecordKind, record: object): string {
  return sha256Hex(canonicalJson(digestFields(kind, record)));
}

/** Which record a transaction puts on chain, or undefined for other transactions. */
export function recordOfTx(tx: {
  chaincode: string;
  function: string;
  args: string[];
}): { kind: RecordKind; id: number; version: number; digest: string } | undefined {
  if (tx.chaincode !== RECORD_CHAINCODE) return undefined;
  const kind = (Object.keys(RECORD_FUNCTION) as RecordKind[]).find((k) => RECORD_FUNCTION[k] === tx.function);
  if (!kind) return undefined;
  return { kind, id: Number(tx.args[0]), version: Number(tx.args[1]), digest: tx.args[2] };
}

/**
 * The SQL of the hook's per-record update, compiled once per dialect and kind (Kysely would build and
 * compile it for every record): its parameters are the set values in `CHAIN_SET` order (then `status`
 * 2 for an artwork), the id, and the version guard.
 */
const CHAIN_SET = ['isBlock', 'blockTime', 'chain', 'chainDigest', 'chainVersion'] as const;

function chainUpdateSql(db: Kysely<Database>, kind: RecordKind): string {
  return compiledSql(db, `chainUpdate:${kind}`, () => {
    const set: Record<string, unknown> = {
      isBlock: 0,
      blockTime: '',
      chain: '',
      chainDigest: '',
      chainVersion: 0,
    };
    if (kind === 'artwork') set.status = 0;
    return db
      .updateTable(RECORD_TABLE[kind])
      .set(set)
      .where('id', '=', 0)
      .where('chainVersion', '<=', 0)
      .compile();
  });
}

/**
 * Commit hook: for every record transaction of the block, mark the record on chain (isBlock 1, artwork
 * status 2, blockTime = block time, chain = tx id, chainDigest, chainVersion), unless a later version is
 * already recorded. Runs inside the block's database transaction; each record it changes gets its audit
 * row there too (server/db/audit.ts; the account is the transaction's creator).
 *
 * Per block, not per transaction (issue 9 item 6, put on chain over HTTP): the records' stored rows are
 * read with one query per table, each record is updated with its version guard, the row after the
 * update is the row before with the chain columns set (no trigger changes these tables' rows), creators
 * are looked up once, and the audit rows go in one insert.
 */
export const markRecordsOnChain: CommitHook = async (block, txs, trx) => {
  const db = trx as Kysely<Database>;
  const puts = txs.flatMap((tx) => {
    const r = recordOfTx(tx);
    return r ? [{ tx, ...r }] : [];
  });
  if (puts.length === 0) return;
  const rows = new Map<string, Record<string, unknown>>();
  for (const kind of ['author', 'artwork'] as RecordKind[]) {
    const ids = [...new Set(puts.filter((p) => p.kind === kind).map((p) => p.id))];
    for (let i = 0; i < ids.length; i += 500) {
      const found = await db
        .selectFrom(RECORD_TABLE[kind])
        .selectAll()
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
      for (const row of found) rows.set(`${kind}:${row.id}`, row as Record<string, unknown>);
    }
  }
  const accounts = new Map<string, number | null>();
  const audits: { actor: WriteActor; resource: string; recordId: number; before?: object; after?: object }[] =
    [];
  for (const p of puts) {
    const set = {
      isBlock: 1,
      blockTime: block.createdAt,
      chain: p.tx.txId,
      chainDigest: p.digest,
      chainVersion: p.version,
      ...(p.kind === 'artwork' ? { status: 2 } : {}),
    };
    const params: unknown[] = CHAIN_SET.map((c) => set[c]);
    if (p.kind === 'artwork') params.push(2);
    params.push(p.id, p.version);
    const { numAffectedRows: numUpdatedRows } = await db.executeQuery(
      CompiledQuery.raw(chainUpdateSql(db, p.kind), params),
    );
    if (!Number(numUpdatedRows)) continue;
    const key = `${p.kind}:${p.id}`;
    const before = rows.get(key);
    const after = before ? { ...before, ...set } : await storedRow(db, RECORD_TABLE[p.kind], p.id);
    if (after) rows.set(key, after);
    if (!accounts.has(p.tx.creator)) {
      const account = await db
        .selectFrom('accounts')
        .select('id')
        .where('username', '=', p.tx.creator)
        .executeTakeFirst();
      accounts.set(p.tx.creator, account?.id ?? null);
    }
    audits.push({
      actor: { accountId: accounts.get(p.tx.creator) ?? null, account: p.tx.creator, call: PUT_CALL[p.kind] },
      resource: RECORD_TABLE[p.kind],
      recordId: p.id,
      before,
      after,
    });
  }
  // The audit rows of server/db/audit.ts `recordAudit`, in one insert.
  const time = nowText();
  for (let i = 0; i < audits.length; i += 100)
    await (db as Kysely<any>)
      .insertInto(AUDIT_TABLE)
      .values(
        audits.slice(i, i + 100).map((a) => ({
          time,
          accountId: a.actor.accountId,
          account: a.actor.account,
          call: a.actor.call,
          resource: a.resource,
          recordId: String(a.recordId),
          before: digestOf(a.before as Record<string, unknown> | undefined),
          after: digestOf(a.after as Record<string, unknown> | undefined),
          changed: JSON.stringify(changedColumns(a.before as Json | undefined, a.after as Json | undefined)),
          // The whole row: authors and artworks have no write-only property (their history, kernel/server/history.ts).
          state: a.after ? stateText(a.after as Json, Object.keys(a.after)) : null,
        })),
      )
      .execute();
};

export type { PutOnChainResult };

const locks = new Map<string, Promise<unknown>>();
/**
 * Per ledger (a process may run several: the tests' apps), record (`kind:id`) → its put-on-chain
 * transaction still queued after the call that stored it gave up.
 */
const queuedByLedger = new WeakMap<Ledger, Map<string, string>>();

/** Runs `fn` after any earlier call for the same key finished (one put-on-chain per record at a time). */
export async function withRecordLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = locks.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const tail = run.catch(() => undefined);
  locks.set(key, tail);
  try {
    return await run;
  } finally {
    if (locks.get(key) === tail) locks.delete(key);
  }
}

/**
 * Puts `record` (as the API answers it) on chain, or answers the existing transaction when its digest
 * equals the last on-chain digest. Waits for the block. The caller checks existence and the
 * author-before-artwork rule, and holds `withRecordLock`.
 * @param stored the record's stored chain state (chain tx id, chainDigest, chainVersion).
 * @param timeoutMs how long to wait for the block (the ledger's default when omitted); on a timeout the
 *   queued transaction is remembered, and the next call for the record waits for it instead of queuing
 *   a second transaction of the same version.
 */
export async function putOnChain(
  ledger: Ledger,
  kind: RecordKind,
  record: { id: number },
  stored: { chain: string | null; chainDigest: string | null; chainVersion: number },
  creator: string,
  onSubmitted?: (txId: string) => Promise<void>,
  timeoutMs?: number,
): Promise<PutOnChainResult> {
  const digest = recordDigest(kind, record);
  const key = `${kind}:${record.id}`;
  let queued = queuedByLedger.get(ledger);
  if (!queued) queuedByLedger.set(ledger, (queued = new Map()));
  const queuedTxId = queued.get(key);
  if (queuedTxId) {
    // An earlier call timed out while its transaction was still queued: wait for that one first, so a
    // retry neither writes the same version twice nor loses the queued one.
    const tx = await ledger.waitForCommit(queuedTxId, timeoutMs);
    queued.delete(key);
    const [, version, txDigest] = tx.args;
    if (txDigest === digest) return result(tx, Number(version), digest, true);
    stored = {
      chain: tx.txId,
      chainDigest: txDigest,
      chainVersion: Math.max(stored.chainVersion, Number(version)),
    };
  }
  if (stored.chain && stored.chainDigest === digest) {
    const tx = (await ledger.transaction(stored.chain)) ?? (await ledger.waitForCommit(stored.chain));
    return result(tx, stored.chainVersion, digest, true);
  }
  const version = stored.chainVersion + 1;
  let storedTxId: string | undefined;
  try {
    const committed = await ledger.submitAndWait(
      {
        channel: RECORD_CHANNEL,
        chaincode: RECORD_CHAINCODE,
        function: RECORD_FUNCTION[kind],
        args: [String(record.id), String(version), digest],
        creator,
      },
      {
        timeoutMs,
        onStored: async (tx) => {
          storedTxId = tx.txId;
          await onSubmitted?.(tx.txId);
        },
      },
    );
    return result(committed, version, digest, false);
  } catch (err) {
    // Stored but not yet in a block (e.g. a timeout): remember it for the next call on this record.
    if (storedTxId && (await ledger.isPending(storedTxId))) queued.set(key, storedTxId);
    throw err;
  }
}

function result(tx: CommittedTx, version: number, digest: string, repeated: boolean): PutOnChainResult {
  return {
    txId: tx.txId,
    channel: tx.channel,
    blockNumber: tx.blockNumber,
    blockTime: tx.blockTime,
    version,
    digest,
    repeated,
  };
}

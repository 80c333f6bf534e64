/**
 * The full verification behind `GET /baas-api/verify` and `npm run ledger:verify` (docs/ledger.md
 * section 6): the chain (verify.ts), then the signed checkpoints against the recomputed heads, then the
 * registry against the ledger:
 *
 * - the Merkle log and checkpoints (`auditCheckpoints`): the stored log equals the one recomputed from
 *   the transactions, every checkpoint names its tree hash, the latest is validly signed and covers it;
 * - registry: for every author and artwork, the ledger's latest put transaction of that record (by
 *   `args[0]`, not the record's own pointer) against the record: `isBlock`, `chain` (its latest
 *   transaction, not an older one nor another record's), `chainVersion` (not rolled back), `chainDigest`
 *   and the current digest (changed since it was put on chain).
 *
 * Every `expected` is the recomputed value, every `found` the stored or claimed one.
 */
import type { Kysely } from 'kysely';
import type { AuditResult, CheckpointAudit, RegistryAudit, RegistryProblem } from '../../common/ledger/audit';
import { fromHex, toHex } from '../../common/ledger/hex';
import { parseCheckpoint, splitNote, verifyCheckpointNote } from '../../common/ledger/note';
import { arrayHashReader, storedHashesForRecordHash, treeHash, type Hash } from '../../common/ledger/tlog';
import type { RecordKind } from '../../common/ledger/recordFields';
import type { Database } from '../db/database';
import { MigrationMemo, explainEdit, type LatestRecordTx } from './editAudit';

export type { LatestRecordTx };
import {
  RECORD_CHAINCODE,
  RECORD_FUNCTION,
  RECORD_TABLE,
  recordDigest,
  recordOfTx,
  type RecordTable,
} from './records';
import { verifyLedger } from './verify';
import type { LedgerTables } from './tables';

/**
 * Where the audit reads authors and artworks as the API answers them (their digests are over that form):
 * the kernel's repositories (`app.resources`, kernel/server/resources.ts), passed in by the caller so the
 * ledger does not import the layer above it.
 */
export type RecordRepositories = Record<
  RecordTable,
  { getOne(db: Kysely<any>, id: number): Promise<object> }
>;

/** The public key checkpoints are verified with. */
export interface VerifyKey {
  name: string;
  publicKey: Uint8Array;
  fingerprint: string;
  /**
   * The keys it replaced, oldest first (key rotation, docs/ledger.md section 10): checkpoints before the
   * first transition are signed by `previous[0]`, each transition checkpoint by a key and the next one.
   */
  previous?: Uint8Array[];
}

/** Every record transaction of the ledger: (kind:id) → latest, and txId → its record. */
export async function recordTxIndex(db: Kysely<any>): Promise<{
  latest: Map<string, LatestRecordTx>;
  owner: Map<string, { kind: RecordKind; id: number; version: number }>;
}> {
  const rows = await (db as Kysely<LedgerTables>)
    .selectFrom('ledger_tx')
    .select(['txId', 'chaincode', 'function', 'args', 'blockNumber', 'txIndex'])
    .where('chaincode', '=', RECORD_CHAINCODE)
    .orderBy('channelId')
    .orderBy('blockNumber')
    .orderBy('txIndex')
    .execute();
  const latest = new Map<string, LatestRecordTx>();
  const owner = new Map<string, { kind: RecordKind; id: number; version: number }>();
  for (const r of rows) {
    const rec = recordOfTx({
      chaincode: r.chaincode,
      function: r.function,
      args: JSON.parse(r.args) as string[],
    });
    if (!rec) continue;
    owner.set(r.txId, { kind: rec.kind, id: rec.id, version: rec.version });
    const key = `${rec.kind}:${rec.id}`;
    const prev = latest.get(key);
    if (!prev || rec.version >= prev.version)
      latest.set(key, {
        txId: r.txId,
        version: rec.version,
        digest: rec.digest,
        blockNumber: r.blockNumber,
        versions: (prev?.versions ?? 0) + 1,
      });
    else prev.versions++;
  }
  return { latest, owner };
}

/** The latest put transaction of one record (by the ledger, not the record's pointer), or undefined. */
export async function latestRecordTx(
  db: Kysely<any>,
  kind: RecordKind,
  id: number,
): Promise<LatestRecordTx | undefined> {
  const rows = await (db as Kysely<LedgerTables>)
    .selectFrom('ledger_tx')
    .select(['txId', 'args', 'blockNumber'])
    .where('chaincode', '=', RECORD_CHAINCODE)
    .where('function', '=', RECORD_FUNCTION[kind])
    .where('args', 'like', `["${id}",%`)
    .orderBy('blockNumber')
    .orderBy('txIndex')
    .execute();
  let best: LatestRecordTx | undefined;
  for (const r of rows) {
    const [rid, version, digest] = JSON.parse(r.args) as string[];
    if (Number(rid) !== id) continue;
    if (!best || Number(version) >= best.version)
      best = {
        txId: r.txId,
        version: Number(version),
        digest,
        blockNumber: r.blockNumber,
        versions: (best?.versions ?? 0) + 1,
      };
    else best.versions++;
  }
  return best;
}

/**
 * Checks each channel's stored Merkle log and its signed checkpoints against the verified chain: the log
 * is recomputed from the transactions' (verified) leaf hashes in (block, index) order, and every
 * `ledger_tree` row must hold exactly the recomputed stored hashes, size and root (`field: "tree"`);
 * every checkpoint's note must name its row's size and the recomputed tree hash at that size
 * (`checkpoint`); the latest one (every one with `allSignatures`) must carry a valid signature of the key
 * under the name of its origin (`signature`); and it must cover the whole log (`coverage`).
 */
export async function auditCheckpoints(
  db: Kysely<any>,
  key: VerifyKey | undefined,
  opts: { channel?: string; allSignatures?: boolean } = {},
): Promise<CheckpointAudit> {
  const ldb = db as Kysely<LedgerTables>;
  let q = ldb.selectFrom('ledger_channel').select(['id', 'name']).orderBy('id');
  if (opts.channel !== undefined) q = q.where('name', '=', opts.channel);
  const out: CheckpointAudit = { checked: 0, signatures: 0, fingerprint: key?.fingerprint ?? null };
  for (const ch of await q.execute()) {
    const fail = (
      field: 'checkpoint' | 'signature' | 'coverage' | 'tree',
      blockNumber: number,
      expected: string,
      found: string,
      what: string,
    ) => {
      out.failure = {
        channel: ch.name,
        blockNumber,
        field,
        expected,
        found,
        message: `channel ${ch.name}, block ${blockNumber}: ${what} (expected ${expected}, found ${found})`,
      };
      return out;
    };
    // The log recomputed from the transactions, compared with the stored tree block by block.
    const stored: Hash[] = [];
    const read = arrayHashReader(stored);
    const trees = await ldb
      .selectFrom('ledger_tree')
      .select(['blockNumber', 'size', 'rootHash', 'hashStart', 'hashes'])
      .where('channelId', '=', ch.id)
      .orderBy('blockNumber')
      .execute();
    const leaves = await ldb
      .selectFrom('ledger_tx')
      .select(['blockNumber', 'leafHash'])
      .where('channelId', '=', ch.id)
      .orderBy('blockNumber')
      .orderBy('txIndex')
      .execute();
    const blocks = await ldb
      .selectFrom('ledger_block')
      .select(['number'])
      .where('channelId', '=', ch.id)
      .orderBy('number')
      .execute();
    let at = 0;
    let size = 0;
    const rowByBlock = new Map(trees.map((t) => [Number(t.blockNumber), t]));
    for (const { number } of blocks) {
      const start = stored.length;
      while (at < leaves.length && Number(leaves[at].blockNumber) === number) {
        stored.push(...storedHashesForRecordHash(size, fromHex(leaves[at].leafHash), read));
        size++;
        at++;
      }
      const row = rowByBlock.get(Number(number));
      const root = toHex(treeHash(size, read));
      if (!row)
        return fail(
          'tree',
          number,
          `a log row of ${size} entries`,
          'none',
          'the block has no Merkle log row',
        );
      const hex = stored.slice(start).map(toHex).join('');
      if (
        Number(row.size) !== size ||
        Number(row.hashStart) !== start ||
        row.hashes !== hex ||
        row.rootHash !== root
      )
        return fail(
          'tree',
          number,
          `${size} entries, root ${root}`,
          `${row.size} entries, root ${row.rootHash}`,
          'the stored Merkle log differs from the one recomputed from the transactions',
        );
    }
    const cps = await ldb
      .selectFrom('ledger_checkpoint')
      .select(['size', 'note'])
      .where('channelId', '=', ch.id)
      .orderBy('size')
      .execute();
    const blockOf = (n: number) => trees.find((t) => Number(t.size) >= n)?.blockNumber ?? -1;
    const chain = key ? [...(key.previous ?? []), key.publicKey] : [];
    let inEffect = 0;
    for (const [i, cp] of cps.entries()) {
      let parsed;
      try {
        parsed = parseCheckpoint(splitNote(cp.note).body);
      } catch (err) {
        return fail(
          'checkpoint',
          blockOf(cp.size),
          'a signed checkpoint note',
          'malformed',
          (err as Error).message,
        );
      }
      if (parsed.size !== Number(cp.size))
        return fail(
          'checkpoint',
          blockOf(cp.size),
          String(cp.size),
          String(parsed.size),
          'the checkpoint note names another size than its row',
        );
      if (parsed.size > size || parsed.size < 1)
        return fail(
          'checkpoint',
          blockOf(parsed.size),
          `a size of 1..${size}`,
          String(parsed.size),
          `a signed checkpoint names a log of ${parsed.size} entries, which the ledger does not hold (rolled back?)`,
        );
      const root = toHex(treeHash(parsed.size, read));
      if (root !== parsed.rootHash)
        return fail(
          'checkpoint',
          blockOf(parsed.size),
          root,
          parsed.rootHash,
          `the signed checkpoint of ${parsed.size} entries names another root than the log recomputed from the transactions`,
        );
      out.checked++;
      // Key rotation: a checkpoint signed by the key in effect and the next one moves to the next key.
      if (
        key &&
        chain.length > 1 &&
        inEffect < chain.length - 1 &&
        splitNote(cp.note).signatures.length > 1
      ) {
        const both = await Promise.all(
          [chain[inEffect], chain[inEffect + 1]].map((publicKey) =>
            verifyCheckpointNote(cp.note, { name: parsed.origin, publicKey }),
          ),
        );
        if (both[0].ok && both[1].ok) inEffect++;
      }
      if (key && (opts.allSignatures || i === cps.length - 1)) {
        const v = await verifyCheckpointNote(cp.note, { name: parsed.origin, publicKey: chain[inEffect] });
        if (!v.ok)
          return fail(
            'signature',
            blockOf(parsed.size),
            `a valid signature of ${parsed.origin}${inEffect < chain.length - 1 ? ` by key ${inEffect + 1} of the ${chain.length} of its rotation (no transition checkpoint signed by it and the next yet)` : ''}`,
            v.reason,
            v.message,
          );
        out.signatures++;
      }
    }
    const covered = cps.length ? Number(cps[cps.length - 1].size) : 0;
    if (covered < size)
      return fail(
        'coverage',
        blockOf(covered + 1),
        String(size),
        String(covered),
        `entries ${covered}..${size - 1} are not covered by a signed checkpoint`,
      );
  }
  return out;
}

/**
 * Checks every author and artwork against the ledger's latest put transaction of it. A record whose
 * current digest differs from it is `edited` when its stored row is the row after its latest audited
 * write (editAudit.ts), a `digest` problem otherwise.
 */
export async function auditRegistry(db: Kysely<Database>, repos: RecordRepositories): Promise<RegistryAudit> {
  const { latest, owner } = await recordTxIndex(db);
  const out: RegistryAudit = { checked: 0, onChain: 0, edited: [], problems: [] };
  const migrations = new MigrationMemo(db);
  for (const kind of ['author', 'artwork'] as RecordKind[]) {
    const rows = await (db as Kysely<any>)
      .selectFrom(RECORD_TABLE[kind])
      .select(['id', 'isBlock', 'chain', 'chainDigest', 'chainVersion'])
      .orderBy('id')
      .execute();
    for (const row of rows as {
      id: number;
      isBlock: number;
      chain: string | null;
      chainDigest: string | null;
      chainVersion: number;
    }[]) {
      out.checked++;
      const id = Number(row.id);
      const l = latest.get(`${kind}:${id}`);
      const problem = (field: RegistryProblem['field'], expected: string, found: string, what: string) =>
        out.problems.push({
          kind,
          recordId: id,
          blockNumber: l?.blockNumber ?? null,
          field,
          expected,
          found,
          message: `${kind} ${id}: ${what} (expected ${expected}, found ${found})`,
        });
      if (l) out.onChain++;
      const isBlock = l ? 1 : 0;
      if (Number(row.isBlock) !== isBlock)
        problem(
          'isBlock',
          String(isBlock),
          String(row.isBlock),
          l ? 'on chain but not marked so' : 'marked on chain without a transaction in the ledger',
        );
      if (row.chain) {
        const o = owner.get(row.chain);
        if (!o)
          problem('chain', l?.txId ?? 'none', row.chain, 'points at a transaction the ledger does not hold');
        else if (o.kind !== kind || o.id !== id)
          problem('chain', l?.txId ?? 'none', row.chain, `claims the transaction of ${o.kind} ${o.id}`);
        else if (l && row.chain !== l.txId)
          problem(
            'chain',
            l.txId,
            row.chain,
            `points at version ${o.version}, the ledger's latest is version ${l.version}`,
          );
      } else if (l) problem('chain', l.txId, 'none', 'on chain but its transaction pointer is empty');
      if (!l) continue;
      if (Number(row.chainVersion) !== l.version)
        problem(
          'chainVersion',
          String(l.version),
          String(row.chainVersion),
          Number(row.chainVersion) < l.version
            ? 'rolled back to an older version'
            : 'claims a version the ledger does not hold',
        );
      if (row.chainDigest !== l.digest)
        problem(
          'chainDigest',
          l.digest,
          row.chainDigest ?? 'none',
          "its stored chain digest differs from its latest transaction's",
        );
      const record = await repos[RECORD_TABLE[kind]].getOne(db, id);
      const digest = recordDigest(kind, { ...record, id });
      if (digest === l.digest) continue;
      const edited = await explainEdit(db, kind, id, digest, l, migrations);
      if (edited) out.edited.push(edited);
      else
        problem(
          'digest',
          digest,
          l.digest,
          `changed since it was put on chain (version ${l.version}), and its stored row matches no audited write`,
        );
    }
  }
  return out;
}

/**
 * The verify answer of a channel the signer halted (server/ledger/checkpoints.ts `alarms`, docs/ledger.md
 * section 10): not ok, the alarm first (`field: "alarm"`, `expected`: the last signed checkpoint,
 * `found`: the stored head, as "<size> entries, root <hex>"), the audit's parts kept.
 */
export function haltedAudit(
  result: AuditResult,
  alarm: {
    channel: string;
    kind: 'fork' | 'rollback' | 'key';
    reason: string;
    signed: { size: number; rootHash: string };
    head: { size: number; rootHash: string };
  },
): AuditResult {
  const tree = (t: { size: number; rootHash: string }) => `${t.size} entries, root ${t.rootHash}`;
  return {
    ...result,
    ok: false,
    channel: alarm.channel,
    blockNumber: -1,
    field: 'alarm',
    expected: tree(alarm.signed),
    found: tree(alarm.head),
    message: `channel ${alarm.channel} is halted (${alarm.kind}): ${alarm.reason}`,
    blocks: result.blocks,
    transactions: result.transactions,
    halted: { channel: alarm.channel, kind: alarm.kind, reason: alarm.reason },
  };
}

/**
 * Chain, checkpoints and registry; the first failure in that order is the answer's top level.
 * @param repos the resource repositories (records as the API answers them, for their digests)
 */
export async function auditLedger(
  db: Kysely<Database>,
  repos: RecordRepositories,
  key: VerifyKey | undefined,
  opts: { channel?: string; allSignatures?: boolean } = {},
): Promise<AuditResult> {
  const chain = await verifyLedger(db, opts.channel);
  const checkpoints: CheckpointAudit = chain.ok
    ? await auditCheckpoints(db, key, opts)
    : { checked: 0, signatures: 0, fingerprint: key?.fingerprint ?? null };
  const registry = await auditRegistry(db, repos);
  const extra = { chain, checkpoints, registry };
  if (!chain.ok) return { ...chain, ...extra };
  const f = checkpoints.failure;
  if (f)
    return {
      ok: false,
      channel: f.channel,
      blockNumber: f.blockNumber,
      field: f.field,
      expected: f.expected,
      found: f.found,
      message: f.message,
      blocks: chain.blocks,
      transactions: chain.transactions,
      ...extra,
    };
  const p = registry.problems[0];
  if (p)
    return {
      ok: false,
      channel: 'artchannel',
      blockNumber: p.blockNumber ?? -1,
      field: p.field,
      expected: p.expected,
      found: p.found,
      message:
        registry.problems.length === 1
          ? p.message
          : `${p.message}; ${registry.problems.length - 1} more registry problem(s)`,
      blocks: chain.blocks,
      transactions: chain.transactions,
      kind: p.kind,
      recordId: p.recordId,
      ...extra,
    };
  return {
    ...chain,
    message: `${chain.message}; ${checkpoints.checked} checkpoints (${checkpoints.signatures} signatures); ${registry.checked} records (${registry.onChain} on chain) match the ledger${
      registry.edited.length
        ? `; ${registry.edited.length} edited since put on chain, each by an audited write`
        : ''
    }`,
    ...extra,
  };
}

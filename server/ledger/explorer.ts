/**
 * The embedded ledger's reads, in the manner of Hyperledger Explorer (docs/ledger.md, docs/api.md
 * `/baas-api/*`): channels, blocks (paged, time range), a block and its transactions, transactions
 * (paged, filtered), a transaction, Merkle proofs, totals and per-minute/per-hour counts, verification;
 * plus the explorer's search (block number, block hash, tx id) and chaincode list over any `Ledger`.
 * Read-only: nothing here writes.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import { MAX_ID } from '../../kernel/dialect/schemaRegistry';
import { fromHex, toHex } from '../../common/ledger/hex';
import type {
  BlockInfo,
  BlockQuery,
  ChannelInfo,
  CommittedTx,
  Ledger,
  Page,
  TxBucket,
  TxProof,
  TxQuery,
  VerifyResult,
  SearchHit,
} from '../../common/ledger/types';
import { LIFECYCLE_CHAINCODE } from './chaincode';
import { merkleProof } from './merkle';
import type { LedgerTables } from './tables';
import { storedTx } from './tx';
import { verifyLedger } from './verify';

type Db = Kysely<LedgerTables>;

type TxRow = LedgerTables['ledger_tx'];

function rowToTx(row: TxRow, channel: string, blockTime: string): CommittedTx {
  return {
    ...storedTx(row, channel),
    channelId: row.channelId,
    blockNumber: row.blockNumber,
    txIndex: row.txIndex,
    leafHash: row.leafHash,
    blockTime,
  };
}

/**
 * Reads of the embedded ledger's tables. `names(id)` answers a channel's name as the write pipeline
 * knows it (rows of a channel it does not know show the id as the name).
 */
export class LedgerExplorer {
  private readonly db: Db;
  private readonly names: (id: number) => string | undefined;

  constructor(db: Kysely<any>, names: (id: number) => string | undefined) {
    this.db = db as Db;
    this.names = names;
  }

  async channels(): Promise<ChannelInfo[]> {
    const rows = await this.db.selectFrom('ledger_channel').selectAll().orderBy('id').execute();
    const stats = await this.db
      .selectFrom('ledger_block')
      .select([
        'channelId',
        (eb) => eb.fn.countAll<number>().as('height'),
        (eb) => eb.fn.sum<number>('txCount').as('txCount'),
      ])
      .groupBy('channelId')
      .execute();
    const byId = new Map(stats.map((s) => [s.channelId, s]));
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      height: Number(byId.get(r.id)?.height ?? 0),
      txCount: Number(byId.get(r.id)?.txCount ?? 0),
      createdAt: r.createdAt,
    }));
  }

  async channel(idOrName: number | string): Promise<ChannelInfo | undefined> {
    const row = await this.db
      .selectFrom('ledger_channel')
      .selectAll()
      .where(typeof idOrName === 'number' ? 'id' : 'name', '=', idOrName)
      .executeTakeFirst();
    if (!row) return undefined;
    const s = await this.db
      .selectFrom('ledger_block')
      .select([
        (eb) => eb.fn.countAll<number>().as('height'),
        (eb) => eb.fn.sum<number>('txCount').as('txCount'),
      ])
      .where('channelId', '=', row.id)
      .executeTakeFirstOrThrow();
    return {
      id: row.id,
      name: row.name,
      height: Number(s.height ?? 0),
      txCount: Number(s.txCount ?? 0),
      createdAt: row.createdAt,
    };
  }

  private channelName(id: number): string {
    return this.names(id) ?? String(id);
  }

  private blockRow(r: LedgerTables['ledger_block']): BlockInfo {
    return {
      channelId: r.channelId,
      channel: this.channelName(r.channelId),
      number: r.number,
      previousHash: r.previousHash,
      dataHash: r.dataHash,
      blockHash: r.blockHash,
      txCount: r.txCount,
      createdAt: r.createdAt,
    };
  }

  async blocks(q: BlockQuery): Promise<Page<BlockInfo>> {
    let base = this.db.selectFrom('ledger_block').where('channelId', '=', q.channelId);
    if (q.from) base = base.where('createdAt', '>=', q.from);
    if (q.to) base = base.where('createdAt', '<=', q.to);
    const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .selectAll()
      .orderBy('number', q.order === 'ASC' ? 'asc' : 'desc')
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute();
    return { list: await this.withTree(rows.map((r) => this.blockRow(r))), total: Number(total.n) };
  }

  /** Adds each block's log size and root after it (`ledger_tree`, docs/ledger.md 3a). */
  private async withTree(blocks: BlockInfo[]): Promise<BlockInfo[]> {
    if (blocks.length === 0) return blocks;
    const rows = await this.db
      .selectFrom('ledger_tree')
      .select(['channelId', 'blockNumber', 'size', 'rootHash'])
      .where('channelId', '=', blocks[0].channelId)
      .where(
        'blockNumber',
        'in',
        blocks.map((b) => b.number),
      )
      .execute();
    const byNumber = new Map(rows.map((r) => [Number(r.blockNumber), r]));
    for (const b of blocks) {
      const t = b.channelId === blocks[0].channelId ? byNumber.get(b.number) : undefined;
      if (t) {
        b.treeSize = Number(t.size);
        b.treeRoot = t.rootHash;
      }
    }
    return blocks;
  }

  async block(channelId: number, number: number): Promise<BlockInfo | undefined> {
    return this.oneBlock({ channelId, number });
  }

  async blockByHash(hash: string): Promise<BlockInfo | undefined> {
    return this.oneBlock({ blockHash: hash.toLowerCase() });
  }

  /** The block whose columns equal `where` (a unique key: channel and number, or block hash), with its tree. */
  private async oneBlock(
    where: { channelId: number; number: number } | { blockHash: string },
  ): Promise<BlockInfo | undefined> {
    let q = this.db.selectFrom('ledger_block').selectAll();
    for (const [column, value] of Object.entries(where))
      q = q.where(column as 'channelId' | 'number' | 'blockHash', '=', value as never);
    const r = await q.executeTakeFirst();
    return r && (await this.withTree([this.blockRow(r)]))[0];
  }

  private async txsWithTime(rows: TxRow[]): Promise<CommittedTx[]> {
    if (rows.length === 0) return [];
    const keys = [...new Set(rows.map((r) => `${r.channelId}:${r.blockNumber}`))];
    const times = new Map<string, string>();
    for (const k of keys) {
      const [c, n] = k.split(':').map(Number);
      const b = await this.db
        .selectFrom('ledger_block')
        .select('createdAt')
        .where('channelId', '=', c)
        .where('number', '=', n)
        .executeTakeFirst();
      times.set(k, b?.createdAt ?? '');
    }
    return rows.map((r) =>
      rowToTx(r, this.channelName(r.channelId), times.get(`${r.channelId}:${r.blockNumber}`) ?? ''),
    );
  }

  async blockTransactions(channelId: number, number: number): Promise<CommittedTx[]> {
    const rows = await this.db
      .selectFrom('ledger_tx')
      .selectAll()
      .where('channelId', '=', channelId)
      .where('blockNumber', '=', number)
      .orderBy('txIndex')
      .execute();
    return this.txsWithTime(rows);
  }

  async transactions(q: TxQuery): Promise<Page<CommittedTx>> {
    let base = this.db.selectFrom('ledger_tx');
    if (q.channelId !== undefined) base = base.where('channelId', '=', q.channelId);
    if (q.blockNumber !== undefined) base = base.where('blockNumber', '=', q.blockNumber);
    if (q.chaincode !== undefined) base = base.where('chaincode', '=', q.chaincode);
    if (q.from) base = base.where('timestamp', '>=', q.from);
    if (q.to) base = base.where('timestamp', '<=', `${q.to}\uffff`);
    const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .selectAll()
      .orderBy('channelId')
      .orderBy('blockNumber', 'desc')
      .orderBy('txIndex', 'desc')
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute();
    return { list: await this.txsWithTime(rows), total: Number(total.n) };
  }

  async transaction(txId: string): Promise<CommittedTx | undefined> {
    const r = await this.db
      .selectFrom('ledger_tx')
      .selectAll()
      .where('txId', '=', txId.toLowerCase())
      .executeTakeFirst();
    return r ? (await this.txsWithTime([r]))[0] : undefined;
  }

  async isPending(txId: string): Promise<boolean> {
    const r = await this.db
      .selectFrom('ledger_pending')
      .select('seq')
      .where('txId', '=', txId)
      .executeTakeFirst();
    return !!r;
  }

  async proof(txId: string): Promise<TxProof | undefined> {
    const tx = await this.transaction(txId);
    if (!tx) return undefined;
    const block = (await this.block(tx.channelId, tx.blockNumber))!;
    const leaves = await this.db
      .selectFrom('ledger_tx')
      .select(['leafHash'])
      .where('channelId', '=', tx.channelId)
      .where('blockNumber', '=', tx.blockNumber)
      .orderBy('txIndex')
      .execute();
    const { channelId: _c, blockNumber: _b, txIndex, leafHash: _l, blockTime, ...body } = tx;
    return {
      channel: tx.channel,
      channelId: tx.channelId,
      tx: body,
      leafIndex: txIndex,
      proof: merkleProof(
        leaves.map((l) => fromHex(l.leafHash)),
        txIndex,
      ).map((s) => ({ side: s.side, hash: toHex(s.hash) })),
      header: { number: block.number, previousHash: block.previousHash, dataHash: block.dataHash },
      blockHash: block.blockHash,
      blockTime,
    };
  }

  async totals(): Promise<{ channels: number; blocks: number; transactions: number; pending: number }> {
    const count = async (t: keyof LedgerTables) =>
      Number(
        (
          await this.db
            .selectFrom(t)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      channels: await count('ledger_channel'),
      blocks: await count('ledger_block'),
      transactions: await count('ledger_tx'),
      pending: await count('ledger_pending'),
    };
  }

  private async buckets(len: number, n: number, stepMs: number, now: Date): Promise<TxBucket[]> {
    const label = (d: Date) => d.toISOString().slice(0, len).replace('T', ' ');
    const end = new Date(Math.floor(now.getTime() / stepMs) * stepMs);
    const start = new Date(end.getTime() - (n - 1) * stepMs);
    const rows = await this.db
      .selectFrom('ledger_tx')
      .select([
        sql<string>`substr(${sql.ref('timestamp')}, 1, ${sql.lit(len)})`.as('t'),
        (eb) => eb.fn.countAll<number>().as('n'),
      ])
      .where('timestamp', '>=', label(start))
      .groupBy(sql`substr(${sql.ref('timestamp')}, 1, ${sql.lit(len)})`)
      .execute();
    const counts = new Map(rows.map((r) => [r.t, Number(r.n)]));
    const out: TxBucket[] = [];
    for (let i = 0; i < n; i++) {
      const t = label(new Date(start.getTime() + i * stepMs));
      out.push({ time: t, count: counts.get(t) ?? 0 });
    }
    return out;
  }

  txPerMinute(minutes: number, now = new Date()): Promise<TxBucket[]> {
    return this.buckets(16, minutes, 60_000, now);
  }

  txPerHour(hours: number, now = new Date()): Promise<TxBucket[]> {
    return this.buckets(13, hours, 3_600_000, now);
  }

  verify(channel?: string): Promise<VerifyResult> {
    return verifyLedger(this.db, channel);
  }
}

/** 64 hex characters: a block hash or a transaction id. */
export const HEX64 = '^[0-9a-fA-F]{64}$';

export type { SearchHit };

/** The search hit naming block `b` (its channel, number and hash). */
const blockHit = (b: BlockInfo): SearchHit => ({
  type: 'block',
  channelId: b.channelId,
  channel: b.channel,
  number: b.number,
  blockHash: b.blockHash,
});

/**
 * The explorer's search (GET /baas-api/search): digits name a block number in every channel (a number
 * past the id range names nothing); 64 hex characters name a block hash and/or a transaction id.
 * @returns the hits, blocks first; `undefined` when `q` is neither (the route answers 400 naming `q`)
 */
export async function searchLedger(ledger: Ledger, q: string): Promise<SearchHit[] | undefined> {
  const hits: SearchHit[] = [];
  if (/^\d+$/.test(q)) {
    if (q.length <= 10 && Number(q) <= MAX_ID)
      for (const ch of await ledger.channels()) {
        const b = await ledger.block(ch.id, Number(q));
        if (b) hits.push(blockHit(b));
      }
    return hits;
  }
  if (!new RegExp(HEX64).test(q)) return undefined;
  const b = await ledger.blockByHash(q);
  if (b) hits.push(blockHit(b));
  const tx = await ledger.transaction(q);
  if (tx)
    hits.push({
      type: 'transaction',
      channelId: tx.channelId,
      channel: tx.channel,
      number: tx.blockNumber,
      txId: tx.txId,
    });
  return hits;
}

/** A chaincode as the list answers it (no code, no args, no history). */
export type ChaincodeRow = Omit<
  Selectable<LedgerTables['chaincode']>,
  'code' | 'initArgs' | 'args' | 'history'
> & {
  channel: string;
};

/**
 * One page of chaincodes, newest first, optionally of one channel (GET /baas-api/chaincodes).
 * @param page 1-based
 */
export async function listChaincodes(
  db: Kysely<any>,
  ledger: Ledger,
  q: { page: number; pageSize: number; channelId?: number },
): Promise<Page<ChaincodeRow>> {
  let base = (db as Db).selectFrom('chaincode');
  if (q.channelId) base = base.where('channelId', '=', q.channelId);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .select([
      'id',
      'channelId',
      'name',
      'version',
      'policy',
      'function',
      'functionType',
      'fileName',
      'codeHash',
      'status',
      'createdBy',
      'createTime',
      'updateTime',
    ])
    .orderBy('id', 'desc')
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize)
    .execute();
  const names = new Map((await ledger.channels()).map((c) => [c.id, c.name]));
  return {
    list: rows.map((r) => ({ ...r, channel: names.get(r.channelId) ?? String(r.channelId) })),
    total: Number(total.n),
  };
}

/** The number of chaincodes (the dashboard's card). */
export async function countChaincodes(db: Kysely<any>): Promise<number> {
  return (await chaincodeNames(db)).length;
}

/** Hyperledger Fabric's system chaincodes (not user chaincode): lifecycle, configuration, query, ... */
export const SYSTEM_CHAINCODES = [LIFECYCLE_CHAINCODE, 'cscc', 'qscc', 'lscc', 'escc', 'vscc'];

/**
 * The chaincodes of the network, by name: those installed through the lifecycle (`chaincode` table) and
 * those the committed transactions invoke (`ledger_tx.chaincode`, e.g. the registry's built-in
 * `artregistry`), without Fabric's system chaincodes (`_lifecycle`, `cscc` of the genesis blocks, ...), sorted. The transactions' names
 * come from a loose index scan of `ledger_tx_chaincode` (one index seek per distinct name, whatever the
 * number of transactions; server/db/migrations/20261123T0000_dashboard_indexes.ts).
 */
export async function chaincodeNames(db: Kysely<any>): Promise<string[]> {
  const installed = await (db as Db).selectFrom('chaincode').select('name').distinct().execute();
  const invoked = await sql<{ name: string | null }>`
    WITH RECURSIVE names(name) AS (
      SELECT min(chaincode) FROM ledger_tx
      UNION ALL
      SELECT (SELECT min(chaincode) FROM ledger_tx WHERE chaincode > names.name) FROM names
      WHERE names.name IS NOT NULL
    )
    SELECT name FROM names WHERE name IS NOT NULL`.execute(db);
  const names = new Set([...installed.map((r) => r.name), ...invoked.rows.map((r) => r.name as string)]);
  for (const system of SYSTEM_CHAINCODES) names.delete(system);
  return [...names].sort();
}

/**
 * `/baas-api/*`: the blockchain section's read API (roles `user` and `admin`), in the manner of
 * Hyperledger Explorer: dashboard figures, channels, blocks (server-side pagination, time-range filter),
 * block detail, transactions, search by block number / block hash / tx id, Merkle proofs and
 * verification. Chaincode calls are in ./chaincode.ts. Envelope `{code, msg, data}`; lists answer
 * `{list, total}`. Times in filters: `YYYY-MM-DD`, `YYYY-MM-DD HH:mm[:ss]` or `YYYY-MM-DDTHH:mm[:ss]`, UTC.
 */
import { MAX_ID } from '../../../common/schemaRegistry';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../plugins/app/envelope';
import { invalidField, notFound } from '../../plugins/app/errors';
import type { LedgerTables } from '../../ledger/tables';
import chaincodeRoutes from './chaincode';

const TIME = '^\\d{4}-\\d{2}-\\d{2}([ T]\\d{2}:\\d{2}(:\\d{2})?)?$';
const HEX64 = '^[0-9a-fA-F]{64}$';

const paging = {
  page: { type: 'integer', minimum: 1, default: 1 },
  pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
};
const query = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/** A filter time as stored text; `to` bounds are completed to the end of the minute/day. */
export function normalizeTime(value: string | undefined, bound: 'from' | 'to'): string | undefined {
  if (!value) return undefined;
  const t = value.replace('T', ' ');
  if (t.length === 10) return `${t} ${bound === 'from' ? '00:00:00' : '23:59:59'}`;
  if (t.length === 16) return `${t}:${bound === 'from' ? '00' : '59'}`;
  return t;
}

function checkRange(from?: string, to?: string) {
  if (from && to && from > to)
    throw invalidField('from', 'x-ordered', 'must not be after "to"', { first: 'from', second: 'to' });
}

export default async function baasApiRoutes(app: FastifyInstance) {
  // Auth runs first (onRequest), before the query is parsed and validated.
  const onRequest = app.requireRoles(['user']);
  const ledger = app.ledger;

  async function channelOr404(id: number) {
    const ch = await ledger.channel(id);
    if (!ch) throw notFound('Channel', id);
    return ch;
  }

  app.get('/dashboard', { onRequest, schema: { querystring: query({}) } }, async () => {
    const totals = await ledger.totals();
    const cc = await (app.db as any as import('kysely').Kysely<LedgerTables>)
      .selectFrom('chaincode')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return ok({
      ...totals,
      chaincodes: Number(cc.n),
      perMinute: await ledger.txPerMinute(60),
      perHour: await ledger.txPerHour(24),
    });
  });

  app.get('/channels', { onRequest, schema: { querystring: query({ ...paging }) } }, async (req) => {
    const { page, pageSize } = req.query as { page: number; pageSize: number };
    const all = await ledger.channels();
    return ok({ list: all.slice((page - 1) * pageSize, page * pageSize), total: all.length });
  });

  app.get(
    '/channel',
    {
      onRequest,
      schema: { querystring: query({ id: { type: 'integer', minimum: 1, maximum: MAX_ID } }, ['id']) },
    },
    async (req) => ok(await channelOr404((req.query as { id: number }).id)),
  );

  app.get(
    '/blocks',
    {
      onRequest,
      schema: {
        querystring: query(
          {
            channelId: { type: 'integer', minimum: 1, maximum: MAX_ID },
            ...paging,
            from: { type: 'string', pattern: TIME },
            to: { type: 'string', pattern: TIME },
            order: { type: 'string', enum: ['ASC', 'DESC', 'asc', 'desc'] },
          },
          ['channelId'],
        ),
      },
    },
    async (req) => {
      const q = req.query as {
        channelId: number;
        page: number;
        pageSize: number;
        from?: string;
        to?: string;
        order?: string;
      };
      await channelOr404(q.channelId);
      const from = normalizeTime(q.from, 'from');
      const to = normalizeTime(q.to, 'to');
      checkRange(from, to);
      return ok(
        await ledger.blocks({
          channelId: q.channelId,
          page: q.page,
          pageSize: q.pageSize,
          from,
          to,
          order: q.order?.toUpperCase() === 'ASC' ? 'ASC' : 'DESC',
        }),
      );
    },
  );

  app.get(
    '/block',
    {
      onRequest,
      schema: {
        querystring: query(
          {
            channelId: { type: 'integer', minimum: 1, maximum: MAX_ID },
            number: { type: 'integer', minimum: 0, maximum: MAX_ID },
          },
          ['channelId', 'number'],
        ),
      },
    },
    async (req) => {
      const { channelId, number } = req.query as { channelId: number; number: number };
      const ch = await channelOr404(channelId);
      const block = await ledger.block(channelId, number);
      if (!block) throw notFound(`Block of channel ${ch.name} number`, number);
      return ok({ ...block, transactions: await ledger.blockTransactions(channelId, number) });
    },
  );

  app.get(
    '/transactions',
    {
      onRequest,
      schema: {
        querystring: query({
          channelId: { type: 'integer', minimum: 1, maximum: MAX_ID },
          blockNumber: { type: 'integer', minimum: 0, maximum: MAX_ID },
          chaincode: { type: 'string', maxLength: 64 },
          ...paging,
          from: { type: 'string', pattern: TIME },
          to: { type: 'string', pattern: TIME },
        }),
      },
    },
    async (req) => {
      const q = req.query as {
        channelId?: number;
        blockNumber?: number;
        chaincode?: string;
        page: number;
        pageSize: number;
        from?: string;
        to?: string;
      };
      const from = normalizeTime(q.from, 'from');
      const to = normalizeTime(q.to, 'to');
      checkRange(from, to);
      return ok(await ledger.transactions({ ...q, from, to }));
    },
  );

  app.get(
    '/transaction',
    { onRequest, schema: { querystring: query({ txId: { type: 'string', pattern: HEX64 } }, ['txId']) } },
    async (req) => {
      const { txId } = req.query as { txId: string };
      const tx = await ledger.transaction(txId);
      if (tx) return ok({ ...tx, pending: false });
      if (await ledger.isPending(txId.toLowerCase()))
        throw notFound('Transaction (still waiting for its block)', txId);
      throw notFound('Transaction', txId);
    },
  );

  app.get(
    '/search',
    {
      onRequest,
      schema: { querystring: query({ q: { type: 'string', minLength: 1, maxLength: 200 } }, ['q']) },
    },
    async (req) => {
      const q = (req.query as { q: string }).q.trim();
      const results: {
        type: 'block' | 'transaction';
        channelId: number;
        channel: string;
        number: number;
        txId?: string;
        blockHash?: string;
      }[] = [];
      if (/^\d+$/.test(q)) {
        // A number past the block-number range names no block: no results, not an error.
        if (q.length <= 10 && Number(q) <= MAX_ID)
          for (const ch of await ledger.channels()) {
            const b = await ledger.block(ch.id, Number(q));
            if (b)
              results.push({
                type: 'block',
                channelId: ch.id,
                channel: ch.name,
                number: b.number,
                blockHash: b.blockHash,
              });
          }
      } else if (new RegExp(HEX64).test(q)) {
        const b = await ledger.blockByHash(q);
        if (b)
          results.push({
            type: 'block',
            channelId: b.channelId,
            channel: b.channel,
            number: b.number,
            blockHash: b.blockHash,
          });
        const tx = await ledger.transaction(q);
        if (tx)
          results.push({
            type: 'transaction',
            channelId: tx.channelId,
            channel: tx.channel,
            number: tx.blockNumber,
            txId: tx.txId,
          });
      } else {
        throw invalidField(
          'q',
          'pattern',
          'search by a block number (digits), a block hash or a transaction id (64 hex characters)',
        );
      }
      return ok({ list: results, total: results.length });
    },
  );

  app.get(
    '/proof',
    { onRequest, schema: { querystring: query({ txId: { type: 'string', pattern: HEX64 } }, ['txId']) } },
    async (req) => {
      const { txId } = req.query as { txId: string };
      const proof = await ledger.proof(txId);
      if (!proof) throw notFound('Transaction', txId);
      return ok(proof);
    },
  );

  app.get(
    '/verify',
    { onRequest, schema: { querystring: query({ channel: { type: 'string', maxLength: 64 } }) } },
    async (req) => {
      const { channel } = req.query as { channel?: string };
      if (channel && !(await ledger.channel(channel))) throw notFound('Channel', channel);
      return ok(await ledger.verify(channel));
    },
  );

  await app.register(chaincodeRoutes, { prefix: '/chaincode' });
  app.get(
    '/chaincodes',
    {
      onRequest,
      schema: {
        querystring: query({ ...paging, channelId: { type: 'integer', minimum: 1, maximum: MAX_ID } }),
      },
    },
    async (req) => {
      const { page, pageSize, channelId } = req.query as {
        page: number;
        pageSize: number;
        channelId?: number;
      };
      const db = app.db as any as import('kysely').Kysely<LedgerTables>;
      let base = db.selectFrom('chaincode');
      if (channelId) base = base.where('channelId', '=', channelId);
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
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute();
      const names = new Map((await ledger.channels()).map((c) => [c.id, c.name]));
      return ok({
        list: rows.map((r) => ({ ...r, channel: names.get(r.channelId) ?? String(r.channelId) })),
        total: Number(total.n),
      });
    },
  );
}

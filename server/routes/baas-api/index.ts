/**
 * `/baas-api/*`: the blockchain section's read API (roles `user` and `admin`), in the manner of
 * Hyperledger Explorer: dashboard figures, channels, blocks (server-side pagination, time-range filter),
 * block detail, transactions, search by block number / block hash / tx id, Merkle proofs and
 * verification. Chaincode calls are in ./chaincode.ts; the queries are server/ledger/explorer.ts and the
 * `Ledger` interface. Envelope `{code, msg, data}`; lists answer `{list, total}`. Times in filters:
 * `YYYY-MM-DD`, `YYYY-MM-DD HH:mm[:ss]` or `YYYY-MM-DDTHH:mm[:ss]`, UTC. Query types are inferred from
 * the route schemas (@fastify/type-provider-json-schema-to-ts), so a handler reads what was validated.
 */
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance } from 'fastify';
import { MAX_ID, PAGING } from '../../../kernel/dialect/schemaRegistry';
import { countChaincodes, HEX64, listChaincodes, searchLedger } from '../../ledger/explorer';
import { ok } from '../../plugins/app/envelope';
import { apiError, invalidField } from '../../errors';
import { Codes } from '../../../common/envelope';
import chaincodeRoutes from './chaincode';
import publicRoutes, { recordAnswer, recordQuery } from './public';
import type { RecordKind } from '../../../common/ledger/recordFields';
import witnessRoutes from './witness';
import proofFileRoutes from './proofFile';
import logRoutes from './log';
import chainsRoutes from './chains';
import { auditLedger, haltedAudit } from '../../ledger/audit';
import { ed25519PublicKey } from '../../ledger/ed25519Key';

const TIME = '^\\d{4}-\\d{2}-\\d{2}([ T]\\d{2}:\\d{2}(:\\d{2})?)?$';

const id = { type: 'integer', minimum: 1, maximum: MAX_ID } as const;
const time = { type: 'string', pattern: TIME } as const;
const paging = PAGING;

/** A query-string schema: the given properties, nothing else; `required` as given. */
function query<const P extends Record<string, object>, const R extends readonly (keyof P & string)[] = []>(
  properties: P,
  required?: R,
) {
  return {
    type: 'object',
    properties,
    required: (required ?? []) as unknown as R,
    additionalProperties: false,
  } as const;
}

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

export default async function baasApiRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<JsonSchemaToTsProvider>();
  // Auth runs first (onRequest), before the query is parsed and validated.
  const onRequest = app.requireRoles(['user']);
  const ledger = app.ledger;

  async function channelOr404(id: number) {
    const ch = await ledger.channel(id);
    if (!ch) throw apiError(Codes.NOT_FOUND, 404, 'ledger.channelNotFound', { id });
    return ch;
  }

  app.get('/dashboard', { onRequest, schema: { querystring: query({}) } }, async () =>
    ok({
      ...(await ledger.totals()),
      chaincodes: await countChaincodes(app.db),
      perMinute: await ledger.txPerMinute(60),
      perHour: await ledger.txPerHour(24),
    }),
  );

  app.get('/channels', { onRequest, schema: { querystring: query({ ...paging }) } }, async (req) => {
    const { page, pageSize } = req.query;
    const all = await ledger.channels();
    return ok({ list: all.slice((page - 1) * pageSize, page * pageSize), total: all.length });
  });

  app.get('/channel', { onRequest, schema: { querystring: query({ id }, ['id']) } }, async (req) =>
    ok(await channelOr404(req.query.id)),
  );

  app.get(
    '/blocks',
    {
      onRequest,
      schema: {
        querystring: query(
          {
            channelId: id,
            ...paging,
            from: time,
            to: time,
            order: { type: 'string', enum: ['ASC', 'DESC', 'asc', 'desc'] },
          },
          ['channelId'],
        ),
      },
    },
    async (req) => {
      const q = req.query;
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
        querystring: query({ channelId: id, number: { type: 'integer', minimum: 0, maximum: MAX_ID } }, [
          'channelId',
          'number',
        ]),
      },
    },
    async (req) => {
      const { channelId, number } = req.query;
      const ch = await channelOr404(channelId);
      const block = await ledger.block(channelId, number);
      if (!block) throw apiError(Codes.NOT_FOUND, 404, 'ledger.blockNotFound', { channel: ch.name, number });
      return ok({ ...block, transactions: await ledger.blockTransactions(channelId, number) });
    },
  );

  app.get(
    '/transactions',
    {
      onRequest,
      schema: {
        querystring: query({
          channelId: id,
          blockNumber: { type: 'integer', minimum: 0, maximum: MAX_ID },
          chaincode: { type: 'string', maxLength: 64 },
          ...paging,
          from: time,
          to: time,
        }),
      },
    },
    async (req) => {
      const q = req.query;
      const from = normalizeTime(q.from, 'from');
      const to = normalizeTime(q.to, 'to');
      checkRange(from, to);
      return ok(await ledger.transactions({ ...q, from, to }));
    },
  );

  const txIdQuery = query({ txId: { type: 'string', pattern: HEX64 } }, ['txId']);

  app.get('/transaction', { onRequest, schema: { querystring: txIdQuery } }, async (req) => {
    const { txId } = req.query;
    const tx = await ledger.transaction(txId);
    if (tx) return ok({ ...tx, pending: false });
    if (await ledger.isPending(txId.toLowerCase()))
      throw apiError(Codes.NOT_FOUND, 404, 'ledger.txPending', { txId });
    throw apiError(Codes.NOT_FOUND, 404, 'ledger.txNotFound', { txId });
  });

  app.get(
    '/search',
    {
      onRequest,
      schema: { querystring: query({ q: { type: 'string', minLength: 1, maxLength: 200 } }, ['q']) },
    },
    async (req) => {
      const hits = await searchLedger(ledger, req.query.q.trim());
      if (!hits)
        throw invalidField(
          'q',
          'pattern',
          'search by a block number (digits), a block hash or a transaction id (64 hex characters)',
        );
      return ok({ list: hits, total: hits.length });
    },
  );

  app.get('/proof', { onRequest, schema: { querystring: txIdQuery } }, async (req) => {
    const { txId } = req.query;
    const proof = await ledger.proof(txId);
    if (!proof) throw apiError(Codes.NOT_FOUND, 404, 'ledger.txNotFound', { txId });
    return ok(proof);
  });

  app.get(
    '/verify',
    {
      onRequest,
      schema: { querystring: query({ channel: { type: 'string', minLength: 1, maxLength: 64 } }) },
    },
    async (req) => {
      const { channel } = req.query;
      if (channel && !(await ledger.channel(channel)))
        throw apiError(Codes.NOT_FOUND, 404, 'ledger.channelNotFound', { id: channel });
      const { key, opts } = app.checkpoints;
      const k = { ...key, previous: opts.previousKey ? [ed25519PublicKey(opts.previousKey)] : undefined };
      const result = await auditLedger(app.db, app.resources, k, { channel });
      // A channel the signer halted fails first, with the alarm's reason (issue 31).
      const alarm = [...app.checkpoints.alarms.values()].find((a) => !channel || a.channel === channel);
      return ok(alarm ? haltedAudit(result, alarm) : result);
    },
  );

  // A record with its latest put transaction, proof and covering checkpoint (the on-chain panel), whether
  // or not its public page is on: docs/ledger.md section 10.
  app.get('/record', { onRequest, schema: { querystring: recordQuery } }, async (req) =>
    ok(await recordAnswer(app, req.query.kind as RecordKind, req.query.id, false)),
  );

  await app.register(chaincodeRoutes, { prefix: '/chaincode' });
  await app.register(publicRoutes, { prefix: '/public' });
  await app.register(logRoutes, { prefix: '/public/log' });
  await app.register(witnessRoutes);
  await app.register(proofFileRoutes);
  await app.register(chainsRoutes);
  app.get(
    '/chaincodes',
    { onRequest, schema: { querystring: query({ ...paging, channelId: id }) } },
    async (req) => ok(await listChaincodes(app.db, ledger, req.query)),
  );
}

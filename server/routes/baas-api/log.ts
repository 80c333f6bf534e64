/**
 * `/baas-api/public/log/<channel>/*`: each channel's Merkle log served as C2SP tlog-tiles
 * (https://c2sp.org/tlog-tiles), so that Go's golang.org/x/mod/sumdb/tlog or any tlog-tiles client reads
 * it without knowing this code, plus proofs for clients that prefer to ask (docs/ledger.md section 10).
 * Public, rate-limited as `/baas-api/public/*` (`PUBLIC_RATE_LIMIT` per IP per minute):
 *
 * - `GET <prefix>/checkpoint`: the latest signed checkpoint, `text/plain; charset=utf-8`, `no-cache`,
 *   with the cosignatures its witnesses returned (server/ledger/witnessPush.ts);
 * - `GET <prefix>/tile/<L>/<N>[.p/<W>]`: a hash tile (height 8), `application/octet-stream`: a full tile
 *   once the latest signed checkpoint covers it; a partial tile of width W whenever a stored checkpoint of
 *   the channel had a size that makes it W wide (C2SP "Partial Tiles": a client still holding an older
 *   checkpoint reads that tree), also after the full tile exists (server/ledger/tileAvailability.ts);
 *   404 for any other path. `Cache-Control: public, max-age=31536000, immutable` for full and partial
 *   ones alike: the log only appends, so a path's bytes never change once it is served;
 * - `GET <prefix>/tile/entries/<N>[.p/<W>]`: an entry bundle (each entry = a transaction's canonical
 *   JSON, prefixed by its length as a big-endian uint16), served and cached as the level-0 tile <N>;
 * - `GET <prefix>/proof/inclusion?index=I|txId=T[&size=S]`: `{size, index, leafHash, proof}` (hashes in
 *   standard base64, leaf to root, Go's `tlog.RecordProof`) in the envelope;
 * - `GET <prefix>/proof/consistency?from=M&to=N`: `{from, to, proof}` (Go's `tlog.TreeProof`).
 *
 * Only sizes covered by a signed checkpoint are served, so a client never sees an unsigned tree.
 */
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { toHex } from '../../../common/ledger/hex';
import { toBase64 } from '../../../common/ledger/note';
import { parseTilePath, TILE_WIDTH } from '../../../common/ledger/tlog';
import { latestCheckpoint } from '../../ledger/checkpoints';
import { tileServed } from '../../ledger/tileAvailability';
import { cosignedNote } from '../../ledger/witnessPush';
import { ok } from '../../plugins/app/envelope';
import { invalidField, notFound } from '../../errors';
import { NO_QUERY } from '../../../kernel/server/validation';
import { channelOr404, publicRouteConfig } from './publicShared';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const channelParams = {
  type: 'object',
  properties: { channel: { type: 'string', minLength: 1, maxLength: 64 } },
  required: ['channel'],
  additionalProperties: false,
} as const;
const size = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

export default async function logRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<JsonSchemaToTsProvider>();
  const config = publicRouteConfig(app);

  /** The channel and its latest signed checkpoint (404 when either is missing). */
  async function signed(name: string) {
    const ch = await channelOr404(app, name);
    const cp = await latestCheckpoint(app.db, ch.id);
    if (!cp) throw notFound(`Checkpoint of channel ${ch.name}`, 'latest');
    return { ch, cp };
  }

  app.get(
    '/:channel/checkpoint',
    {
      config,
      schema: {
        summary: 'The latest signed checkpoint (C2SP tlog-checkpoint as a signed note), text/plain',
        params: channelParams,
        querystring: NO_QUERY,
        response: { 200: { type: 'string' } },
      },
    },
    async (req, reply) => {
      const { ch, cp } = await signed(req.params.channel);
      // With the witnesses' cosignatures after the log's signature (docs/witnesses.md section 11).
      return reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(await cosignedNote(app.db, ch.id, cp));
    },
  );

  app.get(
    '/:channel/status',
    {
      config,
      schema: {
        summary:
          "The log's origin, signed size and alarm (a stored history that does not extend the last signed checkpoint)",
        params: channelParams,
        querystring: NO_QUERY,
      },
    },
    async (req) => {
      const ch = await channelOr404(app, req.params.channel);
      const cp = await latestCheckpoint(app.db, ch.id);
      const alarm = app.checkpoints.alarms.get(ch.name) ?? null;
      return ok({
        channel: ch.name,
        origin: app.checkpoints.origin(ch.name),
        signedSize: cp?.size ?? 0,
        halted: alarm !== null,
        alarm,
      });
    },
  );

  app.get(
    '/:channel/tile/*',
    {
      config,
      schema: {
        summary:
          'A C2SP tlog-tiles hash tile or entry bundle: tile/<L>/<N>[.p/<W>] or tile/entries/<N>[.p/<W>]',
        params: {
          type: 'object',
          properties: {
            channel: { type: 'string', minLength: 1, maxLength: 64 },
            '*': { type: 'string', maxLength: 200 },
          },
          required: ['channel', '*'],
        } as const,
        querystring: NO_QUERY,
      },
    },
    async (req, reply: FastifyReply) => {
      const params = req.params as { channel: string; '*': string };
      const path = `tile/${params['*']}`;
      const tile = parseTilePath(path);
      if (!tile) throw notFound('Tile', path);
      const { ch, cp } = await signed(params.channel);
      // A full tile the signed tree covers, or a partial one of a size some checkpoint had.
      if (!(await tileServed(app.db, ch.id, cp.size, tile))) throw notFound('Tile', path);
      const data =
        tile.L === -1
          ? await app.ledger.entryBundle(ch.id, tile.N, tile.W)
          : await app.ledger.tile(ch.id, tile);
      return reply
        .type('application/octet-stream')
        .header('cache-control', IMMUTABLE)
        .send(Buffer.from(data));
    },
  );

  app.get(
    '/:channel/proof/inclusion',
    {
      config,
      schema: {
        summary: 'RFC 6962 inclusion proof of an entry (by index or tx id) in a signed tree',
        params: channelParams,
        querystring: {
          type: 'object',
          properties: {
            index: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
            txId: { type: 'string', pattern: '^[0-9a-f]{64}$' },
            size,
          },
          additionalProperties: false,
        } as const,
      },
    },
    async (req) => {
      const { ch, cp } = await signed(req.params.channel);
      const treeSize = req.query.size ?? cp.size;
      if (treeSize > cp.size)
        throw invalidField('size', 'maximum', `the latest signed checkpoint has ${cp.size} entries`, {
          limit: cp.size,
        });
      let index = req.query.index;
      let txId: string | undefined;
      if (req.query.txId !== undefined) {
        const tx = await app.ledger.transaction(req.query.txId);
        if (!tx || tx.channelId !== ch.id) throw notFound('Transaction', req.query.txId);
        index = await app.ledger.entryIndex(ch.id, tx.blockNumber, tx.txIndex);
        txId = tx.txId;
      }
      if (index === undefined) throw invalidField('index', 'required', 'give index or txId');
      if (index >= treeSize)
        throw invalidField('index', 'maximum', `the tree has ${treeSize} entries`, { limit: treeSize - 1 });
      const proof = await app.ledger.inclusionProof(ch.id, treeSize, index);
      // The entry's record hash: the last hash of the level-0 tile that ends with it.
      const n = Math.floor(index / TILE_WIDTH);
      const w = (index % TILE_WIDTH) + 1;
      const leaf = (await app.ledger.tile(ch.id, { H: 8, L: 0, N: n, W: w })).subarray((w - 1) * 32);
      return ok({
        channel: ch.name,
        size: treeSize,
        index,
        txId,
        leafHash: toHex(leaf),
        proof: proof.map(toBase64),
      });
    },
  );

  app.get(
    '/:channel/proof/consistency',
    {
      config,
      schema: {
        summary: 'RFC 6962 consistency proof between two signed tree sizes (from ≤ to)',
        params: channelParams,
        querystring: {
          type: 'object',
          properties: { from: size, to: size },
          required: ['from'],
          additionalProperties: false,
        } as const,
      },
    },
    async (req) => {
      const { ch, cp } = await signed(req.params.channel);
      const to = req.query.to ?? cp.size;
      const { from } = req.query;
      if (to > cp.size)
        throw invalidField('to', 'maximum', `the latest signed checkpoint has ${cp.size} entries`, {
          limit: cp.size,
        });
      if (from > to)
        throw invalidField('from', 'x-ordered', 'must not be greater than "to"', {
          first: 'from',
          second: 'to',
        });
      const proof = await app.ledger.consistencyProof(ch.id, to, from);
      return ok({ channel: ch.name, from, to, proof: proof.map(toBase64) });
    },
  );
}

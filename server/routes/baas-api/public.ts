/**
 * `/baas-api/public/*`: what anyone may read without signing in (docs/ledger.md section 10), rate-limited
 * per IP (`PUBLIC_RATE_LIMIT` requests per minute, default 600), in the envelope:
 * - `GET key`: the checkpoint signing key (SPKI PEM, SHA-256 fingerprint of the SPKI DER, raw base64, the
 *   Go note verifier key), and `previous`, the key rotated out, if any;
 * - `GET checkpoint?channel=C[&height=H]`: the latest signed checkpoint of C, or the one of size H, as
 *   `{channel, size, rootHash, note, createdAt}` (`note` = the signed note's text, followed by the
 *   cosignature lines of the witnesses that cosigned it, docs/witnesses.md section 11);
 * - `GET consistency?channel=C&from=H1&to=H2`: the block headers numbered H1 − 1 .. H2 − 1 (at most
 *   10,000), which link the checkpoints of sizes H1 and H2;
 * - `GET record?kind=author|artwork&id=N`: a published record (every field its digest covers), the
 *   ledger's latest put transaction of it with its Merkle proof, the signed checkpoint covering that
 *   block and the headers linking the two, and the key: all a browser needs to verify it
 *   (common/ledger/publicVerify.ts); `halted` ({kind, reason} or null): the signer's alarm on the record's
 *   channel, which the page shows as "Not verified" with the reason. 404 "not published" for a record not on chain, or whose public page
 *   is off (authors: `wxIsEnable`; artworks: their author's `wxIsEnable`), or that does not exist.
 */
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { MAX_ID } from '../../../kernel/dialect/schemaRegistry';
import { digestFields, type RecordKind } from '../../../common/ledger/recordFields';
import { toBase64 } from '../../../common/ledger/note';
import { latestRecordTx } from '../../ledger/audit';
import { checkpointAt, describeKey, latestCheckpoint, type SigningKey } from '../../ledger/checkpoints';
import type { LedgerTables } from '../../ledger/tables';
import { cosignedNote } from '../../ledger/witnessPush';
import { proofCheckpoint } from '../../ledger/proofFiles';
import { ok } from '../../plugins/app/envelope';
import { ApiError, invalidField, notFound } from '../../errors';
import { Codes } from '../../../common/envelope';
import { msg, schemaLabel } from '../../../common/messages/index';
import { channelOr404, publicRouteConfig } from './publicShared';

/** Most headers one consistency call answers. */
export const MAX_CONSISTENCY = 10_000;

const channel = { type: 'string', minLength: 1, maxLength: 64 } as const;
const height = { type: 'integer', minimum: 1, maximum: MAX_ID } as const;

/** The previous key's public forms, by app (described once). */
const previousForms = new WeakMap<FastifyInstance, Promise<SigningKey | undefined>>();

/**
 * The public signing-key answer; `previous`: the key being rotated out (`LEDGER_PREVIOUS_SIGNING_KEY`),
 * under the same name, so that checkpoints signed before the rotation still verify (docs/ledger.md
 * section 10).
 */
export async function publicKeyOf(app: FastifyInstance) {
  const k = app.checkpoints.key;
  let prev = previousForms.get(app);
  if (!prev) {
    const pk = app.checkpoints.opts.previousKey;
    prev = pk ? describeKey(k.name, pk, 'env LEDGER_PREVIOUS_SIGNING_KEY') : Promise.resolve(undefined);
    previousForms.set(app, prev);
  }
  const p = await prev;
  return {
    previous: p ? [{ name: p.name, keyId: p.keyId, publicKey: toBase64(p.publicKey), vkey: p.vkey }] : [],
    algorithm: 'Ed25519',
    name: k.name,
    keyId: k.keyId,
    publicKey: toBase64(k.publicKey),
    spki: k.spkiPem,
    fingerprint: k.fingerprint,
    vkey: k.vkey,
  };
}

/** The block headers numbered `first` .. `last` of a channel, in order. */
async function headers(db: Kysely<any>, channelId: number, first: number, last: number) {
  return (db as Kysely<LedgerTables>)
    .selectFrom('ledger_block')
    .select(['number', 'previousHash', 'dataHash'])
    .where('channelId', '=', channelId)
    .where('number', '>=', first)
    .where('number', '<=', last)
    .orderBy('number')
    .execute();
}

function notPublished(kind: RecordKind, id: number) {
  return new ApiError(Codes.NOT_FOUND, 404, msg('ledger.notPublished', { kind: schemaLabel(kind), id }), {
    published: false,
    kind,
    id,
  });
}

/** The query of the record calls: `kind` and `id`. */
export const recordQuery = {
  type: 'object',
  properties: {
    kind: { type: 'string', enum: ['author', 'artwork'] },
    id: { type: 'integer', minimum: 1, maximum: MAX_ID },
  },
  required: ['kind', 'id'],
  additionalProperties: false,
} as const;

/**
 * The record answer (common/ledger/publicVerify.ts `PublicRecord`): the record's digest fields, the
 * ledger's latest put transaction of it with its proof, the covering checkpoint with linking headers,
 * and the key. `published`: the public call, which answers 404 "not published" unless the record is
 * on chain and its (or its author's) public page is on; otherwise 404 only when it is not on chain.
 * `halted`: the channel's alarm (`haltOf`), or null.
 */
export async function recordAnswer(app: FastifyInstance, kind: RecordKind, id: number, published: boolean) {
  const table = kind === 'author' ? 'authors' : 'artworks';
  const gone = () =>
    published
      ? notPublished(kind, id)
      : new ApiError(Codes.NOT_FOUND, 404, msg('ledger.notOnChain', { kind: schemaLabel(kind), id }), {
          onChain: false,
          kind,
          id,
        });
  const row = (await app.db
    .selectFrom(table)
    .select(['id', 'chain', 'chainVersion'])
    .where('id', '=', id)
    .executeTakeFirst()) as { id: number; chain: string | null; chainVersion: number } | undefined;
  if (!row) throw published ? notPublished(kind, id) : notFound(kind === 'author' ? 'Author' : 'Artwork', id);
  const record = (await app.resources[table].getOne(app.db, id)) as unknown as Record<string, unknown>;
  const authorId = kind === 'author' ? id : Number(record.author);
  const author = await app.db
    .selectFrom('authors')
    .select(['wxIsEnable', 'authorName'])
    .where('id', '=', authorId)
    .executeTakeFirst();
  if (published && (!author || Number(author.wxIsEnable) !== 1)) throw gone();
  const latest = await latestRecordTx(app.db, kind, id);
  if (!latest) throw gone();
  const proof = (await app.ledger.proof(latest.txId))!;
  const index = await app.ledger.entryIndex(proof.channelId, proof.header.number, proof.leafIndex);
  // The latest checkpoint the witnesses cosigned that covers the entry (else the latest): a quorum can
  // be counted on it (docs/witnesses.md section 11).
  const cp =
    index === undefined
      ? await latestCheckpoint(app.db, proof.channelId)
      : await proofCheckpoint(app.db, proof.channelId, index);
  const inclusion =
    cp && index !== undefined && index < cp.size
      ? await app.ledger.inclusionProof(proof.channelId, cp.size, index)
      : null;
  return {
    kind,
    id,
    record: { ...digestFields(kind, { ...record, id }), id },
    display: kind === 'artwork' ? { authorName: author?.authorName ?? null } : {},
    recordChain: { txId: row.chain, version: Number(row.chainVersion) },
    latest: { txId: latest.txId, version: latest.version, versions: latest.versions },
    proof,
    checkpoint:
      cp && inclusion && index !== undefined
        ? {
            size: cp.size,
            note: await cosignedNote(app.db, proof.channelId, cp),
            index,
            inclusion: inclusion.map(toBase64),
          }
        : null,
    key: await publicKeyOf(app),
    halted: haltOf(app, proof.channel),
  };
}

/**
 * The halt of a channel (its signer's alarm, docs/ledger.md section 10) as the record answer carries it:
 * `{kind: "fork" | "rollback", reason}` (the reason in English, as logged), or null.
 */
export function haltOf(
  app: FastifyInstance,
  channel: string,
): { kind: 'fork' | 'rollback' | 'key'; reason: string } | null {
  const alarm = app.checkpoints.alarms.get(channel);
  return alarm ? { kind: alarm.kind, reason: alarm.reason } : null;
}

export default async function publicRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<JsonSchemaToTsProvider>();
  const config = publicRouteConfig(app);

  app.get(
    '/key',
    { config, schema: { querystring: { type: 'object', properties: {}, additionalProperties: false } } },
    async () => ok(await publicKeyOf(app)),
  );

  app.get(
    '/checkpoint',
    {
      config,
      schema: {
        querystring: {
          type: 'object',
          properties: { channel, height },
          required: ['channel'],
          additionalProperties: false,
        } as const,
      },
    },
    async (req) => {
      const ch = await channelOr404(app, req.query.channel);
      const cp =
        req.query.height === undefined
          ? await latestCheckpoint(app.db, ch.id)
          : await checkpointAt(app.db, ch.id, req.query.height);
      if (!cp) throw notFound(`Checkpoint of channel ${ch.name} at height`, req.query.height ?? ch.height);
      const { channelId: _c, ...rest } = cp;
      // The note with the witnesses' cosignatures of this checkpoint after the log's signature.
      return ok({ channel: ch.name, ...rest, note: await cosignedNote(app.db, ch.id, cp) });
    },
  );

  app.get(
    '/consistency',
    {
      config,
      schema: {
        querystring: {
          type: 'object',
          properties: { channel, from: height, to: height },
          required: ['channel', 'from', 'to'],
          additionalProperties: false,
        } as const,
      },
    },
    async (req) => {
      const { from, to } = req.query;
      const ch = await channelOr404(app, req.query.channel);
      if (from > to)
        throw invalidField('from', 'x-ordered', 'must not be greater than "to"', {
          first: 'from',
          second: 'to',
        });
      if (to - from + 1 > MAX_CONSISTENCY)
        throw invalidField('to', 'maximum', `at most ${MAX_CONSISTENCY} headers per call: ask in steps`, {
          limit: from + MAX_CONSISTENCY - 1,
        });
      if (to > ch.height)
        throw invalidField('to', 'maximum', `the channel's height is ${ch.height}`, { limit: ch.height });
      return ok({ channel: ch.name, from, to, headers: await headers(app.db, ch.id, from - 1, to - 1) });
    },
  );

  app.get(
    '/record',
    {
      config,
      schema: {
        querystring: {
          type: 'object',
          properties: {
            ...recordQuery.properties,
          },
          required: ['kind', 'id'],
          additionalProperties: false,
        } as const,
      },
    },
    async (req) => ok(await recordAnswer(app, req.query.kind as RecordKind, req.query.id, true)),
  );
}

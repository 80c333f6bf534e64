/**
 * Witnesses (docs/ledger.md section 11):
 * - `POST /baas-api/witness/cosign` (admin), body `{name, publicKey, channel, note}`: a witness stores its
 *   cosignature of a checkpoint. `publicKey` is the witness's Ed25519 key (standard base64 of 32 bytes),
 *   `note` the checkpoint note as this server signed it plus the witness's `tlog-cosignature` line. The
 *   server checks its own signature, that it signed exactly this checkpoint (same size and root hash as
 *   stored), and the cosignature. A witness name is bound to its first key (409 for another key), and
 *   its cosigned size never goes down (409). Answers the stored witness row.
 * - `GET /baas-api/witnesses` (role user): every witness per channel with its cosigned height and how
 *   many blocks it is behind the head.
 */
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { fromBase64, verifyCheckpointNote, verifyCosignature } from '../../../common/ledger/note';
import { checkpointAt } from '../../ledger/checkpoints';
import type { LedgerTables } from '../../ledger/tables';
import { ok } from '../../plugins/app/envelope';
import { conflict, invalidField, notFound } from '../../plugins/app/errors';
import { msg } from '../../../common/messages/index';

const cosignBody = {
  type: 'object',
  properties: {
    name: { type: 'string', pattern: '^[^\\s+]{1,64}$' },
    publicKey: { type: 'string', pattern: '^[A-Za-z0-9+/]{43}=$' },
    channel: { type: 'string', minLength: 1, maxLength: 64 },
    note: { type: 'string', minLength: 1, maxLength: 8192, 'x-text': 'multiline' },
  },
  required: ['name', 'publicKey', 'channel', 'note'],
  additionalProperties: false,
} as const;

function nowText(): string {
  return new Date().toISOString();
}

export default async function witnessRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<JsonSchemaToTsProvider>();
  const db = app.db as unknown as Kysely<LedgerTables>;

  app.post(
    '/witness/cosign',
    { onRequest: app.requireRoles(['admin']), schema: { body: cosignBody } },
    async (req) => {
      const { name, channel, note } = req.body;
      const publicKey = fromBase64(req.body.publicKey);
      const ch = await app.ledger.channel(channel);
      if (!ch) throw notFound('Channel', channel);
      const mine = await verifyCheckpointNote(note, await app.checkpoints.keyFor(ch.name));
      if (!mine.ok)
        throw invalidField('note', 'signature', `not a checkpoint signed by this server: ${mine.message}`);
      const cp = mine.checkpoint;
      if (cp.origin !== app.checkpoints.origin(ch.name))
        throw invalidField(
          'note',
          'origin',
          `the checkpoint is of origin "${cp.origin}", not of channel ${ch.name}`,
        );
      const stored = await checkpointAt(app.db, ch.id, cp.size);
      if (!stored || stored.rootHash !== cp.rootHash)
        throw invalidField(
          'note',
          'checkpoint',
          `this server holds no checkpoint of size ${cp.size} with that root hash`,
        );
      const co = await verifyCosignature(note, { name, publicKey });
      if (!co.ok) throw invalidField('note', 'cosignature', co.message);
      const existing = await db
        .selectFrom('ledger_witness')
        .selectAll()
        .where('name', '=', name)
        .where('channelId', '=', ch.id)
        .executeTakeFirst();
      const other = await db
        .selectFrom('ledger_witness')
        .select(['publicKey'])
        .where('name', '=', name)
        .executeTakeFirst();
      if (other && other.publicKey !== req.body.publicKey)
        throw conflict(msg('request.fields'), {
          errors: [
            {
              field: 'publicKey',
              keyword: 'x-bound',
              params: {},
              message: 'publicKey: another key holds this witness name',
            },
          ],
        });
      if (existing && existing.size > cp.size)
        throw conflict(msg('request.fields'), {
          errors: [
            {
              field: 'note',
              keyword: 'x-monotonic',
              params: { size: existing.size },
              message: 'note: older than the cosigned checkpoint',
            },
          ],
        });
      const row = {
        name,
        channelId: ch.id,
        publicKey: req.body.publicKey,
        size: cp.size,
        rootHash: cp.rootHash,
        note,
        cosignedAt: new Date(co.time * 1000).toISOString(),
        firstSeen: existing?.firstSeen ?? nowText(),
      };
      if (existing)
        await db
          .updateTable('ledger_witness')
          .set(row)
          .where('name', '=', name)
          .where('channelId', '=', ch.id)
          .execute();
      else await db.insertInto('ledger_witness').values(row).execute();
      return ok({ ...row, channel: ch.name }, 'cosignature stored');
    },
  );

  app.get(
    '/witnesses',
    {
      onRequest: app.requireRoles(['user']),
      schema: { querystring: { type: 'object', properties: {}, additionalProperties: false } },
    },
    async () => {
      const rows = await db
        .selectFrom('ledger_witness')
        .innerJoin('ledger_channel', 'ledger_channel.id', 'ledger_witness.channelId')
        .select([
          'ledger_witness.name',
          'ledger_witness.channelId',
          'ledger_channel.name as channel',
          'ledger_witness.publicKey',
          'ledger_witness.size',
          'ledger_witness.rootHash',
          'ledger_witness.cosignedAt',
          'ledger_witness.firstSeen',
        ])
        .orderBy('ledger_witness.name')
        .execute();
      const heights = new Map((await app.ledger.channels()).map((c) => [c.id, c.height]));
      const list = rows.map((r) => ({
        ...r,
        height: heights.get(r.channelId) ?? 0,
        behind: (heights.get(r.channelId) ?? 0) - r.size,
      }));
      return ok({ list, total: list.length });
    },
  );
}

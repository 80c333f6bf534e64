/**
 * `POST /artmanager/artwork/blockChain` body `{id}` (admin only): puts the artwork on chain
 * (docs/ledger.md section 7). Refused (409) while its author is not on chain. Status goes 0 → 1 (being
 * rolled out: submitted) → 2 (on chain: in a committed block). Idempotent while the artwork is
 * unchanged; a new version after an edit. Answers like the author call.
 */
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../../plugins/app/envelope';
import { conflict } from '../../../errors';
import { msg } from '../../../../common/messages/index';
import { putOnChain, withRecordLock } from '../../../ledger/records';
import { idBody, storedChainState } from '../../../ledger/routeHelpers';

export default async function artworkBlockChainRoute(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<JsonSchemaToTsProvider>();
  const getArtwork = (db: typeof app.db, id: number) => app.resources.artworks.getOne(db, id);
  app.post(
    '/blockChain',
    { onRequest: app.requireRoles(['admin']), schema: { body: idBody } },
    async (req) => {
      const { id } = req.body;
      return withRecordLock(`artwork:${id}`, async () => {
        const record = await getArtwork(app.db, id); // 404 for an unknown artwork
        const author = await app.db
          .selectFrom('authors')
          .select(['id', 'authorName', 'isBlock'])
          .where('id', '=', record.author)
          .executeTakeFirst();
        if (!author || author.isBlock !== 1)
          throw conflict(
            msg('ledger.authorNotOnChain', {
              authorName: author?.authorName ?? record.author,
              author: record.author,
            }),
            { author: record.author },
          );
        const stored = await storedChainState(app.db, 'artworks', id);
        const result = await putOnChain(
          app.ledger,
          'artwork',
          { ...record, id }, // the stored record; its id typed as present
          stored,
          req.account!.account,
          async () => {
            // Being rolled out until the block is committed (the commit hook sets 2).
            await app.db
              .updateTable('artworks')
              .set({ status: 1 })
              .where('id', '=', id)
              .where('status', '=', 0)
              .execute();
          },
        );
        return ok(
          { record: await getArtwork(app.db, id), ...result },
          result.repeated ? 'already on chain, unchanged' : 'put on chain',
        );
      });
    },
  );
}

/**
 * `POST /artmanager/authors/blockChain` body `{id}` (admin only): puts the author on chain
 * (docs/ledger.md section 7). Idempotent while the author is unchanged; a new version after an edit.
 * Answers `{ record, txId, channel, blockNumber, blockTime, version, digest, repeated }` once the block
 * holding the transaction is committed.
 */
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../../plugins/app/envelope';
import { putOnChain, withRecordLock } from '../../../ledger/records';
import { idBody, storedChainState } from '../../../ledger/routeHelpers';

export default async function authorBlockChainRoute(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<JsonSchemaToTsProvider>();
  const getAuthor = (db: typeof app.db, id: number) => app.resources.authors.getOne(db, id);
  app.post(
    '/blockChain',
    { onRequest: app.requireRoles(['admin']), schema: { body: idBody } },
    async (req) => {
      const { id } = req.body;
      return withRecordLock(`author:${id}`, async () => {
        const record = await getAuthor(app.db, id); // 404 for an unknown author
        const stored = await storedChainState(app.db, 'authors', id);
        const result = await putOnChain(
          app.ledger,
          'author',
          { ...record, id },
          stored,
          req.account!.account,
        );
        return ok(
          { record: await getAuthor(app.db, id), ...result },
          result.repeated ? 'already on chain, unchanged' : 'put on chain',
        );
      });
    },
  );
}

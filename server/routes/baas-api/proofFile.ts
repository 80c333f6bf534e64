/**
 * A record's offline proof (C2SP tlog-proof, docs/witnesses.md section 11.6, server/ledger/proofFiles.ts):
 * - `GET /baas-api/proof-file?kind=author|artwork&id=N` (role user): `{name, file}` in the envelope, for
 *   the console's on-chain panel; 404 when the record is not on chain;
 * - `GET /baas-api/public/proof-file?kind=author|artwork&id=N` (no login, rate-limited): the file itself,
 *   `text/plain` as an attachment `<kind>-<id>.tlog-proof`; 404 "not published" as the public record call.
 * Both answer 404 while the record's block is not yet in a signed checkpoint.
 */
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance } from 'fastify';
import type { RecordKind } from '../../../common/ledger/recordFields';
import { txProofFile, type ProofTree } from '../../ledger/proofFiles';
import { ok } from '../../plugins/app/envelope';
import { notFound } from '../../errors';
import { recordAnswer, recordQuery } from './public';
import { publicRouteConfig } from './publicShared';

/** The stored log the proofs read (the ledger's Merkle log, server/ledger/tree.ts). */
function treeOf(app: FastifyInstance): ProofTree {
  return app.ledger;
}

async function fileOf(app: FastifyInstance, kind: RecordKind, id: number, published: boolean) {
  const answer = await recordAnswer(app, kind, id, published);
  const file = await txProofFile(app.db, treeOf(app), answer.latest.txId);
  if (!file) throw notFound(`Signed checkpoint covering transaction`, answer.latest.txId);
  return { name: `${kind}-${id}.tlog-proof`, file };
}

export default async function proofFileRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<JsonSchemaToTsProvider>();

  app.get(
    '/proof-file',
    { onRequest: app.requireRoles(['user']), schema: { querystring: recordQuery } },
    async (req) => ok(await fileOf(app, req.query.kind as RecordKind, req.query.id, false)),
  );

  app.get(
    '/public/proof-file',
    {
      config: publicRouteConfig(app),
      schema: { querystring: recordQuery },
    },
    async (req, reply) => {
      const f = await fileOf(app, req.query.kind as RecordKind, req.query.id, true);
      return reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="${f.name}"`)
        .send(f.file);
    },
  );
}

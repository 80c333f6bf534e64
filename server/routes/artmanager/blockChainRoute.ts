/**
 * The put-on-chain route shared by authors and artworks: `POST <prefix>/blockChain` body `{id}` (admin
 * only) puts the stored record on chain (docs/ledger.md section 7) under the record's lock. Idempotent
 * while the record is unchanged; a new version after an edit. Answers
 * `{ record, txId, channel, blockNumber, blockTime, version, digest, repeated }` once the block holding
 * the transaction is committed; 404 for an unknown record.
 */
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance } from 'fastify';
import type { RecordKind } from '../../../common/ledger/recordFields';
import type { ResourceRecords } from '../../db/generated/tables';
import { ok } from '../../plugins/app/envelope';
import { putOnChain, type RecordTable, withRecordLock } from '../../ledger/records';
import { idBody, storedChainState } from '../../ledger/routeHelpers';

/** What differs between the resources put on chain. */
export interface BlockChainRouteSpec<T extends RecordTable> {
  /** The resource (and table) of the records. */
  table: T;
  /** The record kind hashed and locked (common/ledger/recordFields.ts). */
  kind: RecordKind;
  /** Runs before submitting, on the stored record; throws (an API error) to refuse. */
  check?: (app: FastifyInstance, record: ResourceRecords[T]) => Promise<void>;
  /** Runs once the transaction is queued, before its block is committed. */
  onSubmitted?: (app: FastifyInstance, id: number) => Promise<void>;
}

/** The Fastify plugin of a put-on-chain route (register it with the resource's prefix). */
export function blockChainRoute<T extends RecordTable>(spec: BlockChainRouteSpec<T>) {
  return async function blockChainPlugin(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<JsonSchemaToTsProvider>();
    const getOne = (id: number) =>
      app.resources[spec.table].getOne(app.db, id) as Promise<ResourceRecords[T]>;
    app.post(
      '/blockChain',
      { onRequest: app.requireRoles(['admin']), schema: { body: idBody } },
      async (req) => {
        const { id } = req.body;
        return withRecordLock(`${spec.kind}:${id}`, async () => {
          const record = await getOne(id); // 404 for an unknown record
          await spec.check?.(app, record);
          const stored = await storedChainState(app.db, spec.table, id);
          const onSubmitted = spec.onSubmitted;
          const result = await putOnChain(
            app.ledger,
            spec.kind,
            { ...record, id }, // the stored record; its id typed as present
            stored,
            req.account!.account,
            onSubmitted && (() => onSubmitted(app, id)),
          );
          return ok(
            { record: await getOne(id), ...result },
            result.repeated ? 'already on chain, unchanged' : 'put on chain',
          );
        });
      },
    );
  };
}

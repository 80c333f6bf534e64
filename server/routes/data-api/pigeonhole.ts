/**
 * The pigeonhole (Data > Pigeonhole): archive a record of a resource whose schema says `x-archive`
 * (contracts, artworks taken off the registry) and restore it.
 *
 * - `POST /data-api/pigeonhole/archive` `{resource, id}`: in one transaction, the stored row (every column,
 *   as stored) goes into `archived_records` (`record`, with its `title` = the record's representation, the
 *   account and the time) and leaves its table. Refused with 409 while another record refers to it
 *   (`pigeonhole.referenced`), 404 for an unknown id. Answers the archive entry.
 * - `POST /data-api/pigeonhole/restore` `{id}` (an archive entry): in one transaction, the row goes back
 *   into its table under its own id, column for column, and the entry is removed. Refused with 409 when a
 *   record it refers to no longer exists (`pigeonhole.restoreReference`), a unique value is now held by
 *   another record (`unique`, naming the field) or the id is taken; nothing changes then. Answers the
 *   restored record.
 * Listing and reading entries are the `archivedRecords` resource's own calls (schemas/archivedRecord.schema.json).
 *
 * Roles: signed-in `user` or `admin` (the Data section), and the archived resource's own `x-roles`
 * (an artwork needs `admin`): 403 otherwise. Both calls are audited in their transaction (the resource's
 * row: before/after; the archive entry: after/before), as every API write (server/db/audit.ts).
 * SQLite's trigram index of artworks follows the row through its triggers; list totals are forgotten.
 */
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { Codes } from '../../../common/envelope';
import { msg, schemaLabel } from '../../../common/messages/index';
import { MAX_ID } from '../../../kernel/dialect/schemaRegistry';
import { idBody } from '../../ledger/routeHelpers';
import { nowText } from '../../db/database';
import { actorOf, recordAudit, storedRow } from '../../db/audit';
import { mapConstraintError, uniqueConflict } from '../../../kernel/server/dbErrors';
import type { Repository } from '../../../kernel/server/repository';
import { archivableResources } from '../../../kernel/hooks/archivedRecords';
import { ok } from '../../plugins/app/envelope';
import { apiError, conflict, notFound } from '../../errors';

/** The archive table (schemas/archivedRecord.schema.json `x-storage.table`). */
export const ARCHIVE_TABLE = 'archived_records';
const ARCHIVE_RESOURCE = 'archivedRecords';

export default async function pigeonholeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<JsonSchemaToTsProvider>();
  const db = app.db as unknown as Kysely<any>;
  const onRequest = app.requireRoles(['user']);
  const repos = app.resources as unknown as Record<string, Repository>;
  const resources = archivableResources();

  /** 403 unless the caller may use `resource` (its schema's x-roles; admin always). */
  function checkRoles(req: FastifyRequest, resource: string) {
    const roles = repos[resource].model.schema['x-roles'] ?? ['admin'];
    const mine = req.account?.roles ?? [];
    if (!mine.includes('admin') && !roles.some((r) => mine.includes(r)))
      throw apiError(Codes.FORBIDDEN, 403, 'auth.roleRequired', { roles: roles.join(', ') });
  }

  const forget = (resource: string) => {
    repos[resource].totals.clear();
    repos[ARCHIVE_RESOURCE].totals.clear();
  };

  app.post(
    '/archive',
    {
      onRequest,
      schema: {
        body: {
          type: 'object',
          properties: {
            resource: { type: 'string', enum: resources },
            id: { type: 'integer', minimum: 1, maximum: MAX_ID },
          },
          required: ['resource', 'id'],
          additionalProperties: false,
        } as const,
      },
    },
    async (req) => {
      const { resource, id } = req.body as { resource: string; id: number };
      checkRoles(req, resource);
      const { model } = repos[resource];
      const actor = actorOf(req);
      try {
        const entryId = await db.transaction().execute(async (trx) => {
          const row = await storedRow(trx, model.table, id);
          if (!row) throw notFound(schemaLabel(model.schemaId), id);
          for (const referrer of Object.values(repos))
            for (const r of referrer.model.references) {
              if (r.resource !== resource) continue;
              const { n } = (await trx
                .selectFrom(referrer.model.table)
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .where(r.field, '=', id)
                .executeTakeFirstOrThrow()) as { n: number };
              if (Number(n) > 0)
                throw conflict(
                  msg('pigeonhole.referenced', {
                    label: schemaLabel(model.schemaId),
                    id,
                    count: Number(n),
                    referrer: schemaLabel(referrer.model.schemaId, true),
                  }),
                );
            }
          const { id: entry } = await trx
            .insertInto(ARCHIVE_TABLE)
            .values({
              resource,
              recordId: id,
              title: String(row[model.representation] ?? id),
              record: JSON.stringify(row),
              archivedBy: actor.account,
              archiveTime: nowText(),
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await trx.deleteFrom(model.table).where('id', '=', id).execute();
          await recordAudit(trx, actor, { resource, recordId: id, before: row });
          await recordAudit(trx, actor, {
            resource: ARCHIVE_RESOURCE,
            recordId: Number(entry),
            after: await storedRow(trx, ARCHIVE_TABLE, Number(entry)),
          });
          return Number(entry);
        });
        return ok(await repos[ARCHIVE_RESOURCE].getOne(db, entryId));
      } catch (e) {
        throw mapConstraintError(e, 'delete');
      } finally {
        forget(resource);
      }
    },
  );

  app.post(
    '/restore',
    {
      onRequest,
      schema: {
        body: idBody,
      },
    },
    async (req) => {
      const { id } = req.body as { id: number };
      const entry = (await storedRow(db, ARCHIVE_TABLE, id)) as
        { resource: string; recordId: number; record: string } | undefined;
      if (!entry) throw notFound(schemaLabel('archivedRecord'), id);
      checkRoles(req, entry.resource);
      const { model } = repos[entry.resource];
      const row = JSON.parse(entry.record) as Record<string, unknown>;
      const recordId = Number(entry.recordId);
      const label = schemaLabel(model.schemaId);
      const actor = actorOf(req);
      try {
        await db.transaction().execute(async (trx) => {
          if (await storedRow(trx, model.table, recordId))
            throw conflict(msg('pigeonhole.restoreIdTaken', { label, id: recordId }));
          for (const r of model.references) {
            const ref = row[r.field];
            if (ref === null || ref === undefined) continue;
            const found = await trx.selectFrom(r.table).select('id').where('id', '=', ref).executeTakeFirst();
            if (!found)
              throw conflict(
                msg('pigeonhole.restoreReference', { label, id: recordId, field: r.field, ref: String(ref) }),
              );
          }
          for (const field of model.unique) {
            const v = row[field];
            if (v === null || v === undefined) continue;
            const holder = await trx
              .selectFrom(model.table)
              .select('id')
              .where(field, '=', v)
              .executeTakeFirst();
            if (holder) throw uniqueConflict(field, v, `${model.label.toLowerCase()} ${String(holder.id)}`);
          }
          await trx.insertInto(model.table).values(row).execute();
          await trx.deleteFrom(ARCHIVE_TABLE).where('id', '=', id).execute();
          await recordAudit(trx, actor, { resource: entry.resource, recordId, after: row });
          await recordAudit(trx, actor, { resource: ARCHIVE_RESOURCE, recordId: id, before: entry });
        });
        return ok(await repos[entry.resource].getOne(db, recordId));
      } catch (e) {
        if (e instanceof Error && 'code' in e && (e as { code: unknown }).code === Codes.CONFLICT) throw e;
        throw mapConstraintError(e, 'write', row);
      } finally {
        forget(entry.resource);
      }
    },
  );
}

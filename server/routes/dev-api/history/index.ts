/**
 * Record history calls (issue 21 item 3; kernel/server/history.ts builds the revisions from the audit
 * trail), for every resource whose schema declares `x-storage` and a getOne call:
 *
 * - `GET /dev-api/history/revisions?resource=&id=`: the record's revisions, newest first, `{list, total}`;
 * - `GET /dev-api/history/revision?resource=&id=&revision=`: one revision (404 unknown; 400 naming
 *   `revision` when it is a revision of another record);
 * - `POST /dev-api/history/revert` `{resource, id, revision}`: restores the revision as a new update
 *   (same validation, hooks and audit as the resource's update call, whose `call` is this one);
 *   409 when a unique or reference rule would break, nothing written.
 *
 * Roles: a signed-in account (401), then the resource's own: its getOne call's roles (else `x-roles`) to
 * read, its update call's roles to revert (403 otherwise; admin always); a resource without an update
 * call cannot be reverted (400 naming `resource`). A resource's read scope (ResourceHooks.readScope)
 * applies as for getOne: a record outside it is unknown (404).
 */
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Codes } from '../../../../common/envelope';
import { MAX_ID, resourceSchemas, type ResourceSchema } from '../../../../kernel/dialect/schemaRegistry';
import { revert, revisionOf, revisionsOf } from '../../../../kernel/server/history';
import { inReadScope } from '../../../../kernel/server/listQuery';
import type { Repository } from '../../../../kernel/server/repository';
import type { ResourceRepositories } from '../../../../kernel/server/resources';
import { actorOf } from '../../../db/audit';
import { ok } from '../../../plugins/app/envelope';
import { apiError, invalidField, notFound } from '../../../errors';
import { schemaLabel } from '../../../../common/messages/index';

/** The resources with a history: stored, with a getOne call. */
export function historyResources(): ResourceSchema[] {
  return resourceSchemas().filter((s) => s['x-storage'] && s['x-endpoints']?.getOne);
}

const idSchema = { type: 'integer', minimum: 1, maximum: MAX_ID } as const;

const change = {
  type: 'object',
  properties: {
    field: { type: 'string' },
    before: {},
    after: {},
    formerly: {
      type: 'string',
      description: "The field's name when the revision was written, when a schema migration renamed it since",
    },
  },
} as const;

/** A revision as the calls answer it (kernel/server/history.ts `Revision`). */
const revisionSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    time: { type: 'string' },
    account: { type: 'string' },
    accountId: { type: ['integer', 'null'] },
    call: { type: 'string' },
    operation: { type: 'string', enum: ['create', 'update', 'delete', 'chain'] },
    recorded: { type: 'boolean' },
    state: { description: 'The record after this revision; null after a delete or when not recorded' },
    changes: { type: 'array', items: change },
    txId: { type: ['string', 'null'], description: 'The put-on-chain transaction (operation chain)' },
  },
} as const;

const envelope = (data: object) => ({
  200: { type: 'object', properties: { code: { type: 'integer' }, msg: { type: 'string' }, data } },
});

export default async function historyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<JsonSchemaToTsProvider>();
  const names = historyResources().map((s) => s['x-resource']!.name);
  const resource = { type: 'string', enum: names } as const;
  /** One revision of one record: the query of `/revision`, the body of `/revert`. */
  const revisionRef = {
    type: 'object',
    properties: { resource, id: idSchema, revision: idSchema },
    required: ['resource', 'id', 'revision'],
    additionalProperties: false,
  } as const;
  const onRequest = app.requireRoles([]);

  /** The resource's repository, after checking the caller's roles for reading or reverting it (403). */
  const repoFor = (req: FastifyRequest, name: string, verb: 'getOne' | 'update'): Repository<object> => {
    const repo = app.resources[name as keyof ResourceRepositories] as Repository<object>;
    const schema = repo.model.schema;
    const spec = schema['x-endpoints']?.[verb];
    if (!spec) throw invalidField('resource', 'enum', `${name} has no update call: it cannot be reverted`);
    const roles = spec.roles ?? schema['x-roles'] ?? ['admin'];
    const mine = req.account?.roles ?? [];
    if (!mine.includes('admin') && !roles.some((r) => mine.includes(r)))
      throw apiError(Codes.FORBIDDEN, 403, 'auth.roleRequired', {
        roles: { en: roles.join(' or '), zh: roles.join(' 或 ') },
      });
    return repo;
  };

  /** 404 when the record exists but lies outside the caller's read scope (as getOne answers). */
  const checkScope = async (req: FastifyRequest, repo: Repository<object>, id: number) => {
    const scope = repo.hooks.readScope?.(req.account?.roles ?? [], {});
    if (!scope || !Object.keys(scope).length) return;
    const record = (await repo.getOne(app.db, id)) as Record<string, unknown>;
    if (!inReadScope(record, scope)) throw notFound(schemaLabel(repo.model.schemaId), id);
  };

  app.get(
    '/revisions',
    {
      onRequest,
      schema: {
        querystring: {
          type: 'object',
          properties: { resource, id: idSchema },
          required: ['resource', 'id'],
          additionalProperties: false,
        },
        response: envelope({
          type: 'object',
          properties: { list: { type: 'array', items: revisionSchema }, total: { type: 'integer' } },
        }),
      },
    },
    async (req) => {
      const repo = repoFor(req, req.query.resource, 'getOne');
      await checkScope(req, repo, req.query.id);
      const list = await revisionsOf(app.db, repo, req.query.id);
      return ok({ list, total: list.length });
    },
  );

  app.get(
    '/revision',
    {
      onRequest,
      schema: {
        querystring: revisionRef,
        response: envelope(revisionSchema),
      },
    },
    async (req) => {
      const repo = repoFor(req, req.query.resource, 'getOne');
      await checkScope(req, repo, req.query.id);
      return ok(await revisionOf(app.db, repo, req.query.id, req.query.revision));
    },
  );

  app.post(
    '/revert',
    {
      onRequest,
      schema: {
        body: revisionRef,
        response: envelope({ description: 'The record as stored after the revert' }),
      },
    },
    async (req) => {
      const repo = repoFor(req, req.body.resource, 'update');
      await checkScope(req, repo, req.body.id);
      return ok(await revert(app.db, repo, req.body.id, req.body.revision, actorOf(req)));
    },
  );
}

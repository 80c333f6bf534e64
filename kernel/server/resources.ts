/**
 * Routes from the schemas: for every resource schema with `x-storage`, every call its `x-endpoints`
 * declares is registered, path and method exactly as declared (docs/api.md; and each path in its `aliases`),
 * and answered by the generic
 * repository (kernel/server/repository.ts). Verbs sharing a call are registered once: getList, getMany
 * and search are one list call (`ids` selects getMany); delete and deleteMany one call taking `{<id>}` or
 * `{<ids>: [...]}`. Each route has
 * - the role gate of the schema's `x-roles` (`app.requireRoles`, onRequest: before the body is read);
 * - the request's schema: `<id>.listQuery` (GET) / `.listBody` (POST), `<id>.create`, `<id>.update`, an id
 *   query/body, the delete body; getManyReference takes the target's id plus the list query;
 * - a response schema (the envelope around the record or `{list, total}`), serialized by
 *   fast-json-stringify: the schema's properties (not `writeOnly` ones) plus its display fields, nothing else;
 * - beside the getList call, `GET <its path>/export` streaming every matching record as CSV or XLSX
 *   (exportRoutes.ts);
 * - revisions (revisions.ts): getOne and update answer the record's `ETag` (`"7"`, its `revision`); an
 *   update takes `If-Match` or the body's `revision`, one record's delete `If-Match`: stale is 409 with the
 *   current record;
 * - updateMany (`{<ids>: [...], data: {...}}`, react-admin's): each record updated as by update, all or
 *   none, in one transaction (updateMany.ts); gated by its own roles, else the update's, else the schema's;
 * - writes (create, update, updateMany, delete) audited in their transaction, with the signed-in account
 *   and the call (server/db/audit.ts).
 * Also decorates `app.resources`: the repository of each resource by name, for hand-written routes
 * (put on chain, dashboard). Hand-written routes beside their resource handle what is not CRUD.
 */
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import {
  buildVariant,
  MAX_ID,
  resourceSchemas,
  type EndpointSpec,
  type PropertySchema,
  type ResourceSchema,
} from '../dialect/schemaRegistry';
import { ok } from '../../server/plugins/app/envelope';
import { invalidField, notFound } from '../../server/errors';
import { REVISION } from '../dialect/revision';
import { etagOf, requestedRevision } from './revisions';
import { schemaLabel } from '../../common/messages/index';
import { actorOf } from '../../server/db/audit';
import { deref } from '../dialect/deref';
import { filtersOf, inReadScope, type ListQuery } from './listQuery';
import { registerExport } from './exportRoutes';
import { resourceModels, type ResourceModel } from './model';
import { Repository, type ResourceHooks } from './repository';
import { DATA, invalidBody, updateMany, updateManyBody, writableNames } from './updateMany';
import type { ResourceRecords } from '../../server/db/generated/tables';

/** The repository of each resource, by resource name (`x-resource.name`), typed by the generated records. */
export type ResourceRepositories = { [N in keyof ResourceRecords]: Repository<ResourceRecords[N]> };

declare module 'fastify' {
  interface FastifyInstance {
    /** The generic repository of each resource, by resource name (`x-resource.name`). */
    resources: ResourceRepositories;
  }
}

type Json = Record<string, unknown>;

const idSchema = { type: 'integer', minimum: 1, maximum: MAX_ID } as const;

/**
 * The `If-Match` request header of an update or delete: the revision the caller's copy has, as the `ETag`
 * of getOne and update gave it (`"7"`; revisions.ts `requestedRevision`).
 */
const IF_MATCH = {
  type: 'object',
  properties: {
    'if-match': {
      type: 'string',
      maxLength: 64,
      description: 'The record revision this write started from, as its ETag gave it ("7"); 409 when stale',
    },
  },
} as const;

/** `{<name>: id}` required, nothing else. */
const idParams = (name: string) => ({
  type: 'object',
  properties: { [name]: idSchema },
  required: [name],
  additionalProperties: false,
});

/** Body of a delete call: `{<id>}` and/or `{<ids>: [1..100 ids]}` as the verbs declare, exactly one. */
function deleteBody(one?: EndpointSpec, many?: EndpointSpec) {
  const properties: Json = {};
  if (one) properties[one.id ?? 'id'] = idSchema;
  if (many) properties[many.ids ?? 'ids'] = { type: 'array', items: idSchema, minItems: 1, maxItems: 100 };
  return { type: 'object', properties, minProperties: 1, maxProperties: 1, additionalProperties: false };
}

const typesOf = (p: PropertySchema): string[] => ([] as string[]).concat(p.type ?? []);

/** The serialization schema of one property: its type for scalars, anything for objects and arrays. */
function serialized(p: PropertySchema): Json {
  const types = typesOf(p);
  if (!types.length || types.some((t) => t === 'object' || t === 'array')) return {};
  return { type: types.length === 1 ? types[0] : types };
}

/** The record as the API answers it: every property and display field, nothing else. */
function recordSchema(schema: ResourceSchema, model: ResourceModel): Json {
  const properties: Json = {};
  for (const [name, p] of Object.entries(schema.properties))
    if (!p.writeOnly) properties[name] = serialized(p);
  // The kernel's revision of every stored record (the `ETag` of getOne and update, too).
  properties[REVISION] = { type: 'integer' };
  for (const d of model.display) {
    const target = resourceSchemas().find((s) => s['x-storage']?.table === d.table);
    const p = target?.properties[d.field];
    properties[d.name] = p ? { type: [...new Set([...typesOf(p), 'null'])] } : {};
  }
  return { type: 'object', properties, additionalProperties: false };
}

const envelope = (data: Json) => ({
  200: {
    type: 'object',
    properties: { code: { type: 'integer' }, msg: { type: 'string' }, data },
  },
});

/** The list query of `schema` without its `$id`, plus `extra` required parameters. */
function listVariant(schema: ResourceSchema, kind: 'listQuery' | 'listBody', extra: Json = {}) {
  const { $id: _id, ...variant } = buildVariant(schema, kind);
  return {
    ...variant,
    properties: { ...(variant.properties as Json), ...extra },
    required: Object.keys(extra),
  };
}

/**
 * The update body narrowed to `id` plus `properties` (an alias declaring `properties`, e.g. a section's
 * call): the `<id>.update` variant's own subschemas of those properties, everything else refused.
 * @throws Error naming a property the schema lacks or that is read-only
 */
export function narrowedUpdate(schema: ResourceSchema, properties: string[]): Json {
  const update = buildVariant(schema, 'update') as Json & { properties: Json };
  // `$ref`s to the schema's definitions inlined: the narrowed body stands alone (ajv, OpenAPI).
  const inline = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(inline);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(deref(update as { definitions?: Record<string, Json> }, node as Json)).map(([k, v]) => [
        k,
        inline(v),
      ]),
    );
  };
  const props: Json = { id: update.properties.id, [REVISION]: update.properties[REVISION] };
  for (const p of properties) {
    if (!update.properties[p] || update.properties[p] === false)
      throw new Error(`${schema.$id}: x-endpoints alias names "${p}", not a writable property`);
    props[p] = inline(update.properties[p]);
  }
  return { type: 'object', properties: props, required: ['id'], additionalProperties: false };
}

/** Registers the calls of one resource. */
function registerResource<R extends object>(
  app: FastifyInstance,
  schema: ResourceSchema,
  repo: Repository<R>,
) {
  const endpoints = schema['x-endpoints'] ?? {};
  const onRequest = app.requireRoles(schema['x-roles'] ?? ['admin']);
  const record = recordSchema(schema, repo.model);
  const list = {
    type: 'object',
    properties: { list: { type: 'array', items: record }, total: { type: 'integer' } },
  };
  const db = app.db;
  const id = schema.$id;
  /** The resource's read scope for this caller (ResourceHooks.readScope): filters (an array: one of its values), `{}` for none. */
  const scopeOf = (req: FastifyRequest, query: object): Record<string, unknown> =>
    repo.hooks.readScope?.(req.account?.roles ?? [], filtersOf(query as ListQuery)) ?? {};

  // Group the verbs by call: several verbs may share one.
  type Alias = NonNullable<EndpointSpec['aliases']>[number];
  const calls = new Map<
    string,
    { method: 'GET' | 'POST'; path: string; verbs: Map<string, EndpointSpec>; aliases: Alias[] }
  >();
  const add = (verb: string, spec: EndpointSpec) => {
    const key = `${spec.method} ${spec.path}`;
    const call = calls.get(key) ?? {
      method: spec.method,
      path: spec.path,
      verbs: new Map(),
      aliases: [] as Alias[],
    };
    call.verbs.set(verb, spec);
    call.aliases.push(...(spec.aliases ?? []));
    calls.set(key, call);
  };
  for (const [verb, spec] of Object.entries(endpoints))
    if (verb === 'getManyReference')
      for (const [target, s] of Object.entries(spec as Record<string, EndpointSpec>)) add(`ref:${target}`, s);
    else add(verb, spec as EndpointSpec);

  // Each call on its own path, then on each alias (one implementation; an update alias may narrow the body).
  const routes = [...calls.values()].flatMap((c) => [
    { ...c, narrow: undefined as string[] | undefined },
    ...c.aliases.map((a) => ({ ...c, method: a.method, path: a.path, narrow: a.properties })),
  ]);
  for (const { method, path, verbs, narrow } of routes) {
    const names = [...verbs.keys()];
    // A call may admit fewer roles than the schema (x-endpoints `roles`): its own gate.
    const callRoles = [...verbs.values()].find((s) => s.roles)?.roles;
    const gate = callRoles ? app.requireRoles(callRoles) : onRequest;
    const part = method === 'GET' ? 'querystring' : 'body';
    if (narrow && !(names.length === 1 && names[0] === 'update'))
      throw new Error(`${id}: x-endpoints alias ${method} ${path}: "properties" narrows an update only`);
    if (names.every((v) => v === 'getList' || v === 'getMany' || v === 'search')) {
      const variant = method === 'GET' ? 'listQuery' : 'listBody';
      app.route<{ Querystring: ListQuery; Body: ListQuery }>({
        method,
        url: path,
        onRequest: gate,
        schema: { [part]: { $ref: `${id}.${variant}` }, response: envelope(list) },
        handler: async (req) => {
          const query = method === 'GET' ? req.query : req.body;
          return ok(await repo.list(db, query, scopeOf(req, query)));
        },
      });
      if (verbs.has('getList') && path === endpoints.getList?.path)
        registerExport(app, schema, repo, path, gate, scopeOf);
    } else if (names.length === 1 && names[0].startsWith('ref:')) {
      const target = names[0].slice(4);
      const spec = verbs.get(names[0])!;
      const param = spec.id ?? 'id';
      const ref = repo.model.references.find((r) => r.field === target);
      const parent = ref && app.resources[ref.resource as keyof ResourceRepositories];
      if (!parent) throw new Error(`${id}: getManyReference.${target} names no x-references property`);
      app.route<{
        Querystring: ListQuery & Record<string, number>;
        Body: ListQuery & Record<string, number>;
      }>({
        method,
        url: path,
        onRequest: gate,
        schema: {
          [part]: listVariant(schema, method === 'GET' ? 'listQuery' : 'listBody', { [param]: idSchema }),
          response: envelope(list),
        },
        handler: async (req) => {
          const { [param]: parentId, ...query } = method === 'GET' ? req.query : req.body;
          await parent.getOne(db, Number(parentId)); // 404 for an unknown parent
          return ok(await repo.list(db, query, { [target]: parentId }));
        },
      });
    } else if (names.length === 1 && names[0] === 'getOne') {
      const param = verbs.get('getOne')!.id ?? 'id';
      app.route<{ Querystring: Record<string, number>; Body: Record<string, number> }>({
        method,
        url: path,
        onRequest: gate,
        schema: { [part]: idParams(param), response: envelope(record) },
        handler: async (req, reply) => {
          const record = await repo.getOne(db, (method === 'GET' ? req.query : req.body)[param]);
          // A row outside the caller's read scope is answered as unknown (404), not as forbidden.
          const scope = scopeOf(req, {});
          if (!inReadScope(record as Record<string, unknown>, scope))
            throw notFound(schemaLabel(id), (record as { id?: unknown }).id);
          const etag = etagOf(record);
          if (etag) void reply.header('etag', etag);
          return ok(record);
        },
      });
    } else if (names.length === 1 && names[0] === 'create') {
      // The body passed `<id>.create`: the record's writable fields, i.e. a Partial of its generated type.
      app.route<{ Body: Json }>({
        method,
        url: path,
        onRequest: gate,
        schema: { body: { $ref: `${id}.create` }, response: envelope(record) },
        handler: async (req) => ok(await repo.create(db, req.body as Partial<R>, actorOf(req))),
      });
    } else if (names.length === 1 && names[0] === 'update') {
      app.route<{ Body: Json & { id: number } }>({
        method,
        url: path,
        onRequest: gate,
        schema: {
          body: narrow ? narrowedUpdate(schema, narrow) : { $ref: `${id}.update` },
          headers: IF_MATCH,
          response: envelope(record),
        },
        handler: async (req, reply) => {
          const revision = requestedRevision(req.headers['if-match'], req.body);
          const body = { ...req.body, ...(revision !== undefined ? { [REVISION]: revision } : {}) };
          const saved = await repo.update(db, body as Partial<R> & { id: number }, actorOf(req));
          const etag = etagOf(saved);
          if (etag) void reply.header('etag', etag);
          return ok(saved);
        },
      });
    } else if (names.length === 1 && names[0] === 'updateMany') {
      const idsName = verbs.get('updateMany')!.ids ?? 'ids';
      // A call of several records' update is at least the update's: its own roles, else the update's.
      const updateRoles = callRoles ?? endpoints.update?.roles;
      app.route<{ Body: Record<string, unknown> }>({
        method,
        url: path,
        onRequest: updateRoles ? app.requireRoles(updateRoles) : onRequest,
        // the body's 400 names `data.<field>` by the record's labels (updateMany.ts `invalidBody`)
        attachValidation: true,
        schema: {
          body: updateManyBody(narrowedUpdate(schema, writableNames(schema)), idsName),
          response: envelope({
            type: 'object',
            properties: { ids: { type: 'array', items: { type: 'integer' } } },
          }),
        },
        handler: async (req) => {
          if (req.validationError) throw invalidBody(id, req.validationError as FastifyError);
          const ids = req.body[idsName] as number[];
          const data = req.body[DATA] as Record<string, unknown>;
          return ok(await updateMany(repo as Repository<object>, db, ids, data, actorOf(req)));
        },
      });
    } else if (names.every((v) => v === 'delete' || v === 'deleteMany')) {
      const one = verbs.get('delete');
      const many = verbs.get('deleteMany');
      const oneName = one?.id ?? 'id';
      const manyName = many?.ids ?? 'ids';
      app.route<{ Body: Record<string, number | number[]>; Querystring: Record<string, number | number[]> }>({
        method,
        url: path,
        onRequest: gate,
        schema: {
          [part]: deleteBody(one, many),
          headers: IF_MATCH,
          response: envelope({
            type: 'object',
            properties: { ids: { type: 'array', items: { type: 'integer' } } },
          }),
        },
        handler: async (req) => {
          const params = method === 'GET' ? req.query : req.body;
          const ids = params[manyName] ?? params[oneName];
          const list = Array.isArray(ids) ? ids : [ids];
          // One record's delete may name the revision it was shown at (If-Match); several ids cannot.
          const revision = requestedRevision(req.headers['if-match'], undefined);
          if (revision !== undefined && list.length !== 1)
            throw invalidField('If-Match', 'maxItems', 'names the revision of one record; send one id');
          return ok(await repo.deleteMany(db, list, actorOf(req), revision));
        },
      });
    } else {
      throw new Error(
        `${id}: ${method} ${path} is declared for verbs that cannot share a call: ${names.join(', ')}`,
      );
    }
  }
}

/**
 * Builds the repositories of every resource; `hooks` by resource name (kernel/hooks/index.ts
 * `resourceHooks`, passed in by the caller: the kernel does not import the hooks written on top of it).
 */
export function createRepositories(
  dialect: 'sqlite' | 'postgres',
  hooks: Record<string, ResourceHooks>,
): ResourceRepositories {
  const models = resourceModels();
  const repos = Object.fromEntries(
    [...models].map(([name, model]) => [name, new Repository(model, models, dialect, hooks[name])]),
  );
  // The generated ResourceRecords come from the same schemas as the models, one entry per resource.
  return repos as unknown as ResourceRepositories;
}

/** Options of the resources plugin: the per-resource hooks by resource name (kernel/hooks/index.ts). */
export interface ResourcesOptions {
  hooks: Record<string, ResourceHooks>;
}

export default fp(async function resourceRoutes(app: FastifyInstance, opts: ResourcesOptions) {
  app.decorate('resources', createRepositories(app.dialect, opts.hooks));
  for (const schema of resourceSchemas()) {
    if (!schema['x-storage']) continue;
    const repo: Repository<object> = app.resources[schema['x-resource']!.name as keyof ResourceRepositories];
    registerResource(app, schema, repo);
  }
});

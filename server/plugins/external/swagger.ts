/**
 * @fastify/swagger: the OpenAPI 3.1 document of every registered route, served at
 * `GET /dev-api/openapi.json` (admin only; the document itself, not the envelope) and written to
 * docs/openapi.json by codegen (scripts/codegen/openapi.ts).
 *
 * Registered before the routes, it
 * - adds every schema of schemas/ and its request variants (`author.create`, `artwork.listQuery`, ...;
 *   kernel/dialect/schemaRegistry.ts) to Fastify's shared schemas, so the route schemas' `$ref`s resolve into
 *   `components.schemas` (named by `$id`). Validation does not use them: it stays with the registry's
 *   ajv (kernel/server/validation.ts). The project's x- keywords are kept (OpenAPI 3.1 schema
 *   objects are JSON Schema 2020-12 and allow them); `$schema: draft-07` is dropped.
 * - fills, in an `onRoute` hook, what a route does not declare itself (`describeRoute`): `tags` (the
 *   resource whose `x-endpoints` name the call or share its folder, else the URL folder), `summary` (the
 *   react-admin verbs of the call, else its path in words) and `security` (from the `requireRoles` guard,
 *   the roles listed as OpenAPI 3.1 allows for apiKey schemes). It reads only the route options, so
 *   routes written by hand and routes generated from the schemas get the same.
 * - documents the answers (`transformObject`): the envelope `{code, msg, data}` for 200 (an event stream's
 *   own 200 is kept), and 400 / 401 / 403 where the call validates input or is guarded.
 */
import fp from 'fastify-plugin';
import swagger, { type SwaggerTransformObject } from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import {
  buildVariant,
  resourceSchemas,
  schemas,
  type VariantKind,
} from '../../../kernel/dialect/schemaRegistry';
import { REQUIRED_ROLES } from '../app/auth';
import pkg from '../../../package.json' with { type: 'json' };

/** The URL of the document. */
export const OPENAPI_URL = '/dev-api/openapi.json';

/** Name of the security scheme of the `X-Token` header. */
export const TOKEN_SCHEME = 'xToken';
/** Name of the scheme of a platform user's token (`POST /app-api/user/login`, server/routes/app-api/user). */
export const PLATFORM_TOKEN_SCHEME = 'platformToken';
/** Name of the scheme of the `?token=` query parameter (GET /dev-api/user/info only). */
export const TOKEN_QUERY_SCHEME = 'tokenQuery';
/** The one call that also takes the token in its query (server/plugins/app/auth.ts). */
const TOKEN_IN_QUERY_ROUTE = '/dev-api/user/info';

const VARIANTS: VariantKind[] = ['create', 'update', 'listQuery', 'listBody'];

type Json = Record<string, any>;

/** Where a call sits in the schemas' `x-endpoints`: resource name and the verbs that map to it. */
interface EndpointUse {
  resource: string;
  verbs: string[];
}

/** `METHOD path` -> the resources and verbs of every `x-endpoints` entry naming it. */
function endpointIndex(): Map<string, EndpointUse[]> {
  const index = new Map<string, EndpointUse[]>();
  const add = (method: string, path: string, resource: string, verb: string) => {
    const key = `${method} ${path}`;
    const uses = index.get(key) ?? [];
    let use = uses.find((u) => u.resource === resource);
    if (!use) uses.push((use = { resource, verbs: [] }));
    use.verbs.push(verb);
    index.set(key, uses);
  };
  for (const s of resourceSchemas()) {
    const name = s['x-resource']!.name;
    for (const [verb, spec] of Object.entries(s['x-endpoints'] ?? {})) {
      if (verb === 'getManyReference')
        for (const [target, ref] of Object.entries(spec as Record<string, { method: string; path: string }>))
          add(ref.method, ref.path, name, `getManyReference(${target})`);
      else {
        const e = spec as { method: string; path: string; aliases?: { method: string; path: string }[] };
        add(e.method, e.path, name, verb);
        // The same call on the product's other path (x-endpoints `aliases`).
        for (const a of e.aliases ?? []) add(a.method, a.path, name, verb);
      }
    }
  }
  return index;
}

/** URL folder -> the resource whose own calls (getManyReference aside) live there. */
function folderIndex(): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of resourceSchemas())
    for (const [verb, spec] of Object.entries(s['x-endpoints'] ?? {}))
      if (verb !== 'getManyReference') {
        const folder = dirname((spec as { path: string }).path);
        if (!out.has(folder)) out.set(folder, s['x-resource']!.name);
      }
  return out;
}

const dirname = (url: string) => url.slice(0, Math.max(url.lastIndexOf('/'), 0)) || '/';

/** "ArtInfoByArtId" -> "art info by art id"; "/chaincode/approve" -> "chaincode approve". */
function words(path: string): string {
  return path
    .split('/')
    .filter(Boolean)
    .map((seg) =>
      seg
        .replace(/^:/, 'by ')
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
        .toLowerCase(),
    )
    .join(' ');
}

/** The roles a route's `requireRoles` guard admits, or undefined when the route has none (public). */
export function routeRoles(route: Pick<RouteOptions, 'onRequest'>): string[] | undefined {
  const hooks = ([] as unknown[]).concat(route.onRequest ?? []);
  for (const h of hooks) {
    const roles = (h as { [REQUIRED_ROLES]?: string[] } | undefined)?.[REQUIRED_ROLES];
    if (roles) return roles;
  }
  return undefined;
}

/**
 * What the document says of a route when its schema does not say it: `tags` (one section), `summary`
 * and `security`. Pure; `route.url` is the full URL (prefix included), `route.prefix` the plugin prefix.
 */
export function describeRoute(
  route: Pick<RouteOptions, 'url' | 'method' | 'onRequest'> & { prefix?: string },
  endpoints = endpointIndex(),
  folders = folderIndex(),
): { tags: string[]; summary: string; security: Json[] } {
  const method = ([] as string[]).concat(route.method)[0];
  const url = route.url;
  const uses = endpoints.get(`${method} ${url}`);
  const folder = route.prefix && url.startsWith(route.prefix) ? route.prefix : dirname(url);
  const tag = uses?.[0].resource ?? folders.get(dirname(url)) ?? folder;
  const summary = uses
    ? uses.map((u) => `${u.resource} ${u.verbs.join(' / ')}`).join('; ')
    : (() => {
        // The path below the section, or the last segment for a call at the section's root.
        const text = words(url.slice(folder.length)) || words(url.slice(dirname(url).length));
        return text.charAt(0).toUpperCase() + text.slice(1);
      })();
  const roles = routeRoles(route);
  const security = !roles
    ? []
    : [
        { [TOKEN_SCHEME]: roles.length ? [...new Set(['admin', ...roles])] : [] },
        ...(url === TOKEN_IN_QUERY_ROUTE ? [{ [TOKEN_QUERY_SCHEME]: [] }] : []),
      ];
  return { tags: [tag], summary, security };
}

/** The schemas added to Fastify for the document: every schema of schemas/ and each resource's variants. */
export function documentedSchemas(): Json[] {
  const out: Json[] = [];
  for (const s of Object.values(schemas)) {
    out.push(s);
    if (s['x-resource']) for (const kind of VARIANTS) out.push(buildVariant(s, kind));
  }
  return out;
}

/** Drops `$schema` (the document's dialect is OpenAPI 3.1's JSON Schema 2020-12) at every depth. */
function dropDialect(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropDialect);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k]) => k !== '$schema')
      .map(([k, v]) => [k, dropDialect(v)]),
  );
}

const sortedObject = (o: Json) =>
  Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );

/**
 * The document with `paths` (and the methods of each), `components.schemas` and `tags` in name order,
 * so that it does not depend on the order routes and schemas were registered in. Schemas keep their
 * own key order (property order is the field order a reader expects).
 */
function stableOrder(doc: Json): Json {
  const paths = sortedObject(doc.paths);
  for (const p of Object.keys(paths)) paths[p] = sortedObject(paths[p]);
  return {
    ...doc,
    paths,
    components: { ...doc.components, schemas: sortedObject(doc.components.schemas) },
  };
}

const ENVELOPE_REF = { $ref: '#/components/schemas/Envelope' };
const answer = (description: string) => ({
  description,
  content: { 'application/json': { schema: ENVELOPE_REF } },
});

/** Adds the envelope answers to every operation (see the module doc). */
function documentAnswers(doc: Json): Json {
  doc.components.schemas.Envelope = {
    type: 'object',
    description:
      'Every answer of the API (common/envelope.ts): code 0 on success, else the failure code, with the same HTTP status (401 also for code 2: token expired, revoked or unknown).',
    properties: {
      code: { type: 'integer' },
      msg: { type: 'string' },
      data: {
        description: 'The result; on a 400, `{errors: FieldError[]}` naming each field',
      },
    },
    required: ['code', 'msg', 'data'],
  };
  for (const [path, item] of Object.entries<Json>(doc.paths))
    for (const op of Object.values<Json>(item)) {
      const responses: Json = {
        200:
          path === OPENAPI_URL
            ? {
                description: 'This document',
                content: { 'application/json': { schema: { type: 'object' } } },
              }
            : // A stream of server-sent events (GET /dev-api/events) documents its own answer.
              op.responses?.[200]?.content?.['text/event-stream']
              ? op.responses[200]
              : answer('Success: code 0'),
      };
      if (op.parameters?.length || op.requestBody) responses[400] = answer('Invalid input: code 400');
      if (op.security?.length) responses[401] = answer('Not signed in (code 401) or bad token (code 2)');
      if (op.security?.some((s: Json) => s[TOKEN_SCHEME]?.length))
        responses[403] = answer('The token lacks the role: code 403');
      op.responses = responses;
    }
  return doc;
}

export default fp(async (app: FastifyInstance) => {
  // A schema another plugin already added under the same `$id` is left as it is.
  for (const s of documentedSchemas()) if (!app.getSchema(s.$id)) app.addSchema(s);

  const endpoints = endpointIndex();
  const folders = folderIndex();
  const tagDescriptions = new Map<string, string>(
    resourceSchemas().map((s) => [s['x-resource']!.name, `${s.title}: ${s.description ?? ''}`.trim()]),
  );
  const usedTags = new Set<string>();
  // Fastify registers a prefix's root route ('') again as '/' on the same options object, which then
  // carries the second URL: the document keeps the one the hook saw.
  const urls = new WeakMap<object, string>();

  // Before @fastify/swagger's own onRoute hook: it keeps the route options and reads them when the
  // document is built, so the schema set here is the one it documents.
  app.addHook('onRoute', (route) => {
    const derived = describeRoute(route, endpoints, folders);
    const declared = (route.schema ?? {}) as Json;
    if (declared.hide) return;
    route.schema = {
      ...declared,
      tags: declared.tags ?? derived.tags,
      summary: declared.summary ?? derived.summary,
      security: declared.security ?? derived.security,
    } as RouteOptions['schema'];
    for (const t of (route.schema as Json).tags) usedTags.add(t);
    urls.set(route, route.url);
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'baas-admin platform API',
        version: pkg.version,
        description:
          'The platform API of baas-admin (contract and prose: docs/api.md). Every answer is the envelope `{code, msg, data}`.',
      },
      components: {
        securitySchemes: {
          [TOKEN_SCHEME]: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Token',
            description:
              'The login token (POST /dev-api/user/login). The console keeps it in the `Admin-Token` cookie and sends it in this header; the server reads the header only. The roles listed per call are those admitted (admin always).',
          },
          [PLATFORM_TOKEN_SCHEME]: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Token',
            description:
              "A platform user's token (POST /app-api/user/login, the mini-program's sign-in): it opens the /app-api/user calls only, never a console call.",
          },
          [TOKEN_QUERY_SCHEME]: {
            type: 'apiKey',
            in: 'query',
            name: 'token',
            description: 'The same token as a query parameter: accepted by GET /dev-api/user/info only.',
          },
        },
      },
    },
    refResolver: {
      // Components are named by the schemas' `$id` (`author`, `author.create`, ...).
      buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string | undefined) ?? `def-${i}`,
    },
    transform: ({ schema, url, route }) => ({ schema, url: urls.get(route) ?? url }),
    transformObject: (documentObject) => {
      const doc = dropDialect((documentObject as { openapiObject: Json }).openapiObject) as Json;
      doc.tags = [...usedTags].sort().map((name) => ({
        name,
        ...(tagDescriptions.has(name) ? { description: tagDescriptions.get(name) } : {}),
      }));
      return stableOrder(documentAnswers(doc)) as ReturnType<SwaggerTransformObject>;
    },
  });

  app.get(
    OPENAPI_URL,
    { onRequest: app.requireRoles(['admin']), schema: { summary: 'This OpenAPI document' } },
    async (_request, reply) => reply.type('application/json').send(app.swagger()),
  );
});

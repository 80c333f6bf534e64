/**
 * The contract between the schemas and the server, over every resource schema (`resourceSchemas()`,
 * kernel/dialect/schemaRegistry.ts) and every call of its `x-endpoints` (every verb, getManyReference per target):
 * - the call answers with its declared method (admin, an empty query or body: 200 or a 400 naming the
 *   input, never "No such call"), and the other method answers Fastify's 404, which the app turns into the
 *   envelope `{code: 404, msg: "No such call: METHOD /path"}` (server/plugins/external/static.ts);
 * - roles, as the schema's `x-roles` (or the call's own narrower `roles`) says: no token 401; role `user` gets 403 naming the roles when
 *   `user` is not among them, else passes; `admin` always reaches validation or the handler;
 * - the call is in the OpenAPI document (`GET /dev-api/openapi.json`) with that method, and the document
 *   is for admin only (401 without token, 403 for user).
 * Runs on SQLite, or on PostgreSQL with TEST_DATABASE_URL (see helpers.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceSchemas, type EndpointSpec, type ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { type TestApp, createTestApp } from './helpers';

/** One `x-endpoints` call of a resource. */
interface ContractCall {
  resource: string;
  verb: string;
  spec: EndpointSpec;
  roles: string[];
}

function callsOf(schema: ResourceSchema): ContractCall[] {
  const resource = schema['x-resource']!.name;
  const roles = schema['x-roles'] ?? ['admin'];
  return Object.entries(schema['x-endpoints'] ?? {}).flatMap(([verb, spec]) =>
    verb === 'getManyReference'
      ? Object.entries(spec as Record<string, EndpointSpec>).map(([target, ref]) => ({
          resource,
          verb: `getManyReference(${target})`,
          spec: ref,
          roles: ref.roles ?? roles,
        }))
      : [{ resource, verb, spec: spec as EndpointSpec, roles: (spec as EndpointSpec).roles ?? roles }],
  );
}

const CALLS = resourceSchemas().flatMap(callsOf);
/**
 * `METHOD /url` of every route in Fastify's `printRoutes({commonPrefix: false})` tree (a child line
 * continues its parent's URL), without HEAD (Fastify adds one per GET), the static files' wildcard and
 * the `/` twin Fastify adds to a prefix's root route.
 */
function registeredRoutes(tree: string): string[] {
  const stack: string[] = [];
  const out = new Set<string>();
  for (const line of tree.split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+) \(([A-Z, ]+)\)$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    const url = (stack[depth - 1] ?? '') + m[2];
    stack.push(url);
    if (url.includes('*')) continue;
    for (const method of m[3].split(', '))
      if (method !== 'HEAD') out.add(`${method} ${url.length > 1 ? url.replace(/\/$/, '') : url}`);
  }
  return [...out];
}

const name = (c: ContractCall) => `${c.resource} ${c.verb}: ${c.spec.method} ${c.spec.path}`;
const other = (method: string) => (method === 'GET' ? 'POST' : 'GET');

let t: TestApp;
let doc: { paths: Record<string, Record<string, unknown>> };

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({
    method: 'GET',
    url: '/dev-api/openapi.json',
    headers: { 'x-token': t.adminToken },
  });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(() => t?.close());

/** The call with an empty query (GET) or an empty JSON body (POST). */
const send = (method: string, path: string, token: string | null) =>
  t.call({
    method: method as 'GET' | 'POST',
    url: path,
    token,
    ...(method === 'POST' ? { payload: {} } : {}),
  });

describe('every x-endpoints call of every resource schema', () => {
  it('covers the schemas: every resource with x-endpoints has calls', () => {
    const withEndpoints = resourceSchemas().filter((s) => Object.keys(s['x-endpoints'] ?? {}).length);
    expect(withEndpoints.length).toBeGreaterThan(0);
    expect(new Set(CALLS.map((c) => c.resource))).toEqual(
      new Set(withEndpoints.map((s) => s['x-resource']!.name)),
    );
  });

  it.each(CALLS.map((c) => [name(c), c] as const))('%s', async (_name, c) => {
    const { method, path } = c.spec;

    // Admin: the route exists with this method; an empty input is answered (200) or refused by validation (400).
    const admin = await send(method, path, t.adminToken);
    expect(admin.body.msg ?? '').not.toMatch(/^No such call/);
    expect([200, 400]).toContain(admin.status);
    if (admin.status === 400) expect(admin.body.code).toBe(400);

    // The other method: no such route, Fastify's 404 as the envelope.
    const wrong = await send(other(method), path, t.adminToken);
    expect(wrong.status).toBe(404);
    expect(wrong.body).toEqual({
      code: 404,
      msg: `No such call: ${other(method)} ${path}`,
      data: null,
      key: 'request.noSuchCall',
      params: { method: other(method), path },
    });

    // No token: 401 before anything about the input is said.
    const anonymous = await send(method, path, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 401, data: null });

    // Role user: as x-roles says.
    const user = await send(method, path, t.userToken);
    if (c.roles.includes('user')) {
      expect([401, 403]).not.toContain(user.status);
    } else {
      expect(user.status).toBe(403);
      expect(user.body.code).toBe(403);
      for (const role of c.roles) expect(user.body.msg).toContain(role);
    }

    // The OpenAPI document has the call with this method.
    expect(
      doc.paths[path]?.[method.toLowerCase()],
      `${method} ${path} in the OpenAPI document`,
    ).toBeDefined();
  });
});

describe('GET /dev-api/openapi.json', () => {
  it('is for admin only: 401 without token, 403 for role user, 200 (an OpenAPI 3.1 document) for admin', async () => {
    const anonymous = await send('GET', '/dev-api/openapi.json', null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 401, data: null });
    const user = await send('GET', '/dev-api/openapi.json', t.userToken);
    expect(user.status).toBe(403);
    expect(user.body.msg).toMatch(/admin/);
    const admin = await send('GET', '/dev-api/openapi.json', t.adminToken);
    expect(admin.status).toBe(200);
    expect(admin.body.openapi).toBe('3.1.0');
  });

  it('documents every route the app registered (HEAD and static files aside), with its section and summary', () => {
    const registered = registeredRoutes(t.app.printRoutes({ commonPrefix: false }));
    expect(registered).toContain('GET /baas-api/blocks');
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
    );
    // Wildcard routes are left out of the tree walk above (static files); the one call with a wildcard,
    // oss/dir{suffix}, is checked by name.
    expect(documented).toContain('GET /artmanager/oss/dir/{*}');
    // Path parameters: Fastify's `:name` is OpenAPI's `{name}`.
    const asOpenApi = registered.map((r) => r.replace(/:(\w+)/g, '{$1}'));
    expect(documented.filter((d) => !d.includes('{*}')).sort()).toEqual(asOpenApi.sort());
    for (const [path, item] of Object.entries(doc.paths))
      for (const op of Object.values(item) as { tags?: string[]; summary?: string }[]) {
        expect(op.tags?.length, path).toBe(1);
        expect(op.summary, path).toBeTruthy();
      }
  });
});

/**
 * `GET /dev-api/events`: the console's live updates (issue 32, "Live"), as server-sent events (WHATWG
 * HTML, "Server-sent events"; `Content-Type: text/event-stream`). Any signed-in account (the `X-Token`
 * header, as every console call; 401 / 403 as `app.requireRoles` answers); no query parameters.
 *
 * The stream carries, as they commit, the creates, updates and deletes of the records the caller may
 * read (server/db/recordEvents.ts), each as one `data:` line of JSON
 * `{resource, id, action, actor, clientId}` (`action` `many` with `id` null: more records of the resource
 * changed in one transaction than are told one by one). Which resources a caller may read: admin all;
 * otherwise a resource whose every read call (getList, getOne) admits one of the token's roles (the
 * call's `roles`, else the schema's `x-roles`, else admin only) and that has no read scope narrowing it
 * for those roles (ResourceHooks.readScope); nothing of a resource without a schema.
 * Besides the data:
 * - `event: ready` once the caller is subscribed (what happens after it is on the stream);
 * - `event: resync` when events may have been lost (the PostgreSQL listener reconnected): reload all;
 * - a comment line every {@link HEARTBEAT_MS} ms, so that proxies keep the connection open, after which
 *   the token is checked again: a token expired or revoked (logout) ends the stream.
 * Answers carry `Cache-Control: no-cache` and `X-Accel-Buffering: no` (nginx passes each event on at once;
 * README, "Live updates"). Every stream ends when the server closes (`preClose`), so `app.close()` never
 * waits for them. No polling anywhere: PostgreSQL LISTEN/NOTIFY across instances, in process on SQLite.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { resourceSchemas, type ResourceSchema } from '../../../../kernel/dialect/schemaRegistry';
import type { ResourceRepositories } from '../../../../kernel/server/resources';
import type { Repository } from '../../../../kernel/server/repository';
import { NO_QUERY } from '../../../../kernel/server/validation';
import { recordEventsOf, type RecordEvent } from '../../../db/recordEvents';
import { accountForToken, requestToken } from '../../../plugins/app/auth';

/** Interval of the heartbeat comments (and of the token's re-check), ms. */
export const HEARTBEAT_MS = 25_000;

/** How long the browser waits before reconnecting after the stream ended (the `retry:` field), ms. */
const RETRY_MS = 3000;

/** Whether an account with `roles` may read `schema`'s records (see the module doc). */
function mayRead(schema: ResourceSchema, repo: Repository<object> | undefined, roles: readonly string[]) {
  if (roles.includes('admin')) return true;
  const endpoints = schema['x-endpoints'] ?? {};
  const reads = [endpoints.getList, endpoints.getOne].filter((e) => e !== undefined);
  if (!reads.length) return false;
  const admitted = reads.every((e) =>
    (e.roles ?? schema['x-roles'] ?? ['admin']).some((r: string) => roles.includes(r)),
  );
  if (!admitted) return false;
  try {
    const scope = repo?.hooks.readScope?.(roles, {});
    return !scope || Object.keys(scope).length === 0;
  } catch {
    return false;
  }
}

/** The resources (by name) whose events an account with `roles` gets; undefined: all (admin). */
export function readableResources(
  resources: ResourceRepositories,
  roles: readonly string[],
): Set<string> | undefined {
  if (roles.includes('admin')) return undefined;
  const out = new Set<string>();
  for (const schema of resourceSchemas()) {
    const name = schema['x-resource']?.name;
    if (!name || !schema['x-storage']) continue;
    const repo = resources[name as keyof ResourceRepositories] as Repository<object> | undefined;
    if (mayRead(schema, repo, roles)) out.add(name);
  }
  return out;
}

/** The headers of an event stream, with those the hooks set on `reply` (helmet's, the request id). */
function streamHeaders(reply: FastifyReply): Record<string, string | number | string[]> {
  const headers: Record<string, string | number | string[]> = {};
  for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) headers[k] = v;
  return {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
    // The connection ends with its stream: nothing waits on an idle keep-alive socket at close.
    connection: 'close',
  };
}

export default async function eventRoutes(app: FastifyInstance) {
  /** The open streams' closers, ended when the server closes. */
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });

  app.get(
    '/events',
    {
      onRequest: app.requireRoles([]),
      schema: {
        summary: 'Live record events (server-sent events)',
        description:
          'A text/event-stream of the creates, updates and deletes of the records the caller may read, as they commit: `data: {resource, id, action, actor, clientId}`; `event: ready` once subscribed; `event: resync` when events may have been lost; a comment line as heartbeat.',
        tags: ['live'],
        querystring: NO_QUERY,
        response: {
          200: {
            description: 'The event stream (never the envelope)',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
        },
      },
    },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const account = request.account!;
      const token = requestToken(request)!;
      const readable = readableResources(app.resources, account.roles);
      const hub = recordEventsOf(app.db);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, streamHeaders(reply));
      res.write(`retry: ${RETRY_MS}\n\n`);
      let ended = false;
      const write = (text: string) => {
        if (!ended) res.write(text);
      };
      const listener = (event: RecordEvent | 'resync') => {
        if (event === 'resync') return write('event: resync\ndata: {}\n\n');
        if (readable && !readable.has(event.resource)) return;
        write(`data: ${JSON.stringify(event)}\n\n`);
      };
      const unsubscribe = hub?.subscribe(listener);
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        unsubscribe?.();
        streams.delete(end);
        res.end();
      };
      const heartbeat = setInterval(() => {
        write(': heartbeat\n\n');
        // A session ended since (logout, revoked, expired) ends its stream.
        accountForToken(app.db, token).catch(end);
      }, HEARTBEAT_MS);
      heartbeat.unref();
      streams.add(end);
      res.on('close', end);
      res.on('error', end);
      write('event: ready\ndata: {}\n\n');
    },
  );
}

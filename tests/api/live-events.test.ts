/**
 * Live updates (issue 32, "Live"): `GET /dev-api/events` streams, as server-sent events, the creates,
 * updates and deletes of the records the caller may read, once they commit (server/db/recordEvents.ts,
 * server/routes/dev-api/events). Through a real listening server and fetch, as the console reads it:
 * - a subscriber sees another session's create, update and delete, each with the actor and the writing
 *   tab's `X-Client-Id`;
 * - a subscriber of role `user` gets nothing of a resource it may not read (authors: admin only), and
 *   does get what it may (contract templates);
 * - a write refused by validation announces nothing (its transaction rolled back);
 * - no token: 401 in the envelope; an unknown query parameter: 400 naming it;
 * - on PostgreSQL, two instances on one database: a write on the first reaches a subscriber of the
 *   second (LISTEN/NOTIFY), and closing an instance with an open stream does not hang.
 * Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { addAuthor, createTestApp, type TestApp } from './helpers';
import { isPostgresUrl } from '../../server/db/connect';

const onPg = isPostgresUrl(process.env.TEST_DATABASE_URL);
const DB = onPg ? 'postgres' : 'sqlite';

interface LiveEvent {
  resource: string;
  id: string | null;
  action: string;
  actor: string;
  clientId: string | null;
}

/** An open event stream: the events received so far, and a wait for the next one matching. */
interface Subscriber {
  events: LiveEvent[];
  /** Resolves the first event (received so far or later) that `match` accepts. */
  next(match: (e: LiveEvent) => boolean): Promise<LiveEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens `GET /dev-api/events` on `base` with `token`; resolves once the server says `ready`. */
async function subscribe(base: string, token: string): Promise<Subscriber> {
  const abort = new AbortController();
  const res = await fetch(`${base}/dev-api/events`, { headers: { 'x-token': token }, signal: abort.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  expect(res.headers.get('x-accel-buffering')).toBe('no');
  const events: LiveEvent[] = [];
  const waiters: { match: (e: LiveEvent) => boolean; resolve: (e: LiveEvent) => void }[] = [];
  let readyResolve!: () => void;
  const ready = new Promise<void>((r) => (readyResolve = r));
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const ended = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const kind = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (kind === 'ready') readyResolve();
          if (kind !== 'message' || data === undefined) continue;
          const e = JSON.parse(data) as LiveEvent;
          events.push(e);
          for (const w of [...waiters])
            if (w.match(e)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(e);
            }
        }
      }
    } catch {
      // aborted
    }
  })();
  await ready;
  return {
    events,
    ended,
    next: (match) => {
      const seen = events.find(match);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ match, resolve }));
    },
    close: () => abort.abort(),
  };
}

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe(`live record events (${DB})`, () => {
  it('a subscriber sees the create, update and delete of another session, with its actor and client id', async () => {
    const sub = await subscribe(base, await t.login('admin', 'admin-test-password'));
    const headers = { 'x-client-id': 'tab-one' };
    const add = await t.call({
      method: 'POST',
      url: '/artmanager/authors/addAuthors',
      payload: { authorName: 'Live Author' },
      headers,
    });
    expect(add.status).toBe(200);
    const id = String(add.body.data.id);
    const created = await sub.next((e) => e.resource === 'authors' && e.id === id);
    expect(created).toEqual({
      resource: 'authors',
      id,
      action: 'create',
      actor: 'admin',
      clientId: 'tab-one',
    });

    const upd = await t.post('/artmanager/authors/updateInfo', {
      id: Number(id),
      authorName: 'Live Author 2',
    });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    const updated = await sub.next((e) => e.id === id && e.action === 'update');
    expect(updated).toMatchObject({ resource: 'authors', actor: 'admin', clientId: null });

    const del = await t.post('/artmanager/authors/deleteAuthors', { id: Number(id) });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(await sub.next((e) => e.id === id && e.action === 'delete')).toMatchObject({
      resource: 'authors',
    });
    sub.close();
  });

  it('a refused write announces nothing', async () => {
    const sub = await subscribe(base, t.adminToken);
    const bad = await t.post('/artmanager/authors/addAuthors', { authorName: '' });
    expect(bad.status).toBe(400);
    const marker = await addAuthor(t, 'After the refusal');
    await sub.next((e) => e.id === String(marker));
    expect(sub.events.map((e) => `${e.resource} ${e.action} ${e.id}`)).toEqual([`authors create ${marker}`]);
    sub.close();
  });

  it('a user-role subscriber gets only the resources it may read', async () => {
    const sub = await subscribe(base, t.userToken);
    const author = await addAuthor(t, 'Not for users');
    const template = await t.post('/medicine-api/smContract/addTemplate', {
      name: 'Live template',
      chaincode: 'drugSupply',
      paramsSchema: {
        type: 'object',
        properties: { note: { type: 'string', maxLength: 60, 'x-i18n': { en: 'Note', zh: '备注' } } },
        additionalProperties: false,
      },
    });
    expect(template.status, JSON.stringify(template.body)).toBe(200);
    const id = String(template.body.data.id);
    // Events come in commit order: the author's create was before the template's.
    await sub.next((e) => e.resource === 'contractTemplates' && e.id === id);
    expect(sub.events.map((e) => e.resource)).toEqual(['contractTemplates']);
    expect(sub.events.some((e) => e.resource === 'authors' && e.id === String(author))).toBe(false);
    sub.close();
  });

  it('no token: 401 in the envelope; an unknown query parameter: 400 naming it', async () => {
    const anonymous = await t.get('/dev-api/events', null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 401, data: null });
    const unknown = await t.get('/dev-api/events?since=1');
    expect(unknown.status).toBe(400);
    expect(unknown.body.data.errors.map((e: { field: string }) => e.field)).toContain('since');
  });

  it(
    onPg
      ? 'two instances on one database: a write on one reaches a subscriber of the other; closing ends the stream'
      : 'closing the server ends its open streams',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'baas-live-'));
      // PostgreSQL: a second instance on the same database; SQLite: a server of its own.
      const other = onPg ? undefined : await createTestApp();
      let second: FastifyInstance | undefined =
        other?.app ?? (await buildApp({ ...t.app.config, dataDir, ledgerKeyDir: dataDir }));
      try {
        await second.ready();
        const secondBase = await second.listen({ host: '127.0.0.1', port: 0 });
        const sub = await subscribe(secondBase, other?.adminToken ?? t.adminToken);
        if (onPg) {
          const id = String(await addAuthor(t, 'Across instances'));
          expect(await sub.next((e) => e.id === id)).toMatchObject({ resource: 'authors', action: 'create' });
        }
        // The stream is still open: app.close() ends it, and does not wait for it.
        await second.close();
        second = undefined;
        await sub.ended;
      } finally {
        await second?.close();
        await other?.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});

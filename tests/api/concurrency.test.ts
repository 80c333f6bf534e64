/**
 * Concurrency on PostgreSQL (issue 11): 20 clients create, edit and delete authors and artworks through
 * the API of a real listening server (`app.listen` on 127.0.0.1, port 0; HTTP with fetch), author deletes
 * racing artwork creates on the same authors, for `CONCURRENCY_SECONDS` (default 30). Asserted:
 * - no 5xx;
 * - no lost write: every acknowledged create or update is read back with its value, unless the record
 *   was later acknowledged-deleted (then it is gone);
 * - no orphan: no artwork whose author does not exist.
 * Prints the requests by call and outcome, and per second. Runs only when TEST_DATABASE_URL is set
 * (scripts/test-all.sh); `CONCURRENCY_SQLITE=1` runs it on SQLite too.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaForResource } from '../../kernel/dialect/schemaRegistry';
import { createTestApp, type TestApp } from './helpers';

const SECONDS = Number(process.env.CONCURRENCY_SECONDS ?? 30);
const CLIENTS = 20;
const onPg = Boolean(process.env.TEST_DATABASE_URL);
const run = onPg || process.env.CONCURRENCY_SQLITE === '1';

const authors = schemaForResource('authors')['x-endpoints']!;
const artworks = schemaForResource('artworks')['x-endpoints']!;

/** What the test knows a record should hold: its last acknowledged name, or that it was deleted. */
interface Known {
  name: string;
  deleted: boolean;
  /** The acknowledged write this expectation comes from, for messages. */
  by: string;
}

/** A small seeded PRNG (mulberry32), so each client's choices repeat from run to run. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe.skipIf(!run)(`concurrency (${onPg ? 'postgres' : 'sqlite'})`, () => {
  let t: TestApp;
  let base = '';
  beforeAll(async () => {
    t = await createTestApp();
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => t?.close());

  it(
    `${CLIENTS} clients for ${SECONDS} s: no 5xx, no lost write, no orphan`,
    async () => {
      const knownAuthors = new Map<number, Known>();
      const knownArtworks = new Map<number, Known & { author: number }>();
      const outcomes = new Map<string, number>();
      const fiveXx: string[] = [];
      /** The first answer of each refused outcome, printed with the figures. */
      const examples = new Map<string, string>();
      let requests = 0;

      const call = async (verb: string, method: 'GET' | 'POST', path: string, body?: unknown) => {
        const res = await fetch(`${base}${path}`, {
          method,
          headers: { 'x-token': t.adminToken, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        const text = await res.text();
        requests++;
        const key = `${verb} ${res.status}`;
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        if (res.status >= 400 && !examples.has(key)) examples.set(key, text.slice(0, 200));
        if (res.status >= 500)
          fiveXx.push(`${verb} ${JSON.stringify(body)} -> ${res.status} ${text.slice(0, 300)}`);
        let json: any;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        return { status: res.status, body: json };
      };

      const pick = <T>(rnd: () => number, xs: T[]): T | undefined =>
        xs.length ? xs[Math.floor(rnd() * xs.length)] : undefined;
      const live = <K>(m: Map<number, K & { deleted: boolean }>) =>
        [...m].filter(([, k]) => !k.deleted).map(([id]) => id);

      const deadline = Date.now() + SECONDS * 1000;
      const client = async (n: number) => {
        const rnd = prng(1000 + n);
        const mineAuthors: number[] = [];
        const mineArtworks: number[] = [];
        let seq = 0;
        while (Date.now() < deadline) {
          const r = rnd();
          const tag = `c${n}-${++seq}`;
          if (r < 0.2 || !mineAuthors.length) {
            const name = `Author ${tag}`;
            const res = await call('create author', 'POST', authors.create!.path, { authorName: name });
            if (res.body?.code === 0) {
              knownAuthors.set(res.body.data.id, { name, deleted: false, by: `create ${tag}` });
              mineAuthors.push(res.body.data.id);
            }
          } else if (r < 0.35) {
            // Each client edits only its own records, so its last acknowledged value is the expected one.
            const id = pick(rnd, mineAuthors)!;
            const name = `Author ${tag} edited`;
            const res = await call('update author', 'POST', authors.update!.path, { id, authorName: name });
            // An acknowledged delete is final: an update acknowledged after it committed before it (its
            // answer only came later; ids are never reused), so it must not bring the author back here.
            if (res.body?.code === 0 && !knownAuthors.get(id)?.deleted)
              knownAuthors.set(id, { name, deleted: false, by: `update ${tag}` });
          } else if (r < 0.5) {
            // Any client's author, possibly one another client is adding works to right now.
            const id = pick(rnd, live(knownAuthors));
            if (id === undefined) continue;
            const res = await call('delete author', 'POST', authors.delete!.path, { id });
            if (res.body?.code === 0)
              knownAuthors.set(id, { ...knownAuthors.get(id)!, deleted: true, by: `delete ${tag}` });
          } else if (r < 0.75) {
            const author = pick(rnd, live(knownAuthors));
            if (author === undefined) continue;
            const name = `Work ${tag}`;
            const res = await call('create artwork', 'POST', artworks.create!.path, {
              artWorkName: name,
              author,
              classify: 'oil',
              texture: 'canvas',
            });
            if (res.body?.code === 0) {
              knownArtworks.set(res.body.data.id, { name, author, deleted: false, by: `create ${tag}` });
              mineArtworks.push(res.body.data.id);
            }
          } else if (r < 0.88) {
            const id = pick(rnd, mineArtworks);
            if (id === undefined) continue;
            const name = `Work ${tag} edited`;
            const res = await call('update artwork', 'POST', artworks.update!.path, {
              id,
              artWorkName: name,
            });
            // (a deleted artwork stays deleted: `deleted` is kept; see the author's update above)
            if (res.body?.code === 0)
              knownArtworks.set(id, { ...knownArtworks.get(id)!, name, by: `update ${tag}` });
          } else {
            const id = pick(rnd, live(knownArtworks));
            if (id === undefined) continue;
            const res = await call('delete artwork', 'POST', artworks.delete!.path, { id });
            if (res.body?.code === 0)
              knownArtworks.set(id, { ...knownArtworks.get(id)!, deleted: true, by: `delete ${tag}` });
          }
        }
      };
      const started = Date.now();
      await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
      const elapsed = (Date.now() - started) / 1000;

      console.log(
        `concurrency (${onPg ? 'postgres' : 'sqlite'}): ${CLIENTS} clients, ${elapsed.toFixed(1)} s, ${requests} requests ` +
          `(${(requests / elapsed).toFixed(0)}/s); by outcome: ` +
          [...outcomes]
            .sort()
            .map(([k, v]) => `${k}: ${v} (${(v / elapsed).toFixed(1)}/s)`)
            .join(', '),
      );

      for (const [k, v] of examples) console.log(`  ${k}: ${v}`);
      expect(fiveXx, 'no 5xx').toEqual([]);

      // No lost write: read every record the clients were told about.
      const lost: string[] = [];
      const check = async (
        what: string,
        getOne: { path: string; id?: string },
        id: number,
        k: Known,
        field: string,
      ) => {
        const res = await call(`read ${what}`, 'GET', `${getOne.path}?${getOne.id ?? 'id'}=${id}`);
        if (k.deleted) {
          if (res.status !== 404) lost.push(`${what} ${id} deleted (${k.by}) but answers ${res.status}`);
        } else if (res.body?.code !== 0 || res.body.data[field] !== k.name)
          lost.push(
            `${what} ${id}: expected "${k.name}" (${k.by}), got ${res.status} ${JSON.stringify(res.body?.data?.[field])}`,
          );
      };
      for (const [id, k] of knownAuthors) await check('author', authors.getOne!, id, k, 'authorName');
      for (const [id, k] of knownArtworks) await check('artwork', artworks.getOne!, id, k, 'artWorkName');
      expect(lost, 'no lost write').toEqual([]);

      // No orphan: every artwork's author exists.
      const orphans = await t.app.db
        .selectFrom('artworks')
        .leftJoin('authors', 'authors.id', 'artworks.author')
        .select(['artworks.id as id', 'artworks.author as author'])
        .where(sql<boolean>`authors.id is null`)
        .execute();
      expect(orphans, 'no artwork without its author').toEqual([]);
      expect(knownAuthors.size, 'authors were created').toBeGreaterThan(0);
      expect(knownArtworks.size, 'artworks were created').toBeGreaterThan(0);
    },
    (SECONDS + 120) * 1000,
  );
});

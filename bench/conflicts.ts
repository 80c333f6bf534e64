/**
 * `npm run bench -- --conflicts` (also `npx tsx bench/conflicts.ts`): many operators editing the same few
 * records (issue 32 item 4), printed, never asserted.
 *
 * For each database (SQLite in a temp DATA_DIR; PostgreSQL too when BENCH_DATABASE_URL or
 * TEST_DATABASE_URL is set: a scratch database, dropped after), the real server as `npm start` runs it
 * (the bundle) gets one author and 50 artworks through its calls; then 20 clients, for
 * BENCH_CONFLICT_SECONDS (default 30) s each, loop: read a random one of the 50 artworks
 * (`GET /artmanager/artwork/ArtInfoByArtId`, its revision from the `ETag`), then save a new value of one
 * random field (artWorkName, texture or possessor) through the console's update call
 * (`POST /artmanager/artwork/baseInfo`) with `If-Match`. Every answer is counted: 200 (acknowledged, with
 * the revision it made), 409 (stale: the client reads again), any 5xx.
 *
 * Then it reads the 50 records and checks every acknowledged write (the rule): its value is the
 * stored one, or a later acknowledged write of the same record and field (a higher revision) superseded
 * it. It also counts the writes overwritten unseen: superseded by a write that had started from an older
 * revision than the one the overwritten write made (that writer never saw it). With revisions both are 0.
 * The same load without `If-Match` (the "blind" rows, as a client that sends no revision) shows that the
 * second check does find lost updates when the revision is not sent.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { SERVER_BUNDLE, SERVER_ENV } from '../scripts/build-server';
import { ensureBuilt } from '../scripts/build';
import { freePort } from '../tests/support/serverProcess';
import { createScratchDatabase } from '../tests/support/pgAdmin';
import { adminToken, benchServerEnv, runIfMain } from './benchServer';
import { isPostgresUrl } from '../server/db/connect';

const SECONDS = Number(process.env.BENCH_CONFLICT_SECONDS || 30);
const CLIENTS = 20;
const RECORDS = 50;
const FIELDS = ['artWorkName', 'texture', 'possessor'] as const;

/** One acknowledged write: the value saved, the revision it started from and the one it made. */
interface Ack {
  record: number;
  field: string;
  value: string;
  from: number;
  made: number;
}

interface Outcome {
  acks: Ack[];
  refused: number;
  errors5xx: number;
  other: number;
  reads: number;
  latencies: number[];
}

/** Loads the server at `base` as described in the module doc; `withRevision` sends If-Match. */
async function load(base: string, token: string, ids: number[], withRevision: boolean): Promise<Outcome> {
  const out: Outcome = { acks: [], refused: 0, errors5xx: 0, other: 0, reads: 0, latencies: [] };
  const headers = { 'x-token': token, 'accept-language': 'en', 'content-type': 'application/json' };
  const until = Date.now() + SECONDS * 1000;
  let seq = 0;
  const client = async (c: number) => {
    while (Date.now() < until) {
      const id = ids[Math.floor(Math.random() * ids.length)];
      const read = await fetch(`${base}/artmanager/artwork/ArtInfoByArtId?artId=${id}`, { headers });
      out.reads++;
      if (read.status >= 500) out.errors5xx++;
      const from = Number(/"(\d+)"/.exec(read.headers.get('etag') ?? '')?.[1]);
      await read.arrayBuffer();
      const field = FIELDS[Math.floor(Math.random() * FIELDS.length)];
      const value = `c${c}-${++seq}`;
      const t0 = performance.now();
      const res = await fetch(`${base}/artmanager/artwork/baseInfo`, {
        method: 'POST',
        headers: withRevision ? { ...headers, 'if-match': `"${from}"` } : headers,
        body: JSON.stringify({ id, [field]: value }),
      });
      const body = (await res.json()) as { data?: { revision?: number } };
      out.latencies.push(performance.now() - t0);
      if (res.status === 200)
        out.acks.push({ record: id, field, value, from, made: Number(body.data?.revision) });
      else if (res.status === 409) out.refused++;
      else if (res.status >= 500) out.errors5xx++;
      else out.other++;
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  return out;
}

/** The two checks of the module doc over the acknowledged writes and the stored records. */
function check(acks: Ack[], stored: Map<number, Record<string, unknown>>) {
  let notKept = 0;
  let unseen = 0;
  for (const a of acks) {
    const later = acks.filter((b) => b.record === a.record && b.field === a.field && b.made > a.made);
    if (stored.get(a.record)?.[a.field] !== a.value && later.length === 0) notKept++;
    // Overwritten unseen: the next write of the same field started from before this one was made.
    const next = later.sort((x, y) => x.made - y.made)[0];
    if (next && next.from < a.made) unseen++;
  }
  return { notKept, unseen };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

/** Starts the bundle on `dataDir` (and `databaseUrl`), runs both loads, prints their rows. */
async function runOne(label: string, databaseUrl?: string): Promise<string[]> {
  const tmp = mkdtempSync(join(tmpdir(), 'baas-conflicts-'));
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const server: ChildProcess = spawn(process.execPath, [SERVER_BUNDLE], {
    env: {
      ...benchServerEnv(join(tmp, 'data'), port, password),
      ...SERVER_ENV,
      LEDGER_KEY_DIR: join(tmp, 'keys'),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  const rows: string[] = [];
  try {
    const token = await adminToken(base, password, `${label} server`, 90);
    const post = async (path: string, body: unknown) =>
      (await (
        await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'x-token': token, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()) as { data: { id: number } };
    const author = (await post('/artmanager/authors/addAuthors', { authorName: 'Bench conflicts' })).data.id;
    for (const withRevision of [true, false]) {
      const ids: number[] = [];
      for (let i = 0; i < RECORDS; i++)
        ids.push(
          (
            await post('/artmanager/artwork/addArtwork', {
              artWorkName: `Conflict ${i}`,
              author,
              classify: 'painting',
              texture: 'oil on canvas',
            })
          ).data.id,
        );
      const o = await load(base, token, ids, withRevision);
      const stored = new Map<number, Record<string, unknown>>();
      for (const id of ids) {
        const r = (await (
          await fetch(`${base}/artmanager/artwork/ArtInfoByArtId?artId=${id}`, {
            headers: { 'x-token': token },
          })
        ).json()) as { data: Record<string, unknown> };
        stored.set(id, r.data);
      }
      const { notKept, unseen } = check(o.acks, stored);
      rows.push(
        [
          label.padEnd(10),
          (withRevision ? 'If-Match' : 'blind').padEnd(9),
          String(o.acks.length).padStart(6),
          String(o.refused).padStart(6),
          String(o.errors5xx).padStart(4),
          String(o.other).padStart(5),
          String(notKept).padStart(8),
          String(unseen).padStart(7),
          `${(o.acks.length / SECONDS).toFixed(0)}/s`.padStart(7),
          `${pct(o.latencies, 50).toFixed(1)} / ${pct(o.latencies, 99).toFixed(1)} ms`.padStart(18),
        ].join(' '),
      );
    }
  } finally {
    server.kill('SIGTERM');
    await once(server, 'exit');
    rmSync(tmp, { recursive: true, force: true });
  }
  return rows;
}

/** Runs the bench (see the module doc) and prints one table. */
export async function main(): Promise<void> {
  await ensureBuilt({ serverOnly: true });
  const rows = await runOne('SQLite');
  const admin = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (isPostgresUrl(admin)) {
    const scratch = await createScratchDatabase(admin, 'baas_conflicts');
    try {
      rows.push(...(await runOne('PostgreSQL', scratch.url)));
    } finally {
      await scratch.drop();
    }
  } else console.log('(PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
  console.log(
    `\n${CLIENTS} clients editing the same ${RECORDS} artworks for ${SECONDS} s each (read, then save one field)\n` +
      'database   revision   acked    409  5xx other notKept  unseen  acks/s    update p50 / p99\n' +
      rows.join('\n') +
      '\nnotKept: acknowledged writes neither stored nor superseded by a later one (the issue\'s "lost");' +
      '\nunseen: acknowledged writes overwritten by a save that started before them (lost to its writer).',
  );
}

runIfMain(import.meta.url, main);

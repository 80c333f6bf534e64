/**
 * The ledger as a C2SP transparency log, checked with Go's reference implementation (issue 19): a server
 * (createTestApp: SQLite, or PostgreSQL with TEST_DATABASE_URL) listening on 127.0.0.1 puts records on
 * chain, then tests/go/tlogcheck (GOPATH mode against Debian's golang-golang-x-mod-dev) opens the served
 * checkpoint with note.Open, reads every entry through the tiles (tlog.TileHashReader) and checks each
 * served inclusion proof with tlog.CheckRecord; then, as a client still holding an older checkpoint (sizes
 * 5 and 277, the log grown to 307 since: their partial tiles 0/000.p/5 and 0/001.p/21 are not the latest's
 * 0/001.p/51), it reads that tree through its own partial tiles (tlog.TileHashReader over the older tree,
 * tlog.TreeHash, tlog.ProveRecord + CheckRecord) and checks the consistency proof to the latest (C2SP
 * tlog-tiles, "Partial Tiles"; docs/ledger.md section 10).
 * Property test: for random sizes m ≤ n ≤ 5,000 our proofs verify in Go and in ours, and a flipped byte
 * fails both. Skipped with a message only when `go` is not installed (scripts/ensure-system-deps.sh
 * installs it for CI).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBase64 } from '../../common/ledger/note';
import {
  arrayHashReader,
  checkRecord,
  checkTree,
  type Hash,
  proveRecord,
  proveTree,
  recordHash,
  storedHashes,
  treeHash,
} from '../../common/ledger/tlog';
import { createTestApp, type TestApp } from './helpers';
import { buildGo, GO_ENV, hasGo as hasGoTool } from '../support/goTools';

const run = promisify(execFile);
const PROGRAM = 'tests/go/tlogcheck/main.go';
let goBinary: string | undefined;
const hasGo = hasGoTool('tlog-interop');
const dir = mkdtempSync(join(tmpdir(), 'baas-tlog-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Builds the Go checker once (go run would rebuild per call). */
async function goChecker(): Promise<string> {
  if (goBinary) return goBinary;
  const out = await buildGo(PROGRAM, dir, 'tlogcheck');
  goBinary = out;
  return out;
}

/** Runs the Go checker's batch mode over cases; answers "ok"/"fail" per case. */
async function goBatch(cases: object[]): Promise<string[]> {
  const bin = await goChecker();
  return new Promise((resolve, reject) => {
    const p = spawn(bin, ['batch'], { env: GO_ENV });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) =>
      code === 0 ? resolve(out.trim().split('\n')) : reject(new Error(`${out}${err}`)),
    );
    p.stdin.end(cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
  });
}

describe.skipIf(!hasGo)('Go tlog interop against a running server', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({ ledgerBatchSize: 3, ledgerBatchTimeoutMs: 0, publicRateLimit: 1_000_000 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => t?.close());

  async function putAuthors(n: number) {
    for (let i = 0; i < n; i++) {
      const a = await t.call({
        method: 'POST',
        url: '/artmanager/authors/addAuthors',
        payload: { authorName: `A${i}` },
      });
      const p = await t.call({
        method: 'POST',
        url: '/artmanager/authors/blockChain',
        payload: { id: a.body.data.id },
      });
      expect(p.body.code).toBe(0);
    }
  }

  /** The served checkpoint's note, and its size (the second line). */
  async function checkpointNow(prefix: string): Promise<{ note: string; size: number }> {
    const note = await (await fetch(`${prefix}/checkpoint`)).text();
    return { note, size: Number(note.split('\n')[1]) };
  }

  it('note.Open, entries through tiles, CheckRecord of each; clients holding older checkpoints read their trees', async () => {
    const prefix = `${url}/baas-api/public/log/artchannel`;
    await putAuthors(4);
    const first = await checkpointNow(prefix);
    await putAuthors(276 - 4);
    // An older checkpoint past the first full tile, not a multiple of 256: its partial tiles (0/001.p/W,
    // entries/001.p/W) have other widths than the latest's once the log has grown.
    const older = await checkpointNow(prefix);
    await putAuthors(306 - 276);
    const latest = await checkpointNow(prefix);
    expect(first.size % 256).not.toBe(0);
    expect(older.size).toBeGreaterThan(256);
    expect(older.size % 256).not.toBe(0);
    expect(latest.size % 256).toBeGreaterThan(older.size % 256);
    expect(Math.floor(latest.size / 256)).toBe(Math.floor(older.size / 256));
    writeFileSync(join(dir, 'first.note'), first.note);
    writeFileSync(join(dir, 'older.note'), older.note);
    const key = await (await fetch(`${url}/baas-api/public/key`)).json();
    const bin = await goChecker();
    const stdout = await run(
      bin,
      ['server', prefix, key.data.vkey, join(dir, 'first.note'), join(dir, 'older.note')],
      { env: GO_ENV, maxBuffer: 1 << 24 },
    ).then(
      (r) => r.stdout,
      (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ''}${e.stderr ?? ''}`,
    );
    const older1 = (m: number) =>
      `older ${m}: CheckTree ${m} → ${latest.size}, TreeHash through its tiles, ${m % 256} entries of bundle ${Math.floor(m / 256)}, ProveRecord\\+CheckRecord 4`;
    expect(stdout).toMatch(
      new RegExp(
        `^OK origin \\S+/artchannel: note\\.Open, ${latest.size} entries read through tiles, CheckRecord each; ${older1(first.size)}; ${older1(older.size)}\n$`,
      ),
    );
    // The served checkpoint counts entries: the genesis transaction and the puts.
    expect(latest.size).toBeGreaterThanOrEqual(307);
    expect(latest.note.split('\n')[0]).toBe(key.data.name);
    // Tiles are immutable, partial ones included (a path's bytes never change).
    const full = await fetch(`${prefix}/tile/0/000`);
    expect(full.status).toBe(200);
    expect(full.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await full.arrayBuffer()).byteLength).toBe(8192);
    const olderTile = await fetch(`${prefix}/tile/0/001.p/${older.size % 256}`);
    expect(olderTile.status).toBe(200);
    expect(olderTile.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(
      (await fetch(`${prefix}/tile/0/001.p/${(latest.size % 256) + 1}`)).status, // beyond the signed size
    ).toBe(404);
    expect((await fetch(`${prefix}/tile/0/1`)).status).toBe(404); // not a canonical path
  }, 600_000);
});

describe.skipIf(!hasGo)('property: our proofs verify in Go and in ours; a flipped byte fails both', () => {
  it('random m ≤ n ≤ 5,000', async () => {
    const N = 5000;
    const stored: Hash[] = [];
    const r = arrayHashReader(stored);
    const leaves: Hash[] = [];
    for (let i = 0; i < N; i++) {
      const data = new TextEncoder().encode(`entry ${i}`);
      stored.push(...storedHashes(i, data, r));
      leaves.push(recordHash(data));
    }
    const pairs = fc.sample(
      fc
        .tuple(fc.integer({ min: 1, max: N }), fc.integer({ min: 1, max: N }), fc.nat(), fc.nat())
        .map(([a, b, x, y]) => ({
          m: Math.min(a, b),
          n: Math.max(a, b),
          x,
          y,
        })),
      60,
    );
    const cases: { c: object; ours: boolean }[] = [];
    for (const { m, n, x, y } of pairs) {
      const th = treeHash(n, r);
      const oh = treeHash(m, r);
      const tp = proveTree(n, m, r);
      const idx = x % n;
      const rp = proveRecord(n, idx, r);
      const b64 = (p: Hash[]) => p.map(toBase64);
      const flip = (p: Hash[]) => {
        if (p.length === 0) return null;
        const q = p.map((h) => h.slice());
        q[y % q.length][(x + y) % 32] ^= 1 << (y % 8);
        return q;
      };
      const tree = { kind: 'tree', t: n, th: toBase64(th), n: m, h: toBase64(oh) };
      const rec = { kind: 'record', t: n, th: toBase64(th), n: idx, h: toBase64(leaves[idx]) };
      cases.push({ c: { ...tree, proof: b64(tp) }, ours: checkTree(tp, n, th, m, oh) });
      cases.push({ c: { ...rec, proof: b64(rp) }, ours: checkRecord(rp, n, th, idx, leaves[idx]) });
      const ft = flip(tp);
      if (ft) cases.push({ c: { ...tree, proof: b64(ft) }, ours: checkTree(ft, n, th, m, oh) });
      const fr = flip(rp);
      if (fr) cases.push({ c: { ...rec, proof: b64(fr) }, ours: checkRecord(fr, n, th, idx, leaves[idx]) });
    }
    const go = await goBatch(cases.map((x) => x.c));
    expect(go).toHaveLength(cases.length);
    for (const [i, { c, ours }] of cases.entries())
      expect(go[i] === 'ok', JSON.stringify(c).slice(0, 200)).toBe(ours);
    // Unflipped proofs verify; flipped ones fail, in both.
    expect(go.filter((g) => g === 'ok').length).toBe(pairs.length * 2);
  }, 300_000);
});

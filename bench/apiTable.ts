/**
 * The bench's API section beside its floor (bench/floor.ts): the floor's three calls for autocannon, and
 * the table of every call as ours, floor, json-server, ours/floor and ours/json-server from one run.
 * Used by bench/run.ts (and the scale bench, bench/scale.ts).
 */
import type { RequestSpec } from 'autocannon';

/** One measured case: a call against a target. */
export interface LoadRow {
  case: string;
  target: string;
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  bad: number;
  /** CPU time of the server process per answered request, in µs (NaN or absent when not measured). */
  cpuUs?: number;
}

/** The parts of an autocannon result a row keeps (requests per second, latency in ms, answers). */
export interface LoadResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/**
 * One row from an autocannon result: mean requests/s, p50 and p99 latency (ms), 2xx answers, and as
 * `bad` every other answer, error and timeout.
 */
export function loadRow(kase: string, target: string, r: LoadResult, cpuUs?: number): LoadRow {
  return {
    case: kase,
    target,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    ok: r['2xx'],
    bad: r.non2xx + r.errors + r.timeouts,
    ...(cpuUs === undefined ? {} : { cpuUs }),
  };
}

/** Name of the floor target in the rows. */
export const FLOOR = 'floor (node:http)';

/**
 * Our list, search and detail calls (POST /artmanager/artwork/searchArtworkList, GET
 * /artmanager/artwork/ArtInfoByArtId), signed with `token`.
 * @param words search words, one picked per request
 * @param ids artwork ids, one picked per detail request
 */
export function ourCalls(token: string, words: string[], ids: number[]): Record<string, RequestSpec> {
  const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
  const auth = { 'X-Token': token, 'content-type': 'application/json' };
  return {
    list: {
      method: 'POST',
      path: '/artmanager/artwork/searchArtworkList',
      headers: auth,
      body: JSON.stringify({ page: 1, pageSize: 20 }),
    },
    search: {
      method: 'POST',
      path: '/artmanager/artwork/searchArtworkList',
      headers: auth,
      setupRequest: (req) => ({ ...req, body: JSON.stringify({ q: pick(words), page: 1, pageSize: 20 }) }),
    },
    detail: {
      method: 'GET',
      headers: { 'X-Token': token },
      setupRequest: (req) => ({ ...req, path: `/artmanager/artwork/ArtInfoByArtId?artId=${pick(ids)}` }),
    },
  };
}

/**
 * The floor's list, search and detail calls (bench/floor.ts), the same requests as `ourCalls`.
 * @param words search words, one picked per request
 * @param ids artwork ids, one picked per detail request
 */
export function floorCalls(words: string[], ids: number[]): Record<string, RequestSpec> {
  const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
  const json = { 'content-type': 'application/json' };
  return {
    list: { method: 'POST', path: '/list', headers: json, body: JSON.stringify({ page: 1, pageSize: 20 }) },
    search: {
      method: 'POST',
      path: '/list',
      headers: json,
      setupRequest: (req) => ({ ...req, body: JSON.stringify({ q: pick(words), page: 1, pageSize: 20 }) }),
    },
    detail: { method: 'GET', setupRequest: (req) => ({ ...req, path: `/detail?artId=${pick(ids)}` }) },
  };
}

/** `ours / other` as a percentage below 1.5× ("67%"), else as a factor ("7.6×", "310×"); "—" when missing. */
export function ratio(ours: number | undefined, other: number | undefined): string {
  if (!ours || !other) return '—';
  const r = ours / other;
  if (r < 1.5) return `${Math.round(r * 100)}%`;
  return r < 10 ? `${r.toFixed(1)}×` : `${Math.round(r)}×`;
}

/**
 * Prints, per call, req/s and p99 of ours, the floor and json-server with ours/floor and
 * ours/json-server (req/s ratios).
 * @param ours the target name of our server in `rows`
 * @param jsonServer the target name of json-server in `rows`
 */
export function printApiTable(rows: LoadRow[], ours: string, jsonServer: string): void {
  const get = (c: string, t: string) => rows.find((r) => r.case === c && r.target === t);
  const cell = (r?: LoadRow) => (r ? `${r.rps.toFixed(0)} (${r.p99})` : '—');
  const cols = ['call', 'ours req/s (p99 ms)', 'floor', 'json-server', 'ours/floor', 'ours/json-server'];
  const w = [8, 21, 16, 16, 12, 17];
  const line = (cells: string[]) =>
    console.log(cells.map((c, i) => (i ? c.padStart(w[i]) : c.padEnd(w[i]))).join(''));
  console.log('\nours against the floor and json-server (same run; req/s, p99 in ms in brackets):');
  line(cols);
  for (const c of ['list', 'search', 'detail']) {
    const [o, f, j] = [get(c, ours), get(c, FLOOR), get(c, jsonServer)];
    line([c, cell(o), cell(f), cell(j), ratio(o?.rps, f?.rps), ratio(o?.rps, j?.rps)]);
  }
  const us = (r?: LoadRow) => (r?.cpuUs !== undefined && Number.isFinite(r.cpuUs) ? r.cpuUs : undefined);
  const usCell = (r?: LoadRow) => (us(r) === undefined ? '—' : `${Math.round(us(r)!)} µs`);
  console.log(
    '\nCPU time per answered request (server process, every thread; floor/ours = ours as a share of the floor):',
  );
  line(['call', 'ours', 'floor', 'json-server', 'floor/ours', 'json-server/ours']);
  for (const c of ['list', 'search', 'detail']) {
    const [o, f, j] = [get(c, ours), get(c, FLOOR), get(c, jsonServer)];
    line([c, usCell(o), usCell(f), usCell(j), ratio(us(f), us(o)), ratio(us(j), us(o))]);
  }
}

/**
 * Shared calls of the ledger API tests (trust, ledger-edits, ledger-rotation): an app that puts each
 * record on chain in a block of its own, the put on chain call, `GET /baas-api/verify` and the
 * `npm run ledger:verify` script run as a process on a test app's database.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, expect } from 'vitest';
import { addArtwork, addAuthor, createTestApp, type TestApp } from './helpers';
import { commandArgs } from '../support/serverProcess';

const run = promisify(execFile);

/** What a put on chain answers (`data` of POST /artmanager/{kind}/blockChain). */
export interface PutResult {
  txId: string;
  blockNumber: number;
  digest: string;
  version: number;
}

/** A test app whose ledger cuts a block per transaction, at once (batch size 1, no batch timeout). */
export function blockPerTxApp(): Promise<TestApp> {
  return createTestApp({ ledgerBatchSize: 1, ledgerBatchTimeoutMs: 0 });
}

/** Puts record `id` of `kind` on chain as admin (POST /artmanager/{kind}/blockChain); asserts 200. */
export async function putOnChain(t: TestApp, kind: 'authors' | 'artwork', id: number): Promise<PutResult> {
  const r = await t.post(`/artmanager/${kind}/blockChain`, { id });
  expect(r.status).toBe(200);
  return r.body.data as PutResult;
}

/**
 * Two authors (`names.a`, `names.b`, with an introduction and `authorFields`) and an artwork of the
 * first (`names.work`), put on chain in that order (a, b, then the artwork, each in a block of its own
 * on a {@link blockPerTxApp}): their ids, the puts' answers, and `put` for more.
 */
export async function onChainScene(
  t: TestApp,
  names: { a: string; b: string; work: string },
  authorFields: Record<string, unknown> = {},
) {
  const author = (name: string) => addAuthor(t, name, { introduction: `About ${name}`, ...authorFields });
  const put = (kind: 'authors' | 'artwork', id: number) => putOnChain(t, kind, id);
  const a = await author(names.a);
  const b = await author(names.b);
  const putA = await put('authors', a);
  const putB = await put('authors', b);
  const w = await addArtwork(t, a, names.work);
  const putW = await put('artwork', w);
  return { a, b, w, putA, putB, putW, put, author };
}

/**
 * The setup of a test file whose tests each open their own app: registers an `afterEach` closing the
 * test's app and returns `open(names, authorFields)`, a new {@link blockPerTxApp} (handed to `use`, the
 * file's `t`) with its {@link onChainScene}.
 */
export function sceneSetup(use: (t: TestApp) => void) {
  let current: TestApp | undefined;
  afterEach(async () => current?.close());
  return async (names: Parameters<typeof onChainScene>[1], authorFields: Record<string, unknown> = {}) => {
    current = await blockPerTxApp();
    use(current);
    return onChainScene(current, names, authorFields);
  };
}

/** `GET /baas-api/verify` as admin; asserts 200; resolves the report (`data`). */
export async function verifyCall(t: TestApp) {
  const r = await t.get('/baas-api/verify');
  expect(r.status).toBe(200);
  return r.body.data;
}

/**
 * Runs `npm run ledger:verify` (scripts/ledger-verify.ts, with `args`) on `t`'s database: DATA_DIR and
 * DATABASE_URL of the app, then `env` (e.g. LEDGER_SIGNING_KEY, LEDGER_WITNESS_POLICY). Resolves the
 * exit code and the output (stdout then stderr).
 */
export async function ledgerVerifyScript(
  t: TestApp,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string }> {
  const vars = { DATA_DIR: t.dataDir, DATABASE_URL: t.app.config.databaseUrl ?? '', ...env };
  return ledgerVerifyProcess(vars, args);
}

/**
 * Runs `npm run ledger:verify` (its bundle or its sources: tests/support/serverProcess.ts `commandArgs`),
 * with `args` and the variables `vars` over this process's environment. Resolves the exit code and the output (stdout then stderr).
 */
export async function ledgerVerifyProcess(
  vars: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number; out: string }> {
  const env = { ...process.env, ...vars };
  try {
    const { stdout, stderr } = await run(process.execPath, commandArgs('ledger-verify', args), { env });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

/**
 * Asserts that both whole-ledger checks catch a tampering: `GET /baas-api/verify` answers `ok: false`
 * with the fields of `where` (block, transaction or record, field, found and expected values), and
 * `npm run ledger:verify` exits 1 with `scriptLine` in its output. Resolves the verify report.
 */
export async function expectVerifyFails(t: TestApp, where: Record<string, unknown>, scriptLine: string) {
  const v = await verifyCall(t);
  expect(v).toMatchObject({ ok: false, ...where });
  const script = await ledgerVerifyScript(t);
  expect(script.code).toBe(1);
  expect(script.out).toContain(scriptLine);
  return v;
}

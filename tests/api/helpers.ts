/**
 * Test helpers for `app.inject` integration tests: a fresh app on a temporary DATA_DIR (SQLite file),
 * the two seeded accounts with known passwords, and signed-in tokens.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { expect, inject } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig, type AppConfig } from '../../server/config';
import { ensureAccounts } from '../../server/plugins/app/auth';
import { databaseUrl, runPgStatement } from '../support/pgAdmin';
import { isPostgresUrl } from '../../server/db/connect';
import type { ApiTemplates } from './templateDb';

export const ADMIN_PASSWORD = 'admin-test-password';
export const USER_PASSWORD = 'user-test-password';

export interface TestApp {
  app: FastifyInstance;
  dataDir: string;
  adminToken: string;
  userToken: string;
  /** Logs `username` in with `password` (POST /dev-api/user/login): a new session's token. */
  login(username: string, password: string): Promise<string>;
  /** Injects with the admin token unless `token` is given (null: no token). */
  call(opts: InjectOptions & { token?: string | null }): Promise<{ status: number; body: any }>;
  /** `GET url`, with the admin token unless `token` is given (null: no token). */
  get(url: string, token?: string | null): Promise<{ status: number; body: any }>;
  /** `POST url` with the JSON `payload`, with the admin token unless `token` is given (null: no token). */
  post(url: string, payload?: unknown, token?: string | null): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/**
 * The run's migrated, empty databases (./templateDb.ts, the API projects' global set-up), or undefined
 * where no set-up provided them (a file run by another project's configuration).
 */
function templates(): ApiTemplates | undefined {
  try {
    return inject('apiTemplates');
  } catch {
    return undefined;
  }
}

/**
 * When `TEST_DATABASE_URL` is a PostgreSQL URL (a role allowed to create databases), every test app gets
 * a new database there, dropped on close: a copy of the run's migrated template (./templateDb.ts) when
 * there is one, else an empty one; otherwise a SQLite file in a temp DATA_DIR.
 */
async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!isPostgresUrl(admin)) return undefined;
  const name = `baas_test_${randomBytes(6).toString('hex')}`;
  const run = (text: string) => runPgStatement(admin, text);
  const template = templates()?.postgres;
  await run(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = databaseUrl(admin, name);
  // FORCE ends the database's sessions, but not an autovacuum worker that happens to be vacuuming it (a
  // superuser process the test role may not signal: SQLSTATE 42501); it finishes within moments, so retry.
  const drop = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } catch (e) {
        if ((e as { code?: string }).code !== '42501' || attempt >= 50) throw e;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  };
  return { url, drop };
}

/**
 * Builds an app on a new temp DATA_DIR (and PostgreSQL database, see above; either a copy of the run's
 * migrated template), creates the accounts and logs both in.
 */
export async function createTestApp(overrides: Partial<AppConfig> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'baas-api-'));
  const pgDb = await createPgDatabase();
  const config = {
    ...loadConfig({}),
    dataDir,
    // The signer's state file beside this app's data, not in the repository's ./data.
    ledgerKeyDir: dataDir,
    consoleDir: join(dataDir, 'no-console'),
    seed: false,
    ...(pgDb ? { databaseUrl: pgDb.url } : {}),
    ...overrides,
  };
  // SQLite in this app's own DATA_DIR: the run's migrated file (./templateDb.ts), as PostgreSQL above.
  const sqliteTemplate = templates()?.sqlite;
  if (
    sqliteTemplate &&
    !isPostgresUrl(config.databaseUrl) &&
    !config.sqliteFile &&
    config.dataDir === dataDir
  )
    copyFileSync(sqliteTemplate, join(dataDir, 'baas.sqlite'));
  const app = await buildApp(config);
  await app.ready();
  await ensureAccounts(app.db, { admin: ADMIN_PASSWORD, user: USER_PASSWORD }, () => {});
  const login = async (username: string, password: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/dev-api/user/login',
      payload: { username, password },
    });
    return res.json().data.token as string;
  };
  const adminToken = await login('admin', ADMIN_PASSWORD);
  const userToken = await login('user', USER_PASSWORD);
  const call: TestApp['call'] = async ({ token, ...opts }) => {
    const t = token === undefined ? adminToken : token;
    const res = await app.inject({
      ...opts,
      headers: { ...(opts.headers ?? {}), ...(t ? { 'x-token': t } : {}) },
    });
    return { status: res.statusCode, body: res.json() };
  };
  return {
    app,
    dataDir,
    adminToken,
    userToken,
    login,
    call,
    get: (url, token) => call({ method: 'GET', url, token }),
    post: (url, payload, token) =>
      call({ method: 'POST', url, payload: payload as InjectOptions['payload'], token }),
    close: async () => {
      await app.close();
      await pgDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A call of the API, its URL and body built when the test runs (ids known only then). */
export interface GuardedCall {
  method: 'GET' | 'POST';
  url: () => string;
  payload?: () => unknown;
}

/** `METHOD /path` of a call, for test names. */
export const callName = (c: GuardedCall) => `${c.method} ${c.url().split('?')[0]}`;

/** Asserts that `c` answers 401 without a token and 403 (naming the admin role) for role user. */
export async function expectAdminOnly(t: TestApp, c: GuardedCall): Promise<void> {
  const none = await t.call({ method: c.method, url: c.url(), payload: c.payload?.() as any, token: null });
  expect(none.status).toBe(401);
  expect(none.body).toMatchObject({ code: 401, data: null });
  const user = await t.call({
    method: c.method,
    url: c.url(),
    payload: c.payload?.() as any,
    token: t.userToken,
  });
  expect(user.status).toBe(403);
  expect(user.body.code).toBe(403);
  expect(user.body.msg).toMatch(/admin/);
}

/**
 * Adds an author named `authorName` (POST /artmanager/authors/addAuthors) as admin, with the fields of
 * `extra` too; asserts 200; resolves its id.
 */
export async function addAuthor(
  t: TestApp,
  authorName: string,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const r = await t.post('/artmanager/authors/addAuthors', { authorName, ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.id;
}

/**
 * Adds an artwork of `author` named `name` (POST /artmanager/artwork/addArtwork) as admin: a painting in
 * oil on canvas unless `extra` says otherwise; asserts 200; resolves its id.
 */
export async function addArtwork(
  t: TestApp,
  author: number,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const r = await t.post('/artmanager/artwork/addArtwork', {
    artWorkName: name,
    author,
    classify: 'painting',
    texture: 'oil on canvas',
    ...extra,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.id;
}

/**
 * A multipart/form-data body (RFC 7578) for `app.inject`: the text `fields` first, then the part
 * `file` (name "file", application/octet-stream) when given; `headers` carries its boundary.
 */
export function multipart(
  fields: Record<string, string | number>,
  file?: { bytes: Buffer; filename: string },
) {
  const boundary = `b${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat(parts),
  };
}

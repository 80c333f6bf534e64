/**
 * One door (issue 32): every write entry point, listed from the code itself, refuses bad input in the
 * envelope naming the field and writes nothing, and a good input leaves audit rows naming its actor (an
 * account, `cli:<OS user>` or `system`). The doors:
 * - the HTTP write routes: every POST/PUT/PATCH/DELETE route the app registered (`app.routeTable`,
 *   Fastify's onRoute hook); their bad bodies are derived from each route's body schema (doorInputs.ts),
 *   the multipart ones are listed in doorCases.ts with what a good call writes;
 * - the admin commands: `ADMIN_COMMANDS` (server/ops/admin.ts), run in process through `runAdmin` (as
 *   scripts/admin.ts does) and once as the real command line;
 * - the command-line tools: every `npm run` script that runs a bundle command (scripts/run-built.mjs);
 * - the start-up steps that write: `STARTUP_STEPS` (server/startup.ts).
 * A door with no case here, or a case whose door is gone, fails the first test, naming it.
 * Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConfigError } from '../../server/configError';
import type { ReportEntry } from '../../server/import/importer';
import { seedIfEmpty } from '../../server/import/seed';
import { ADMIN_COMMANDS, runAdmin } from '../../server/ops/admin';
import SQLite from 'better-sqlite3';
import { backup, restore } from '../../server/ops/backup';
import { auditRestorePostgres, restoreAuditRow } from '../../server/ops/restoreAudit';
import { postgresOrigins } from '../../server/ops/signedState';
import { ensureAccounts } from '../../server/plugins/app/auth';
import { STARTUP_STEPS } from '../../server/startup';
import { commandArgs, ROOT } from '../support/serverProcess';
import { digestOf } from '../../server/db/audit';
import { ADMIN_CASES, BAD_ROWS, CLI_CASES, tateFiles } from './doorCli';
import { chaincodeUpload, doorContext, HTTP_CASES, type HttpCase } from './doorCases';
import { badInputs } from './doorInputs';
import { createTestApp, multipart, type TestApp } from './helpers';

const DB = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const run = promisify(execFile);

/** `METHOD /url` of every write route the app registered. */
function writeRoutes(t: TestApp): string[] {
  return t.app.routeTable.flatMap((r) =>
    ([] as string[])
      .concat(r.method)
      .filter((m) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(m))
      .map((m) => `${m} ${r.url}`),
  );
}

/** The command-line tools: `npm run` scripts that run a bundle command (`run-built.mjs <name>`). */
function cliTools(): string[] {
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<
    string,
    string
  >;
  return Object.values(scripts).flatMap((s) => [...s.matchAll(/run-built\.mjs (\S+)/g)].map((m) => m[1]));
}

/** The start-up steps' cases (each checked below). */
const STARTUP_CASES = ['migrations', 'accounts', 'seed'];

let t: TestApp;
let platformToken = '';
const db = () => t.app.db as Kysely<any>;

/** Every table's rows (a digest of the database), those that change on their own left out. */
async function dbState(): Promise<string> {
  const tables = (await db().introspection.getTables())
    .map((x) => x.name)
    .filter((n) => !/^(kysely_|tokens$|platform_sessions$|rate_limit|ledger_|witness)/.test(n))
    .sort();
  const out: string[] = [];
  for (const table of tables) {
    const rows = await db().selectFrom(table).selectAll().execute();
    out.push(
      `${table}:${rows
        .map((r) => JSON.stringify(r))
        .sort()
        .join('\n')}`,
    );
  }
  return out.join('\n\n');
}
const lastAuditId = async () =>
  Number(
    (
      await db()
        .selectFrom('audit_log')
        .select((eb) => eb.fn.max('id').as('m'))
        .executeTakeFirst()
    )?.m ?? 0,
  );
const auditSince = (id: number) =>
  db().selectFrom('audit_log').selectAll().where('id', '>', id).orderBy('id').execute();

beforeAll(async () => {
  t = await createTestApp({ loginRateLimit: 10_000 });
  // A platform user's session, for the mini-program's calls (its first password is its phone number).
  await t.post('/artmanager/subjects/insertUser', { phone: '13800000009' });
  const login = await t.post(
    '/app-api/user/login',
    { account: '13800000009', password: '13800000009' },
    null,
  );
  platformToken = login.body.data.token;
}, 60_000);
afterAll(async () => t?.close());

describe(`one door: the write entry points (${DB})`, () => {
  it('every door found in the code has a case here, and every case a door', () => {
    const missing = (found: string[], cases: string[]) => found.filter((d) => !cases.includes(d));
    const doors = {
      'HTTP write routes without a case (tests/api/doorCases.ts)': missing(
        writeRoutes(t),
        Object.keys(HTTP_CASES),
      ),
      'HTTP cases without a route': missing(Object.keys(HTTP_CASES), writeRoutes(t)),
      'admin commands without a case': missing(
        ADMIN_COMMANDS.map((c) => c.name),
        Object.keys(ADMIN_CASES),
      ),
      'admin cases without a command': missing(
        Object.keys(ADMIN_CASES),
        ADMIN_COMMANDS.map((c) => c.name),
      ),
      'command-line tools without a case': missing(cliTools(), Object.keys(CLI_CASES)),
      'command-line cases without a tool': missing(Object.keys(CLI_CASES), cliTools()),
      'start-up steps without a case': missing(
        STARTUP_STEPS.map((s) => s.name),
        STARTUP_CASES,
      ),
      'start-up cases without a step': missing(
        STARTUP_CASES,
        STARTUP_STEPS.map((s) => s.name),
      ),
    };
    expect(doors).toEqual(Object.fromEntries(Object.keys(doors).map((k) => [k, []])));
    expect(writeRoutes(t).length).toBeGreaterThan(50);
  });

  it('every HTTP write route refuses bad input in the envelope naming the field, en and zh, and writes nothing', async () => {
    const resolve = (s: any): any => (s?.$ref ? t.app.getSchema(s.$ref) : s);
    const wrong: string[] = [];
    const untried: string[] = [];
    for (const door of writeRoutes(t)) {
      const [method, url] = door.split(' ');
      const c: HttpCase = HTTP_CASES[door];
      const schema = resolve(t.app.routeTable.find((r) => r.url === url)?.schema?.body);
      const token = c.token === 'none' ? null : c.token === 'platform' ? platformToken : undefined;
      const calls = [
        ...(schema ? badInputs(schema, {}, resolve) : []).map((b) => ({
          what: `${b.fault} ${b.field}`,
          field: b.field,
          opts: { payload: b.body },
        })),
        ...(c.badMultipart ?? []).map((b) => ({
          what: `multipart ${JSON.stringify(b.fields)}${b.file ? ' + a text file' : ''}`,
          field: b.field,
          opts: multipart(b.fields, b.file),
        })),
      ];
      if (!calls.length) {
        if (schema || c.writes === 'audited') untried.push(door);
        continue;
      }
      const before = await dbState();
      for (const [i, call] of calls.entries())
        for (const lang of i === 0 ? ['en', 'zh'] : ['en']) {
          const res = await t.call({
            method: method as 'POST',
            url: url + (c.query ?? ''),
            token,
            ...call.opts,
            headers: { ...('headers' in call.opts ? call.opts.headers : {}), 'accept-language': lang },
          } as never);
          const fields = (res.body?.data?.errors ?? []).map((e: { field: string }) => e.field);
          const named = res.status === 400 && res.body.code === 400 && fields.includes(call.field);
          const language = lang === 'zh' ? /[\u4e00-\u9fff]/.test(res.body.msg) : res.body.msg?.length > 0;
          if (!named || !language)
            wrong.push(
              `${door} ${call.what} (${lang}) -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`,
            );
        }
      if ((await dbState()) !== before) wrong.push(`${door}: its refused calls changed the database`);
    }
    expect(wrong).toEqual([]);
    expect(untried).toEqual([]);
  }, 60_000);

  it('a good call of every audited HTTP write leaves audit rows naming the signed-in account', async () => {
    const ctx = doorContext(t);
    const wrong: string[] = [];
    const unchecked: string[] = [];
    for (const [door, c] of Object.entries(HTTP_CASES)) {
      if (c.writes !== 'audited') continue;
      if (!c.good) {
        if (!c.elsewhere) unchecked.push(door);
        continue;
      }
      const [method, url] = door.split(' ');
      const call = await c.good(ctx);
      const from = await lastAuditId();
      const res = await t.call({
        method: method as 'POST',
        url: url + (call.query ?? ''),
        ...(call.token !== undefined ? { token: call.token } : {}),
        ...(call.multipart ?? { payload: call.payload as never }),
      });
      const rows = await auditSince(from);
      const actor = call.account ?? 'admin';
      if (res.body.code !== 0)
        wrong.push(`${door} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      else if (!rows.length || rows.some((r) => r.account !== actor && r.account !== 'system'))
        wrong.push(`${door}: audit rows ${JSON.stringify(rows.map((r) => [r.account, r.call]))}`);
      else if (!rows.some((r) => r.account === actor && r.call === door))
        wrong.push(`${door}: no audit row by ${actor} for the call (${rows.map((r) => r.call).join(', ')})`);
    }
    expect(wrong).toEqual([]);
    expect(unchecked).toEqual([]);
  }, 60_000);

  it('no write is left without an audit row: sessions, reads and staging rows each say why', () => {
    const unaudited = Object.entries(HTTP_CASES).filter(
      ([, c]) => c.writes !== 'audited' && c.writes !== 'read',
    );
    expect(unaudited.filter(([, c]) => !c.why).map(([d]) => d)).toEqual([]);
    expect(
      Object.entries(HTTP_CASES)
        .filter(([, c]) => c.writes === 'unaudited')
        .map(([d]) => d),
    ).toEqual([]);
  });

  it('every admin command refuses bad arguments in one line naming the field, writes nothing; a good one is audited as cli', async () => {
    for (const command of ADMIN_COMMANDS) {
      const c = ADMIN_CASES[command.name];
      for (const [argv, field] of c.bad) {
        const before = await dbState();
        const lines: string[] = [];
        const status = await runAdmin(db(), argv, { log: (l) => lines.push(l), error: (l) => lines.push(l) });
        expect(status, argv.join(' ')).toBe(1);
        expect(lines, argv.join(' ')).toHaveLength(1);
        expect(lines[0], argv.join(' ')).toMatch(new RegExp(`^refused: ${field.replace(/-/g, '\\-')}\\b`));
        expect(await dbState(), argv.join(' ')).toBe(before);
      }
      if (!c.good) {
        expect(command.writes).toBe(false);
        continue;
      }
      const from = await lastAuditId();
      expect(await runAdmin(db(), c.good, { log: () => {}, error: (l) => expect.fail(l) })).toBe(0);
      const rows = await auditSince(from);
      expect(rows.length, command.name).toBeGreaterThan(0);
      for (const r of rows)
        expect([r.account, r.call]).toEqual([expect.stringMatching(/^cli:/), `CLI admin ${command.name}`]);
    }
  });
});

describe(`one door: the audit rows of the ledger's and the mini-program's writes (${DB})`, () => {
  /** The audit rows of one record, oldest first. */
  const rowsOf = (resource: string, id: number) =>
    db()
      .selectFrom('audit_log')
      .selectAll()
      .where('resource', '=', resource)
      .where('recordId', '=', String(id))
      .orderBy('id')
      .execute();
  /** Each row's `before` is the previous row's `after`, and the last `after` is the stored row's digest. */
  const expectChained = (rows: Record<string, any>[], stored: unknown) => {
    expect(rows[0].before).toBeNull();
    rows.slice(1).forEach((r, i) => expect(r.before).toBe(rows[i].after));
    expect(rows[rows.length - 1].after).toBe(digestOf(stored as Record<string, unknown>));
  };

  it('chaincode upload, approve, commit: each change of the stored row has its audit row, by the calling account', async () => {
    const up = await t.call({ method: 'POST', url: '/baas-api/chaincode/upload', ...chaincodeUpload() });
    expect(up.body.code, JSON.stringify(up.body)).toBe(0);
    const id = up.body.data.id as number;
    for (const step of ['approve', 'commit'])
      expect((await t.post(`/baas-api/chaincode/${step}`, { id })).body.code).toBe(0);
    const rows = await rowsOf('chaincode', id);
    expect(rows.map((r) => [r.account, r.accountId === null, r.call])).toEqual([
      ['admin', false, 'POST /baas-api/chaincode/upload'], // the row inserted
      ['admin', false, 'POST /baas-api/chaincode/upload'], // its installation on the ledger
      ['admin', false, 'POST /baas-api/chaincode/approve'],
      ['admin', false, 'POST /baas-api/chaincode/commit'],
    ]);
    expect(rows.map((r) => JSON.parse(r.state).status)).toEqual([
      'installed',
      'installed',
      'approved',
      'committed',
    ]);
    // What each step changed (the block time, `updateTime`, may equal the previous one: left out).
    expect(rows.slice(1).map((r) => JSON.parse(r.changed).filter((c: string) => c !== 'updateTime'))).toEqual(
      [['history'], ['history', 'status'], ['history', 'status']],
    );
    expect(rows.every((r) => !('code' in JSON.parse(r.state)))).toBe(true);
    expectChained(
      rows,
      await db().selectFrom('chaincode').selectAll().where('id', '=', id).executeTakeFirst(),
    );
  });

  it("a platform user's first sign-in and password change are audited as that user; later sign-ins are not", async () => {
    const phone = '13900009999';
    expect((await t.post('/artmanager/subjects/insertUser', { phone })).body.code).toBe(0);
    const bid = await db()
      .selectFrom('bid_users')
      .select('id')
      .where('account', '=', phone)
      .executeTakeFirstOrThrow();
    const from = await lastAuditId();
    const login = await t.post('/app-api/user/login', { account: phone, password: phone }, null);
    expect(login.body.code).toBe(0);
    const platformId = login.body.data.user.id as number;
    const changed = await t.post(
      '/app-api/user/password',
      { oldPassword: phone, newPassword: 'door-platform-2' },
      login.body.data.token,
    );
    expect(changed.body.code).toBe(0);
    expect(
      (await t.post('/app-api/user/login', { account: phone, password: 'door-platform-2' }, null)).body.code,
    ).toBe(0);
    const rows = await auditSince(from);
    expect(rows.map((r) => [r.account, r.accountId, r.call, r.resource, Number(r.recordId)])).toEqual([
      [phone, null, 'POST /app-api/user/login', 'platformUsers', platformId],
      [phone, null, 'POST /app-api/user/password', 'bidUsers', bid.id],
    ]);
    expect(JSON.parse(rows[1].changed)).toEqual(['mustChangePassword', 'passwordHash']);
    expect(JSON.parse(rows[1].state)).not.toHaveProperty('passwordHash');
    // The bid user's history: its creation (by the admin), then the password change.
    expect((await rowsOf('bidUsers', bid.id)).map((r) => r.account)).toEqual(['admin', phone]);
  });
});

describe(`one door: start-up steps and command-line tools (${DB})`, () => {
  let fresh: TestApp;
  let dir: string;
  beforeAll(async () => {
    fresh = await createTestApp({ seed: false });
    dir = mkdtempSync(join(tmpdir(), 'baas-doors-'));
  }, 60_000);
  afterAll(async () => {
    await fresh?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('migrations: a second run applies nothing and writes nothing', async () => {
    const before = await dbState();
    expect(
      await STARTUP_STEPS.find((s) => s.name === 'migrations')!.run(t.app, t.app.config, () => {}),
    ).toEqual([]);
    expect(await dbState()).toBe(before);
  });

  it('accounts: a password outside the schema is refused naming its variable; the first start is audited as system', async () => {
    const before = await dbState();
    for (const admin of ['x', 'p'.repeat(300)]) {
      const err = await ensureAccounts(db(), { admin }, () => {}).catch((e: unknown) => e);
      expect(isConfigError(err)).toBe(true);
      expect((err as Error).message).toMatch(/^ADMIN_PASSWORD: /);
    }
    expect(await dbState()).toBe(before);
    const rows = await (fresh.app.db as Kysely<any>)
      .selectFrom('audit_log')
      .select(['account', 'resource'])
      .where('resource', '=', 'accounts')
      .execute();
    expect(rows).toEqual([
      { account: 'system', resource: 'accounts' },
      { account: 'system', resource: 'accounts' },
    ]);
  });

  it('seed and npm run import: bad rows are refused naming the field and not stored; each stored record is audited (system, cli)', async () => {
    const files = tateFiles(join(dir, 'seed'), BAD_ROWS);
    const reportFile = join(dir, 'seed-report.jsonl');
    const fdb = fresh.app.db as Kysely<any>;
    const summary = await seedIfEmpty(fdb, () => {}, { reportFile, files });
    expect(summary!.artworks).toMatchObject({ imported: files.good, rejected: BAD_ROWS.length });
    const report = readFileSync(reportFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ReportEntry);
    expect(report.map((r) => [r.sourceId, r.reasons.map((x) => x.field)])).toEqual(
      BAD_ROWS.map((b) => [b.acno, ['title']]),
    );
    const stored = await fdb.selectFrom('artworks').select(['id', 'sourceId']).execute();
    expect(stored.map((s) => s.sourceId)).not.toEqual(expect.arrayContaining(['T99991']));
    const audit = await fdb
      .selectFrom('audit_log')
      .selectAll()
      .where('resource', 'in', ['artworks', 'authors'])
      .execute();
    expect(audit).toHaveLength(stored.length + 1);
    for (const a of audit)
      expect([a.account, a.call, a.before]).toEqual(['system', 'first start: seed (Tate sample)', null]);
    // Its audited state is the record's History base: an edit can be reverted to it.
    const id = stored[0].id;
    const from = await lastAuditIn(fresh);
    const r = await fresh.post('/artmanager/artwork/baseInfo', { id, artWorkName: 'Edited once' });
    expect(r.body.code).toBe(0);
    expect((await auditSinceIn(fresh, from)).map((x) => x.account)).toEqual(['admin']);

    // The command line, once: its rows are audited as cli:<OS user>; the bad rows are reported.
    const more = tateFiles(
      join(dir, 'cli'),
      BAD_ROWS.map((b) => ({ ...b, acno: b.acno.replace('T9999', 'T9998') })),
      2,
    );
    // One more good row whose title has surrounding spaces and a decomposed "é" (e + U+0301).
    const TITLE = ' Cafe\u0301 au lait ';
    const rows = JSON.parse(readFileSync(more.artworksFile, 'utf8'));
    rows.push({ ...rows[0], acno: 'T99970', id: 990070, title: TITLE });
    writeFileSync(more.artworksFile, JSON.stringify(rows));
    const env = {
      ...process.env,
      DATA_DIR: fresh.dataDir,
      ...(fresh.app.config.databaseUrl ? { DATABASE_URL: fresh.app.config.databaseUrl } : {}),
    };
    const cliFrom = await lastAuditIn(fresh);
    const [imp, adm] = await Promise.all([
      run(
        process.execPath,
        commandArgs('import', [
          more.artworksFile,
          '--artists',
          more.artistsFile,
          '--report',
          join(dir, 'cli.jsonl'),
        ]),
        { env },
      ),
      run(
        process.execPath,
        commandArgs('admin', ['create-user', 'door.x', '--roles', 'user', '--nmae', 'X']),
        { env },
      ).catch((e: { code: number; stderr: string }) => e),
    ]);
    expect(imp.stdout).toMatch(
      new RegExp(`artworks: imported \\d+, rejected ${BAD_ROWS.length}, skipped \\d+`),
    );
    const cliReport = readFileSync(join(dir, 'cli.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ReportEntry);
    expect(cliReport.map((x) => x.reasons[0].field)).toEqual(BAD_ROWS.map(() => 'title'));
    const cliAudit = await auditSinceIn(fresh, cliFrom);
    expect(cliAudit.length).toBeGreaterThan(0);
    for (const a of cliAudit)
      expect([a.account, a.call]).toEqual([expect.stringMatching(/^cli:/), 'CLI import']);
    expect((adm as { code: number }).code).toBe(1);
    expect(
      String((adm as { stderr: string }).stderr)
        .trim()
        .split('\n'),
    ).toEqual([expect.stringMatching(/^refused: --nmae: not an option of create-user/)]);

    // The same title imported and sent through the API is stored identically: trimmed, NFC.
    const viaApi = await fresh.post('/artmanager/artwork/addArtwork', {
      artWorkName: TITLE,
      author: (await fdb.selectFrom('authors').select('id').executeTakeFirstOrThrow()).id,
      classify: 'painting',
      texture: 'oil',
    });
    expect(viaApi.body.code, JSON.stringify(viaApi.body)).toBe(0);
    const names = await fdb
      .selectFrom('artworks')
      .select(['sourceId', 'artWorkName'])
      .where((eb) => eb.or([eb('sourceId', '=', 'T99970'), eb('id', '=', viaApi.body.data.id)]))
      .orderBy('id')
      .execute();
    expect(names.map((x) => x.artWorkName)).toEqual(['Caf\u00e9 au lait', 'Caf\u00e9 au lait']);
  }, 60_000);

  it('restore: a tampered backup is refused and DATA_DIR stays empty', () => {
    const backupDir = join(dir, 'backup');
    mkdirSync(backupDir);
    writeFileSync(join(backupDir, 'baas.sqlite'), 'tampered');
    writeFileSync(
      join(backupDir, 'manifest.json'),
      JSON.stringify({
        format: 1,
        createdAt: new Date().toISOString(),
        database: 'sqlite',
        files: [{ path: 'baas.sqlite', bytes: 8, sha256: '0'.repeat(64) }],
      }),
    );
    const target = join(dir, 'restored');
    expect(() => restore(backupDir, target)).toThrow(/baas\.sqlite/);
    expect(() => readFileSync(join(target, 'baas.sqlite'))).toThrow();
  });

  it('npm run restore: the restored database gets one audit row, by cli, naming the backup', async () => {
    const url = fresh.app.config.databaseUrl;
    const backupDir = join(dir, 'good-backup');
    const manifest = await backup(
      fresh.dataDir,
      backupDir,
      url ? 'postgresql' : 'sqlite',
      url ? { databaseOrigins: await postgresOrigins(url) } : {},
    );
    expect(manifest.origins!.length).toBeGreaterThan(0);
    const from = await lastAuditIn(fresh);
    const target = join(dir, 'restored-good');
    const r = await run(process.execPath, commandArgs('restore', [backupDir]), {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: target,
        LEDGER_KEY_DIR: join(dir, 'restored-keys'),
        DATABASE_URL: url ?? '',
        LEDGER_ORIGIN: '',
        NODE_ENV: '',
        SCRYPT_COST: '', // the test run's cheap cost is refused outside a test run
      },
    });
    expect(r.stdout).toContain("the restore is recorded in the restored database's audit trail");
    // PostgreSQL: the database pg_restore restored (here: the one backed up); SQLite: the restored file.
    let rows: Record<string, any>[];
    if (url) rows = await auditSinceIn(fresh, from);
    else {
      const restored = new SQLite(join(target, 'baas.sqlite'), { readonly: true });
      rows = restored.prepare('select * from audit_log where id > ? order by id').all(from) as never;
      restored.close();
    }
    expect(rows.map((x) => [x.account, x.accountId, x.call, x.resource, x.recordId, x.before])).toEqual([
      [
        expect.stringMatching(/^cli:/),
        null,
        `npm run restore ${backupDir}`,
        'database',
        manifest.createdAt,
        null,
      ],
    ]);
    expect(JSON.parse(rows[0].state)).toEqual({
      backup: backupDir,
      createdAt: manifest.createdAt,
      database: manifest.database,
      files: manifest.files.length,
      bytes: manifest.files.reduce((n, f) => n + f.bytes, 0),
    });
    expect(rows[0].after).toBe(digestOf(JSON.parse(rows[0].state)));
    if (!url) return;
    // A DATABASE_URL naming a database of another log (not the restored one) gets no row.
    const other = t.app.config.databaseUrl!;
    const before = await lastAuditId();
    expect(await auditRestorePostgres(other, manifest, restoreAuditRow(backupDir, manifest))).toMatch(
      /not the restored database/,
    );
    expect(await lastAuditId()).toBe(before);
  }, 60_000);
});

const lastAuditIn = async (app: TestApp) =>
  Number(
    (
      await (app.app.db as Kysely<any>)
        .selectFrom('audit_log')
        .select((eb) => eb.fn.max('id').as('m'))
        .executeTakeFirst()
    )?.m ?? 0,
  );
const auditSinceIn = (app: TestApp, id: number) =>
  (app.app.db as Kysely<any>)
    .selectFrom('audit_log')
    .selectAll()
    .where('id', '>', id)
    .orderBy('id')
    .execute();

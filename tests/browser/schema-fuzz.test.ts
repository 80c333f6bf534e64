/**
 * Schema fuzzing (issue 18 item 5): resource schemas generated within the kernel's dialect
 * (tests/support/schemaArbitraries.ts: every type, format and keyword, references to authors, random
 * names, labels, x-ui, roles and menu groups) are added together to ONE copy of the repository, and
 * ONE `codegen` run must make each of them a working resource with no hand-written line:
 * - codegen succeeds and writes a migration creating every table; the migrations apply on SQLite and on
 *   PostgreSQL (a server starts on each; PostgreSQL from TEST_DATABASE_URL, else
 *   scripts/postgres-test-db.sh, skipped when neither gives one);
 * - the OpenAPI document validates (@seriousme/openapi-schema-validator) and has each schema's calls;
 * - on each database, valid records round-trip, update one field, list with filter and sort, delete, and
 *   invalid bodies are refused naming the field in English and Chinese (tests/support/schemaFuzzApi.ts);
 * - in Chromium, each resource's list, show, edit and create pages render and save, with no page error.
 *
 * CI runs `FUZZ_SCHEMAS` (default 4) schemas from seed `FUZZ_SEED` (default 18): between them they hold
 * every keyword and value shape of schemas/meta.schema.json (tests/unit/schema-fuzz-coverage.test.ts),
 * written as generated (nothing stripped); e.g.
 * `FUZZ_SCHEMAS=30 FUZZ_SEED=7 npx vitest run --project browser tests/browser/schema-fuzz.test.ts`
 * runs more; `FUZZ_ONLY=<name>,...` keeps only those of the sample (to replay a failure). The closing log
 * line gives the number of schemas and of failing checks.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { Envelope } from '../../common/envelope';
import fc from 'fast-check';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedFiles, copyRepository, fingerprints, runIn, scratchPostgres } from '../support/repoCopy';
import { derefIn, recordArbitrary, withDefaults, writable } from '../support/recordArbitraries';
import { CI_SAMPLE, sampleSchemas } from '../support/schemaArbitraries';
import { call, checkResourceApi, touchedByWrites, type ApiTarget } from '../support/schemaFuzzApi';
import { ROOT, startServerProcess, type ServerProcess } from '../support/serverProcess';
import { CHROMIUM, CHROMIUM_ARGS, STILL } from './helpers/env';
import { ConsolePage } from './pages/ConsolePage';
import { LoginPage } from './pages/LoginPage';

type Json = Record<string, any>;

const COUNT = Number(process.env.FUZZ_SCHEMAS ?? CI_SAMPLE.count);
const SEED = Number(process.env.FUZZ_SEED ?? CI_SAMPLE.seed);
/** `FUZZ_ONLY=fzShelfVenue4,...`: only these of the sampled schemas (to replay one failure). */
const ONLY = process.env.FUZZ_ONLY?.split(',').filter(Boolean);
// The CI sample (no FUZZ_SCHEMAS/FUZZ_SEED) keeps its small pages (CI_SAMPLE.maxExtra); a chosen run draws more.
const MAX_EXTRA = process.env.FUZZ_SCHEMAS || process.env.FUZZ_SEED ? 4 : CI_SAMPLE.maxExtra;
// Written whole: every keyword the generator draws is served by the kernel (issue 33).
const sampled = sampleSchemas(COUNT, SEED, undefined, MAX_EXTRA);
const fuzzed = sampled.filter((s) => !ONLY || ONLY.includes(s.$id));
/** A schema's place among all sampled: its records' seed, so that `FUZZ_ONLY` replays the same records. */
const indexOf = (s: (typeof sampled)[number]) => sampled.indexOf(s);
const passwords = { ADMIN_PASSWORD: 'Admin-pass-for-fuzz-1', USER_PASSWORD: 'User-pass-for-fuzz-1' };

interface Backend {
  server: ServerProcess;
  target: ApiTarget;
  refIds: Record<string, number[]>;
  drop?: () => Promise<void>;
}

let work: string;
let tree: string;
let codegenError: string | undefined;
let written: string[] = [];
const backends: Partial<Record<'sqlite' | 'postgres', Backend>> = {};
let pgUrl: string | undefined;
let browser: Browser | undefined;
let context: BrowserContext | undefined;
const failures: string[] = [];

/** An admin PostgreSQL URL: TEST_DATABASE_URL, else the local cluster of scripts/postgres-test-db.sh. */
function postgresUrl(): string | undefined {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
  try {
    return execFileSync('bash', ['scripts/postgres-test-db.sh'], { cwd: ROOT, stdio: 'pipe' })
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}

/** Starts the copy's server on `db`, signs the admin in and creates an author to reference. */
async function startBackend(db: 'sqlite' | 'postgres', consoleDir: string): Promise<Backend> {
  const pgDb = db === 'postgres' ? await scratchPostgres(pgUrl) : undefined;
  const server = await startServerProcess({
    root: tree,
    dataDir: join(work, `data-${db}`),
    env: { CONSOLE_DIR: consoleDir, ...passwords, ...(pgDb ? { DATABASE_URL: pgDb.url } : {}) },
  });
  const login = await fetch(`${server.url}/dev-api/user/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: passwords.ADMIN_PASSWORD }),
  });
  const target = { url: server.url, token: ((await login.json()) as Envelope<{ token: string }>).data.token };
  const author = await call(target, 'POST', '/artmanager/authors/addAuthors', { authorName: 'Fuzz, Author' });
  if (author.status !== 200) throw new Error(`cannot create an author: ${JSON.stringify(author.body)}`);
  // a contract template whose parameters schema the x-schemaFrom fields follow
  const template = await call(target, 'POST', '/medicine-api/smContract/addTemplate', {
    name: 'Fuzz template',
    chaincode: 'fuzz',
    paramsSchema: {
      type: 'object',
      properties: { note: { type: 'string', maxLength: 60, 'x-i18n': { en: 'Note', zh: '备注' } } },
      additionalProperties: false,
    },
  });
  if (template.status !== 200) throw new Error(`cannot create a template: ${JSON.stringify(template.body)}`);
  return {
    server,
    target,
    refIds: { authors: [author.body.data.id], contractTemplates: [template.body.data.id] },
    drop: pgDb?.drop,
  };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'baas-schema-fuzz-'));
  tree = join(work, 'tree');
  mkdirSync(tree);
  copyRepository(tree);
  const before = fingerprints(tree);
  for (const s of fuzzed)
    writeFileSync(join(tree, 'schemas', `${s.$id}.schema.json`), `${JSON.stringify(s, null, 2)}\n`);
  try {
    runIn(tree, 'scripts/codegen.ts');
  } catch (e) {
    codegenError = String(e);
    return;
  }
  written = changedFiles(tree, before);
  const consoleDir = join(work, 'console');
  await build({ root: tree, logLevel: 'warn', build: { outDir: consoleDir, emptyOutDir: true } });
  backends.sqlite = await startBackend('sqlite', consoleDir);
  pgUrl = postgresUrl();
  if (pgUrl) backends.postgres = await startBackend('postgres', consoleDir);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  context = await browser.newContext({ ...STILL, viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  await new LoginPage(page, backends.sqlite.server.url).open();
  await new LoginPage(page, backends.sqlite.server.url).login('admin', passwords.ADMIN_PASSWORD);
  await page.close();
  // copy, codegen, console build and two servers: minutes on a loaded machine
}, 1_200_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  for (const b of Object.values(backends)) {
    await b.server.stop();
    await b.drop?.().catch(() => undefined);
  }
  // a 5xx is the server's defect: its logged errors, to find the cause
  if (failures.some((f) => / 5\d\d /.test(f)))
    for (const [db, b] of Object.entries(backends))
      console.log(
        `${db} server errors:\n${b.server
          .output()
          .split('\n')
          .filter((l) => /"level":50|Error/.test(l))
          .slice(-6)
          .join('\n')
          .slice(0, 4000)}`,
      );
  if (work) rmSync(work, { recursive: true, force: true });
  console.log(
    `schema fuzz: ${fuzzed.length} schemas (seed ${SEED}), databases ${Object.keys(backends).join(' and ') || 'none (set-up failed)'}, ${failures.length} failing checks${failures.length ? `:\n${failures.join('\n')}` : ''}`,
  );
});

/**
 * `v`, a value of `raw` prefilled in a create form, as the form saves it: a boolean the record lacks in a
 * nested object or a list's object (an input the form shows) is `false` (react-admin's BooleanInput starts
 * there: a switch has no empty state); then the schema's defaults (recordArbitraries.ts `withDefaults`).
 */
function savedByForm(defs: Json, v: unknown, raw: Json): unknown {
  const fill = (value: unknown, node: Json): unknown => {
    const d = derefIn(defs, node ?? {});
    if (Array.isArray(value)) return d.items ? value.map((x) => fill(x, d.items)) : value;
    if (!value || typeof value !== 'object' || !d.properties || d['x-ui']?.widget) return value;
    const out: Json = { ...(value as Json) };
    for (const [n, sub] of Object.entries<Json>(d.properties)) {
      const sd = derefIn(defs, sub);
      const boolean =
        !sd.enum && !sd['x-ui']?.widget && ([] as string[]).concat(sd.type ?? []).join() === 'boolean';
      if (out[n] === undefined && boolean) out[n] = false;
      else if (out[n] !== undefined) out[n] = fill(out[n], sd);
    }
    return out;
  };
  return withDefaults(defs, fill(v, raw), raw);
}

/** JSON with every object's keys sorted: the same value whatever order its keys were added in. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1)))
      : x,
  );

/** Records the problems of a check for the closing summary, then asserts there are none. */
function expectNone(problems: string[]): void {
  failures.push(...problems);
  expect(problems).toEqual([]);
}

describe(`${fuzzed.length} generated schemas (seed ${SEED}) in one copy of the repository`, () => {
  it('codegen succeeds and writes one migration creating every table', () => {
    if (codegenError) failures.push(`codegen: ${codegenError.slice(0, 2000)}`);
    expect(codegenError).toBeUndefined();
    const migrations = written.filter((f) => /^server\/db\/migrations\/\d.*\.ts$/.test(f));
    expect(migrations.length, written.join('\n')).toBe(1);
    const text = readFileSync(join(tree, migrations[0]), 'utf8');
    for (const s of fuzzed) expect(text).toContain(s['x-storage'].table);
  });

  it('the migrations apply on SQLite and PostgreSQL: every list call answers', async () => {
    expect(backends.sqlite).toBeDefined();
    for (const b of Object.values(backends))
      for (const s of fuzzed) {
        const r = await call(b.target, 'GET', `${s['x-endpoints'].getList.path}?page=1&pageSize=5`);
        expect(r.status, `${s['x-resource'].name} ${JSON.stringify(r.body)}`).toBe(200);
      }
  });

  it('the OpenAPI document validates and documents every call of every schema', async () => {
    const r = await call(backends.sqlite!.target, 'GET', '/dev-api/openapi.json');
    const doc = r.body as unknown as { paths: Record<string, Record<string, unknown>> };
    const validator = new Validator();
    const res = await validator.validate(doc as never);
    expect(res.errors ?? []).toEqual([]);
    for (const s of fuzzed)
      for (const e of Object.entries<Json>(s['x-endpoints']).flatMap(([verb, e]) =>
        verb === 'getManyReference' ? Object.values<Json>(e) : [e],
      ))
        expect(doc.paths[e.path]?.[e.method.toLowerCase()], `${e.method} ${e.path}`).toBeTruthy();
  });

  for (const db of ['sqlite', 'postgres'] as const)
    describe(`the API on ${db}`, () => {
      for (const s of fuzzed)
        it(`${s['x-resource'].name}: round trip, update one field, list, delete, refusals in en and zh`, async (ctx) => {
          const b = backends[db];
          if (!b && db === 'postgres' && !codegenError) return ctx.skip();
          expect(b, 'the server started').toBeDefined();
          expectNone(await checkResourceApi(b!.target, s, b!.refIds, SEED * 1000 + indexOf(s)));
        });
    });

  describe('Chromium', () => {
    // a hidden resource (x-resource.hidden) has no pages of its own: its API is checked above
    for (const s of fuzzed.filter((x) => !x['x-resource'].hidden))
      it(`${s['x-resource'].name}: list, show, edit and create pages render and save`, async () => {
        const b = backends.sqlite!;
        const name = s['x-resource'].name as string;
        const ep = s['x-endpoints'];
        const page = await context!.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(String(e)));
        const ui = new ConsolePage(page, b.server.url);
        const problems: string[] = [];
        let step = 'create by API';
        try {
          const [record, other] = fc.sample(recordArbitrary(s, b.refIds), {
            numRuns: 2,
            seed: SEED + indexOf(s),
          });
          const created = await call(b.target, 'POST', ep.create.path, record);
          expect(created.status, JSON.stringify(created.body)).toBe(200);
          const id = created.body.data.id as number;
          step = 'list';
          await ui.goto(s['x-resource'].path);
          await ui
            .rows()
            .filter({ hasText: String(record.title) })
            .first()
            .waitFor();
          step = 'show';
          await ui.goto(`/${name}/${id}/show`);
          await page.getByText(String(record.title)).first().waitFor();
          // edit: change the title through the form, everything else read back unchanged
          const before = (await call(b.target, 'GET', `${ep.getOne.path}?id=${id}`)).body.data as Json;
          step = 'edit';
          await ui.goto(`/${name}/${id}`);
          await ui.input('title').fill(`${record.title} edited`);
          await ui.save();
          await page.waitForURL(new RegExp(`#/${name}/${id}/show`));
          const after = (await call(b.target, 'GET', `${ep.getOne.path}?id=${id}`)).body.data as Json;
          if (after.title !== `${record.title} edited`) problems.push(`edit: title read ${after.title}`);
          const touched = touchedByWrites(s);
          // (a nested boolean the record lacks is saved as the form shows it: false, savedByForm)
          const props: Json = s.properties;
          for (const k of Object.keys(before))
            if (
              k !== 'title' &&
              !touched.has(k) &&
              canonical(after[k]) !==
                canonical(props[k] ? savedByForm(s.definitions ?? {}, before[k], props[k]) : before[k])
            )
              problems.push(
                `edit: ${k} changed from ${JSON.stringify(before[k])} to ${JSON.stringify(after[k])}`,
              );
          // create: the form prefilled with a valid record (react-admin's `?source=`), saved as it is
          step = 'create';
          await ui.goto(`/${name}/create?source=${encodeURIComponent(JSON.stringify(other))}`);
          await ui.input('title').waitFor();
          await ui.save();
          await page.waitForURL(new RegExp(`#/${name}/\\d+/show`));
          const made = (await call(b.target, 'GET', `${ep.getOne.path}?id=${ui.currentId()}`)).body
            .data as Json;
          // an absent property of a nested object gets its schema's default, an absent boolean the
          // form's false (savedByForm)
          for (const [k, p] of writable(s))
            if (
              !p.writeOnly &&
              other[k] !== undefined &&
              canonical(made[k]) !== canonical(savedByForm(s.definitions ?? {}, other[k], p))
            )
              problems.push(
                `create: ${k} sent ${JSON.stringify(other[k])}, stored ${JSON.stringify(made[k])}`,
              );
        } catch (e) {
          // which page, and the form's error texts if it refused to save
          const shown = await page
            .locator('.Mui-error')
            .allInnerTexts()
            .catch(() => []);
          problems.push(
            `${step}: ${String(e).split('\n')[0]} ${shown.length ? `(errors shown: ${shown.join(' | ')})` : ''}`,
          );
        } finally {
          await page.close();
        }
        expectNone(
          [...problems, ...errors.map((e) => `page error: ${e}`)].map((p) => `${name} Chromium ${p}`),
        );
      });
  });
});

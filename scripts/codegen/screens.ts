/**
 * `docs/screens-and-calls.md`: the table of issue 8 ("Every screen the product describes, working"):
 * every screen of the console and every call of the server, each with its status, built from what the
 * code registers, never from a list kept by hand:
 * - calls: every operation of the app's OpenAPI document (the routes Fastify registered, built in memory
 *   as scripts/codegen/openapi.ts does), each ASKED once with the admin token and an empty input
 *   (`probeCall`): "answers" (200, envelope code 0), "answers; empty input refused naming `f`" (400
 *   naming the input), anything else is written as BROKEN with the status and message;
 * - screens: every route of the console's route tree (src/shell/routes.ts: the hand-written routes and
 *   every schema's `x-resource` routes), a record page's tabs folded into its row: "screen" (it names a
 *   component), "titled page" (a leaf without a screen: the "not available yet" page), "forwards to";
 * - the screens and calls the issue text names (`ISSUE_8` below, by path): one the code lacks is listed
 *   as "missing"; a named section the product itself leaves empty is expected to be a titled page.
 *
 * A schema, route or call added by anyone shows up at the next `npm run docs:screens` (scripts/docs-screens.ts);
 * `--check` fails on a stale table (tests/unit/screens-doc.test.ts runs the same comparison), and
 * tests/api/screens-and-calls.test.ts asks the server again for every call of the table (SQLite and PostgreSQL).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import prettier from 'prettier';
import { withMemoryApp } from './memoryApp';
import { operations } from './openapi';

type Json = Record<string, any>;

/** Where the table is written, relative to the project root. */
export const SCREENS_DOC = 'docs/screens-and-calls.md';

// ------------------------------------------------------------------------------------------ the issue

/** The issue's parts (its "What to build" headings), in its order. */
export const SECTIONS = [
  'Accounts, roles, password',
  'Art registry',
  'Medicine',
  'Data, audit, chain',
] as const;
/** Screens and calls outside issue 8 (login, ledger trust, the shell's own pages). */
export const OTHER = 'Other (not issue 8)';
type Section = (typeof SECTIONS)[number] | typeof OTHER;

/** A screen the issue names: its product path, or the resource whose list it is (shared names). */
interface NamedScreen {
  section: Section;
  what: string;
  paths: string[];
  resources?: string[];
  /** The product leaves the section empty: a titled page is what is expected. */
  empty?: boolean;
}

/**
 * What the text of issue 8 names ("What to build"): the calls by `METHOD path` and the screens by
 * product path or resource name. Rows not named here still appear (everything registered is listed);
 * this list only makes an absent one show as "missing".
 */
export const ISSUE_8 = {
  calls: [
    ...['GET /dev-api/user/list'].map((c) => ({ section: SECTIONS[0], call: c })),
    ...['add', 'update', 'delete', 'addAuth', 'delAuth', 'password'].map((v) => ({
      section: SECTIONS[0],
      call: `POST /dev-api/user/${v}`,
    })),
    ...[
      'POST /artmanager/authors/addHeadPic',
      'POST /artmanager/authors/createWx',
      'POST /artmanager/artwork/addPicture',
      'POST /artmanager/artwork/deletePicture',
      'POST /artmanager/artwork/ArtCertificate',
      'POST /artmanager/artwork/ArtSecurity',
      'POST /artmanager/artwork/ArtOther',
      'GET /artmanager/artwork/searchUserId',
      'POST /artmanager/subjects/insertUser',
      'GET /artmanager/subjects/getUserList',
      'GET /artmanager/subjects/artworkListByCurrentUserId',
      'POST /artmanager/subjects/searchUserList',
      'POST /artmanager/admin/user/selectPageUser',
      'POST /artmanager/admin/user/getUerById',
      'POST /artmanager/traceability/addTraceabilityCert',
      'GET /artmanager/oss/dir',
      'GET /artmanager/oss/dir/{*}',
      'POST /artmanager/oss/sign',
    ].map((c) => ({ section: SECTIONS[1], call: c })),
    { section: SECTIONS[3], call: 'GET /dev-api/audit/list' },
  ] as { section: Section; call: string }[],
  screens: [
    { section: SECTIONS[0], what: 'Permission → User', paths: ['/permission/user'], resources: ['accounts'] },
    { section: SECTIONS[0], what: 'Permission → Role', paths: ['/permission/role'] },
    { section: SECTIONS[0], what: 'Set → Password', paths: ['/set/password'] },
    {
      section: SECTIONS[0],
      what: 'Permission → Notifications',
      paths: ['/permission/notifications'],
    },
    { section: SECTIONS[1], what: 'Authors', paths: ['/industry/authors'], resources: ['authors'] },
    { section: SECTIONS[1], what: 'Artworks', paths: ['/industry/artWork'], resources: ['artworks'] },
    { section: SECTIONS[1], what: 'Bid users', paths: ['/industry/bidUser'], resources: ['bidUsers'] },
    {
      section: SECTIONS[1],
      what: 'Platform users',
      paths: ['/industry/users'],
      resources: ['platformUsers'],
    },
    { section: SECTIONS[2], what: 'Companies', paths: ['/medicine/companies'], resources: ['companies'] },
    {
      section: SECTIONS[2],
      what: 'Smart-contract templates',
      paths: [],
      resources: ['contractTemplates'],
    },
    { section: SECTIONS[2], what: 'Add smart contract', paths: ['/smContract/add'] },
    {
      section: SECTIONS[2],
      what: 'Notifications',
      paths: ['/medicine/notification'],
      resources: ['notifications'],
    },
    { section: SECTIONS[2], what: 'Messages', paths: ['/medicine/messages'] },
    { section: SECTIONS[2], what: 'Tracking', paths: ['/medicine/tacking'] },
    { section: SECTIONS[3], what: 'Data → Contracts', paths: ['/data/contract'], resources: ['contracts'] },
    { section: SECTIONS[3], what: 'New contract', paths: ['/contract/new'] },
    { section: SECTIONS[3], what: 'Data → Pigeonhole', paths: ['/data/pigeonhole'] },
    { section: SECTIONS[3], what: 'Audit → System', paths: ['/audit/system'], resources: ['auditEntries'] },
    { section: SECTIONS[3], what: 'Blockchain → Fabric (chains, channels)', paths: ['/baas/fabric'] },
    { section: SECTIONS[3], what: 'Chaincode', paths: ['/baas/chainCode'] },
    ...(
      [
        ['Agriculture', ['/agriculture']],
        ['Measure', ['/measure/emendation', '/measure/cut', '/measure/recover']],
        ['Interflow', ['/interflow/isomorphism', '/interflow/communication', '/interflow/cooperation']],
        ['Support', ['/support']],
        ['Billing', ['/billing/page', '/billing/cycle']],
        ['Vessel', ['/vessel/k8s', '/vessel/docker']],
        ['qkCorrelation', ['/set/qkCorrelation']],
        ['Secret', ['/set/secret']],
        ['Protect', ['/protect/consensus', '/protect/account']],
        ['Ethereum', ['/baas/etherUme']],
        ['Beijing Chain', ['/baas/BeijingChain']],
      ] as const
    ).map(([what, paths]) => ({ section: SECTIONS[3], what, paths: [...paths], empty: true })),
  ] as NamedScreen[],
};

// ------------------------------------------------------------------------------------------ sections

/** The issue part of a menu group (`x-resource.group` or a route's top-level path). */
const GROUP_SECTION: [RegExp, Section][] = [
  [/^\/(permission|set\/password)/, SECTIONS[0]],
  [/^\/industry/, SECTIONS[1]],
  [/^\/(medicine|smContract|companies)/, SECTIONS[2]],
  [
    /^\/(data|contract|audit|baas|agriculture|measure|interflow|support|billing|vessel|set|protect)/,
    SECTIONS[3],
  ],
];

/** The issue part of a call, by URL (hand-written calls) after its resource's group (schema calls). */
const PATH_SECTION: [RegExp, Section][] = [
  [/^\/dev-api\/user\//, SECTIONS[0]],
  [/^\/(artmanager|app-api)\//, SECTIONS[1]],
  [/^\/medicine-api\//, SECTIONS[2]],
  [/^\/baas-api\/(public|witness)/, OTHER],
  [/^\/(baas-api|data-api|dev-api\/audit)\//, SECTIONS[3]],
];

const first = <T>(rules: [RegExp, T][], text: string, fallback: T): T =>
  rules.find(([re]) => re.test(text))?.[1] ?? fallback;

// Probing a call (what it answers to an empty input, and its status in the table): ./screensProbe.ts.
export {
  isAnswering,
  PLATFORM_USER,
  probeCall,
  probeStatus,
  probeUrl,
  type ProbeResult,
} from './screensProbe';
import { PLATFORM_USER, probeCall, probeStatus } from './screensProbe';

// ------------------------------------------------------------------------------------------ the console

interface ScreenRow {
  section: Section;
  path: string;
  title: string;
  titleZh: string;
  reached: string;
  roles: string;
  renders: string;
  tabs: string[];
  status: string;
  named: string;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A translate function over the console's messages (shell titles and the generated resource labels). */
function translator(messages: Json): Translate {
  return (key, options = {}) => {
    let v: unknown = messages;
    for (const part of key.split('.')) v = (v as Json | undefined)?.[part];
    if (typeof v !== 'string') return key;
    const forms = v.split('||||').map((s) => s.trim());
    let text = forms[options.smart_count === 1 || forms.length === 1 ? 0 : 1];
    for (const [k, val] of Object.entries(options)) text = text.replace(`%{${k}}`, String(val));
    return text;
  };
}

/** Every screen of the console's route tree (see the module docstring), sorted by section and path. */
async function consoleScreens(): Promise<ScreenRow[]> {
  const { allRoutes } = await import('../../src/shell/routes');
  const { flattenRoutes } = await import('../../src/shell/router');
  const { routeTitle } = await import('../../src/layout/routeTitle');
  const shellMessages = {
    en: (await import('../../src/layout/i18n')).en,
    zh: (await import('../../src/layout/i18n.zh')).zh,
  };
  const { generatedMessages } = await import('../../src/generated/messages');
  const t = {
    en: translator({ shell: shellMessages.en.shell, resources: generatedMessages.en }),
    zh: translator({ shell: shellMessages.zh.shell, resources: generatedMessages.zh }),
  };
  const flat = flattenRoutes(allRoutes);
  const rows = new Map<string, ScreenRow>();
  for (const f of flat) {
    const r = f.route;
    if (r.public || /^\/(redirect|404|401)\b/.test(f.fullPath)) continue;
    // A menu group: its children are the screens.
    if (r.children?.length && !r.screen) continue;
    if (r.meta?.tabOf) {
      const page = rows.get(r.meta.tabOf);
      const tab = f.fullPath.slice(r.meta.tabOf.length + 1);
      if (page && !page.tabs.includes(tab)) page.tabs.push(tab);
      continue;
    }
    const roles = [...new Set(f.chain.flatMap((c) => c.meta?.roles ?? []))];
    // A page opened to more roles at a second place (src/shell/resourceRoutes.ts `openedRecordPages`) is
    // one screen: its roles are added to the first's.
    const seen = rows.get(f.fullPath);
    if (seen) {
      seen.roles = [...new Set([...seen.roles.split(', '), ...roles])].join(', ');
      continue;
    }
    const title = r.meta?.title ?? f.chain.findLast((c) => c.meta?.title)?.meta?.title ?? '';
    const renders = r.screen
      ? 'resource' in r.screen
        ? `${r.screen.resource} ${r.screen.view}`
        : r.screen.page
      : r.redirect
        ? `forwards to ${r.redirect}`
        : 'titled page';
    rows.set(f.fullPath, {
      // A detail page or a forwarder belongs where its menu entry or target is.
      section: first(
        GROUP_SECTION,
        r.meta?.activeMenu ?? (r.redirect?.startsWith('/') ? r.redirect : f.fullPath),
        OTHER,
      ),
      path: f.fullPath,
      title: title ? routeTitle(t.en, title) : '',
      titleZh: title ? routeTitle(t.zh, title) : '',
      reached: r.hidden ? (r.meta?.activeMenu ? `from ${r.meta.activeMenu}` : 'link') : 'sidebar',
      roles: roles.length ? roles.join(', ') : 'signed in',
      renders,
      tabs: [],
      status: r.screen ? 'done' : r.redirect ? 'done (forwards)' : 'not built (titled page)',
      named: '',
    });
  }
  // The issue's named screens: mark them, expect a titled page for the sections the product leaves empty,
  // and list the ones without any route as missing.
  const resourceList = (name: string) => [...rows.values()].find((row) => row.renders === `${name} list`);
  for (const s of ISSUE_8.screens) {
    const found = [...s.paths.map((p) => rows.get(p)), ...(s.resources ?? []).map(resourceList)].filter(
      (x): x is ScreenRow => !!x,
    );
    for (const row of found) {
      row.named = s.what;
      row.section = s.section;
      if (s.empty && row.renders === 'titled page') row.status = 'done (the product leaves it empty)';
    }
    if (!found.length)
      rows.set(s.paths[0] ?? `(${s.resources?.join(', ')})`, {
        section: s.section,
        path: s.paths[0] ?? '—',
        title: s.what,
        titleZh: '',
        reached: '—',
        roles: '—',
        renders: '—',
        tabs: [],
        status: 'MISSING: no route',
        named: s.what,
      });
  }
  return sortRows([...rows.values()]);
}

const sectionOrder = (s: Section) => (s === OTHER ? SECTIONS.length : SECTIONS.indexOf(s));
const sortRows = <T extends { section: Section; path: string }>(rows: T[]) =>
  rows.sort((a, b) => sectionOrder(a.section) - sectionOrder(b.section) || a.path.localeCompare(b.path));

// ------------------------------------------------------------------------------------------ the server

interface CallRow {
  section: Section;
  method: string;
  path: string;
  what: string;
  roles: string;
  input: string;
  status: string;
  named: boolean;
}

/** Who may call: from the operation's security requirement (server/plugins/external/swagger.ts). */
function rolesText(op: Json): string {
  const reqs: Json[] = op.security ?? [];
  if (!reqs.length) return 'anyone';
  if (reqs.some((r) => 'platformToken' in r)) return PLATFORM_USER;
  const roles = [...new Set(reqs.flatMap((r) => Object.values<string[]>(r).flat()))];
  return roles.length ? roles.join(', ') : 'signed in';
}

/** An app built in memory with the two accounts; its OpenAPI document and an admin token. */
async function withApp<T>(fn: (app: FastifyInstance, doc: Json, login: () => Promise<string>) => Promise<T>) {
  const { ensureAccounts } = await import('../../server/plugins/app/auth');
  const password = randomBytes(12).toString('hex');
  return withMemoryApp(
    'baas-screens-',
    async (app) => {
      await ensureAccounts(app.db, { admin: password, user: `${password}u` }, () => {});
      const login = async () =>
        (
          await app.inject({
            method: 'POST',
            url: '/dev-api/user/login',
            payload: { username: 'admin', password },
          })
        ).json().data.token as string;
      return fn(app, structuredClone(app.swagger()) as Json, login);
    },
    { loginRateLimit: 100_000 },
  );
}

/**
 * Every call of the app, each asked once (`probeCall`) with a valid admin token (a fresh one after a call
 * that ended the session, e.g. logout), plus the issue's named calls the app lacks.
 */
async function serverCalls(): Promise<CallRow[]> {
  return withApp(async (app, doc, login) => {
    const groupOf = new Map<string, string>();
    const { resourceSchemas } = await import('../../kernel/dialect/schemaRegistry');
    for (const s of resourceSchemas())
      if (s['x-resource']?.group) groupOf.set(s['x-resource'].name, `/${s['x-resource'].group}`);
    const named = new Map(ISSUE_8.calls.map((c) => [c.call, c.section]));
    let token = await login();
    const rows: CallRow[] = [];
    for (const { method, path, op } of operations(doc)) {
      const tag: string = (op.tags ?? [''])[0];
      const call = `${method} ${path}`;
      const group = groupOf.get(tag);
      const section =
        named.get(call) ??
        (group ? first(GROUP_SECTION, group.replace(/^\/+/, '/'), OTHER) : first(PATH_SECTION, path, OTHER));
      const roles = rolesText(op);
      const probe = await probeCall(app, token, method, path);
      // A call that ends the admin's session (logout, a role switch) leaves the next call a fresh token.
      const info = await app.inject({
        method: 'GET',
        url: '/dev-api/user/info',
        headers: { 'x-token': token },
      });
      if (info.statusCode !== 200) token = await login();
      rows.push({
        section,
        method,
        path,
        what: String(op.summary ?? ''),
        roles,
        input: probe.multipart ? 'multipart/form-data' : method === 'GET' ? 'query' : 'JSON',
        status: probeStatus(probe, roles === PLATFORM_USER),
        named: named.has(call),
      });
    }
    const have = new Set(rows.map((r) => `${r.method} ${r.path}`));
    for (const c of ISSUE_8.calls)
      if (!have.has(c.call)) {
        const [method, path] = c.call.split(' ');
        rows.push({
          section: c.section,
          method,
          path,
          what: '—',
          roles: '—',
          input: '—',
          status: 'MISSING: not registered',
          named: true,
        });
      }
    return sortRows(rows);
  });
}

// ------------------------------------------------------------------------------------------ the document

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Counts of a status column: "N done, M ..." */
function tally(statuses: string[]): string {
  const counts = new Map<string, number>();
  for (const s of statuses) {
    const key = s.startsWith('answers') || s.startsWith('done') ? 'done' : s.split(':')[0].split(' (')[0];
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${n} ${k}`).join(', ');
}

/** The Markdown document from its rows. */
export function renderDocument(screens: ScreenRow[], calls: CallRow[]): string {
  const out: string[] = [
    '<!-- GENERATED by scripts/docs-screens.ts (scripts/codegen/screens.ts). DO NOT EDIT: run `npm run docs:screens`. -->',
    '',
    '# Screens and calls (issue 8)',
    '',
    "Every screen of the console (src/shell/routes.ts and the schemas' `x-resource`) and every call of the server",
    "(its OpenAPI document), by the issue's parts. Regenerate with `npm run docs:screens`; `npm run docs:screens -- --check`",
    '(and tests/unit/screens-doc.test.ts) fail when this file is stale, and tests/api/screens-and-calls.test.ts asks the',
    'server for every call listed here, on SQLite and PostgreSQL.',
    '',
    "- A call's status is what the server answered when asked with the admin token and an empty input (no query, `{}`,",
    '  or an empty form for the uploads): "answers" (200) or "answers; empty input refused naming …" (400 naming the',
    '  input). Anything else (404, 5xx, a refusal naming nothing) is written as BROKEN; a call the issue names that the',
    '  server lacks is MISSING. The platform users\' calls (roles "platform user": the mini-program\'s sign-in,',
    "  `/app-api/user/*`) must refuse the admin's token as unknown (401, code 2); that is written as answering.",
    '- A screen is "done" when its route renders a screen, "done (the product leaves it empty)" for the sections the',
    '  product itself leaves empty (a titled page), "not built (titled page)" for any other route without a screen,',
    '  and MISSING when the issue names it and no route has it. "named" is the issue\'s name of the screen.',
    '',
    `Screens: ${screens.length} (${tally(screens.map((s) => s.status))}). Calls: ${calls.length} (${tally(calls.map((c) => c.status))}); ${calls.filter((c) => c.named).length} of them named in the issue.`,
    '',
  ];
  for (const section of [...SECTIONS, OTHER]) {
    const s = screens.filter((r) => r.section === section);
    const c = calls.filter((r) => r.section === section);
    if (!s.length && !c.length) continue;
    out.push(`## ${section}`, '');
    if (s.length) {
      out.push(
        '| screen | 中文 | path | reached | roles | renders | tabs | named | status |',
        '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
        ...s.map(
          (r) =>
            `| ${cell(r.title)} | ${cell(r.titleZh)} | \`${r.path}\` | ${r.reached} | ${r.roles} | ${cell(r.renders)} | ${r.tabs.join(', ')} | ${cell(r.named)} | ${cell(r.status)} |`,
        ),
        '',
      );
    }
    if (c.length) {
      out.push(
        '| call | what | roles | input | named | status |',
        '| --- | --- | --- | --- | --- | --- |',
        ...c.map(
          (r) =>
            `| \`${r.method} ${r.path}\` | ${cell(r.what)} | ${r.roles} | ${r.input} | ${r.named ? 'yes' : ''} | ${cell(r.status)} |`,
        ),
        '',
      );
    }
  }
  return out.join('\n');
}

/** The table's calls: `METHOD path`, roles and status, parsed back from the document (for the API test). */
export function documentedCalls(
  markdown: string,
): { method: string; path: string; roles: string; status: string }[] {
  return [...markdown.matchAll(/^\|\s*`(GET|POST|PUT|DELETE|PATCH) ([^`]+)`\s*\|(.*)\|\s*$/gm)].map((m) => {
    const cells = m[3].split(/(?<!\\)\|/).map((c) => c.trim());
    return { method: m[1], path: m[2], roles: cells[1], status: cells.at(-1)!.replace(/\\\|/g, '|') };
  });
}

/**
 * The generated document: `{ 'docs/screens-and-calls.md': content }`, formatted with the project's prettier
 * config (so `prettier --check` and `--check` agree).
 * @param root the project root
 */
export async function screensFiles(root: string): Promise<Record<string, string>> {
  const [screens, calls] = [await consoleScreens(), await serverCalls()];
  const config = (await prettier.resolveConfig(join(root, 'package.json'))) ?? {};
  return {
    [SCREENS_DOC]: await prettier.format(renderDocument(screens, calls), { ...config, parser: 'markdown' }),
  };
}

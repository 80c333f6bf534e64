/**
 * The case of every HTTP write route (tests/api/doors.test.ts): what a good call writes and who its
 * audit row names, and, for the routes without a JSON body schema (multipart uploads), their bad input.
 * The bad input of a route with a body schema is derived from that schema (doorInputs.ts). The door test
 * fails naming a registered write route that has no case here, and a case whose route is gone.
 *
 * `writes`:
 * - `audited`: writes records, each with an audit row naming the signed-in account (`actor: 'platform'`:
 *   the platform user making the mini-program's call); `good` makes one such call (checked here), or
 *   `elsewhere` names the test that checks its audit row;
 * - `session`: signs in or out (tokens and sessions, not records: no audit row);
 * - `read`: a POST that reads (a search body, a signed URL): a good call writes nothing audited;
 * - `staging`: writes the caller's own working rows (an import's dry run, its discard, saved views);
 * - `unaudited`: writes records without an audit row: none is left (issue 32 closed the last ones), and
 *   the door test fails naming any case marked so; see docs/architecture.md "One door".
 */
import type { InjectOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { multipart, type TestApp } from './helpers';

/** A good call: its body (JSON, or a multipart body with headers) and its token (default the admin's). */
export interface GoodCall {
  payload?: unknown;
  multipart?: ReturnType<typeof multipart>;
  query?: string;
  /** The call's token (default the admin's; null: none). */
  token?: string | null;
  /** The account its audit rows must name, when not the admin (a platform user's own call). */
  account?: string;
}

/** Ids made by the test before the cases run (doors.test.ts `setUp`). */
export interface DoorContext {
  t: TestApp;
  author: () => Promise<number>;
  artwork: () => Promise<number>;
  account: () => Promise<number>;
  /** The last audit entry of a record (a revision to revert to). */
  lastRevision: (resource: string, id: number) => Promise<number>;
  /** A new bid user (its account and first password: its phone number), not yet signed in. */
  bidUser: () => Promise<string>;
  /** A new platform user signed in (its first sign-in done): its account and token. */
  platformUser: () => Promise<{ account: string; token: string }>;
}

export interface HttpCase {
  writes: 'audited' | 'session' | 'read' | 'staging' | 'unaudited';
  /** A good call (for `audited`: its audit rows must name the admin). */
  good?: (c: DoorContext) => Promise<GoodCall>;
  /** The test file that checks the audit row of a good call, when `good` is not given here. */
  elsewhere?: string;
  /** Why a non-audited route writes no audit row. */
  why?: string;
  /** Bad multipart bodies (routes without a JSON body schema), each with the field its refusal names. */
  badMultipart?: {
    fields: Record<string, string>;
    file?: { bytes: Buffer; filename: string };
    field: string;
  }[];
  /** Query string of the bad calls (e.g. a dry run's `resource`). */
  query?: string;
  /** The token the route needs (default the admin's): `platform` for the mini-program's calls. */
  token?: 'platform' | 'none';
}

let n = 0;
/** The context of the good calls: makers of the records they write on, in test app `t`. */
export function doorContext(t: TestApp): DoorContext {
  const db = () => t.app.db as Kysely<any>;
  const make = async (url: string, body: Record<string, unknown>) => {
    const r = await t.post(url, { ...body });
    expect(r.body.code, JSON.stringify(r.body)).toBe(0);
    return r.body.data.id as number;
  };
  const ctx: DoorContext = {
    t,
    author: () => make('/artmanager/authors/addAuthors', { authorName: `Door author ${++n}` }),
    artwork: async () =>
      make('/artmanager/artwork/addArtwork', {
        artWorkName: `Door artwork ${++n}`,
        author: await ctx.author(),
        classify: 'painting',
        texture: 'oil',
      }),
    account: () =>
      make('/dev-api/user/add', {
        username: `door.user${++n}`,
        name: 'Door',
        password: 'door-password',
        roles: ['user'],
      }),
    bidUser: async () => {
      const phone = `1390000${String(++n).padStart(4, '0')}`;
      const r = await t.post('/artmanager/subjects/insertUser', { phone });
      expect(r.body.code, JSON.stringify(r.body)).toBe(0);
      return phone;
    },
    platformUser: async () => {
      const account = await ctx.bidUser();
      const r = await t.post('/app-api/user/login', { account, password: account }, null);
      expect(r.body.code, JSON.stringify(r.body)).toBe(0);
      return { account, token: r.body.data.token as string };
    },
    lastRevision: async (resource, id) =>
      Number(
        (
          await db()
            .selectFrom('audit_log')
            .select('id')
            .where('resource', '=', resource)
            .where('recordId', '=', String(id))
            .orderBy('id', 'desc')
            .executeTakeFirstOrThrow()
        ).id,
      ),
  };
  return ctx;
}

let chaincodes = 0;
/** A multipart upload of a new chaincode (a new version each call). */
export function chaincodeUpload() {
  const source = 'package main\n\nfunc main() {}\n';
  return multipart(
    { name: 'doorcc', version: `1.${++chaincodes}` },
    { bytes: Buffer.from(source), filename: 'door.go' },
  );
}

/** The id of a chaincode just uploaded (installed, on the ledger). */
async function uploaded(c: DoorContext): Promise<number> {
  const r = await c.t.call({ method: 'POST', url: '/baas-api/chaincode/upload', ...chaincodeUpload() });
  expect(r.body.code, JSON.stringify(r.body)).toBe(0);
  return r.body.data.id as number;
}

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const TEXT = { bytes: Buffer.from('not an image'), filename: 'a.png' };
/** A multipart call without its file, and one whose file is not of the accepted type: both name `file`. */
const FILE_REFUSALS = (fields: Record<string, string> = {}) => [
  { fields, field: 'file' },
  { fields, file: TEXT, field: 'file' },
];

const kernel = (good: HttpCase['good']): HttpCase => ({ writes: 'audited', good });

export const HTTP_CASES: Record<string, HttpCase> = {
  // Console accounts and sessions (server/routes/dev-api/user).
  'POST /dev-api/user/login': { writes: 'session', token: 'none', why: 'a new session (tokens)' },
  'POST /dev-api/user/logout': { writes: 'session', why: 'ends the session (tokens)' },
  'POST /dev-api/user/switchRole': { writes: 'session', why: "the session's roles (tokens)" },
  'POST /dev-api/user/add': kernel(async () => ({
    payload: { username: 'door.add', name: 'Door', password: 'door-password', roles: ['user'] },
  })),
  'POST /dev-api/user/update': kernel(async (c) => ({ payload: { id: await c.account(), name: 'Renamed' } })),
  'POST /dev-api/user/delete': kernel(async (c) => ({ payload: { id: await c.account() } })),
  'POST /dev-api/user/addAuth': kernel(async (c) => ({ payload: { id: await c.account(), role: 'admin' } })),
  'POST /dev-api/user/delAuth': kernel(async (c) => {
    const id = await c.account();
    await c.t.post('/dev-api/user/addAuth', { id, role: 'admin' });
    return { payload: { id, role: 'admin' } };
  }),
  'POST /dev-api/user/password': { writes: 'audited', elsewhere: 'tests/api/audit.test.ts' },
  // The registry (kernel CRUD and the hand-written calls beside it).
  'POST /artmanager/artwork/searchArtworkList': { writes: 'read' },
  'POST /artmanager/artwork/addArtwork': kernel(async (c) => ({
    payload: { artWorkName: 'Door', author: await c.author(), classify: 'painting', texture: 'oil' },
  })),
  'POST /artmanager/artwork/baseInfo': kernel(async (c) => ({
    payload: { id: await c.artwork(), artWorkName: 'Door renamed' },
  })),
  'POST /artmanager/artwork/ArtCertificate': kernel(async (c) => ({
    payload: { id: await c.artwork(), certificateInfo: { certificateNo: 'C-1' } },
  })),
  'POST /artmanager/artwork/ArtSecurity': kernel(async (c) => ({
    payload: { id: await c.artwork(), securityInfo: { level: 'public' } },
  })),
  'POST /artmanager/artwork/ArtOther': kernel(async (c) => ({
    payload: { id: await c.artwork(), dealInfo: { creditLine: 'Gift' } },
  })),
  'POST /artmanager/artwork/deleteArt': kernel(async (c) => ({ payload: { id: await c.artwork() } })),
  'POST /artmanager/authors/authorSearch': { writes: 'read' },
  'POST /artmanager/authors/addAuthors': kernel(async () => ({ payload: { authorName: 'Door author' } })),
  'POST /artmanager/authors/updateInfo': kernel(async (c) => ({
    payload: { id: await c.author(), introduction: 'Changed' },
  })),
  'POST /artmanager/authors/deleteAuthors': kernel(async (c) => ({ payload: { id: await c.author() } })),
  'POST /artmanager/subjects/searchUserList': { writes: 'read' },
  'POST /artmanager/subjects/insertUser': kernel(async () => ({ payload: { phone: '13800000001' } })),
  'POST /artmanager/authors/blockChain': kernel(async (c) => ({ payload: { id: await c.author() } })),
  'POST /artmanager/artwork/blockChain': kernel(async (c) => {
    const id = await c.artwork();
    const { author } = (await c.t.get(`/artmanager/artwork/ArtInfoByArtId?artId=${id}`)).body.data;
    await c.t.post('/artmanager/authors/blockChain', { id: author });
    return { payload: { id } };
  }),
  'POST /artmanager/authors/createWx': kernel(async (c) => ({ payload: { id: await c.author() } })),
  'POST /artmanager/authors/addHeadPic': {
    writes: 'audited',
    good: async (c) => ({
      multipart: multipart({ id: await c.author() }, { bytes: PNG, filename: 'a.png' }),
    }),
    badMultipart: FILE_REFUSALS({ id: '1' }),
  },
  'POST /artmanager/artwork/addPicture': {
    writes: 'audited',
    good: async (c) => ({
      multipart: multipart({ artId: await c.artwork() }, { bytes: PNG, filename: 'a.png' }),
    }),
    badMultipart: FILE_REFUSALS({ artId: '1' }),
  },
  'POST /artmanager/artwork/deletePicture': {
    writes: 'audited',
    elsewhere: 'tests/api/registry-files.test.ts',
  },
  'POST /artmanager/traceability/addTraceabilityCert': {
    writes: 'audited',
    elsewhere: 'tests/api/registry-files.test.ts',
    badMultipart: FILE_REFUSALS({ id: '1', step: 'create' }),
  },
  'POST /artmanager/upload': {
    writes: 'staging',
    why: 'stores a file (content-addressed); the record naming it is written, and audited, by its own call',
    badMultipart: FILE_REFUSALS({ resource: 'artworks', field: 'images' }),
  },
  'POST /artmanager/oss/sign': { writes: 'read', why: 'signs an upload policy' },
  'POST /artmanager/admin/user/selectPageUser': { writes: 'read' },
  'POST /artmanager/admin/user/getUerById': { writes: 'read' },
  // Companies, contracts, templates, notifications (medicine-api, data-api).
  'POST /medicine-api/company/addCompany': { writes: 'audited', elsewhere: 'tests/api/medicine.test.ts' },
  'POST /medicine-api/company/updateCompany': { writes: 'audited', elsewhere: 'tests/api/medicine.test.ts' },
  'POST /medicine-api/company/deleteCompany': { writes: 'audited', elsewhere: 'tests/api/medicine.test.ts' },
  'POST /data-api/contract/add': { writes: 'audited', elsewhere: 'tests/api/contracts.test.ts' },
  'POST /medicine-api/smContract/add': { writes: 'audited', elsewhere: 'tests/api/contracts.test.ts' },
  'POST /data-api/contract/update': { writes: 'audited', elsewhere: 'tests/api/contracts.test.ts' },
  'POST /data-api/contract/delete': { writes: 'audited', elsewhere: 'tests/api/contracts.test.ts' },
  'POST /medicine-api/smContract/addTemplate': {
    writes: 'audited',
    elsewhere: 'tests/api/contracts.test.ts',
  },
  'POST /medicine-api/smContract/updateTemplate': {
    writes: 'audited',
    elsewhere: 'tests/api/contracts.test.ts',
  },
  'POST /medicine-api/smContract/deleteTemplate': {
    writes: 'audited',
    elsewhere: 'tests/api/contracts.test.ts',
  },
  'POST /medicine-api/notification/add': { writes: 'audited', elsewhere: 'tests/api/medicine.test.ts' },
  'POST /medicine-api/notification/update': { writes: 'audited', elsewhere: 'tests/api/medicine.test.ts' },
  'POST /medicine-api/notification/delete': { writes: 'audited', elsewhere: 'tests/api/medicine.test.ts' },
  'POST /medicine-api/message/read': { writes: 'audited', elsewhere: 'tests/api/medicine.test.ts' },
  'POST /data-api/pigeonhole/archive': kernel(async (c) => ({
    payload: { resource: 'artworks', id: await c.artwork() },
  })),
  'POST /data-api/pigeonhole/restore': {
    writes: 'audited',
    good: async (c) => {
      const a = await c.t.post('/data-api/pigeonhole/archive', {
        resource: 'artworks',
        id: await c.artwork(),
      });
      return { payload: { id: a.body.data.id } };
    },
  },
  // The ledger's chaincode lifecycle (baas-api): the upload's row audited with its insert, each
  // lifecycle step by the ledger's commit hook as the call's account (server/ledger/chaincode.ts).
  'POST /baas-api/chaincode/upload': {
    writes: 'audited',
    good: async () => ({ multipart: chaincodeUpload() }),
    badMultipart: [
      { fields: { zzUnknown: 'x' }, field: 'zzUnknown' },
      { fields: {}, field: 'file' },
    ],
  },
  'POST /baas-api/chaincode/approve': kernel(async (c) => ({ payload: { id: await uploaded(c) } })),
  'POST /baas-api/chaincode/commit': kernel(async (c) => {
    const id = await uploaded(c);
    expect((await c.t.post('/baas-api/chaincode/approve', { id })).body.code).toBe(0);
    return { payload: { id } };
  }),
  // The mini-program's platform users (app-api): their audit rows name the platform user.
  'POST /app-api/user/login': {
    writes: 'audited',
    token: 'none',
    why: 'a platform session; the first sign-in registers the platform user (audited, checked here)',
    good: async (c) => {
      const account = await c.bidUser();
      return { payload: { account, password: account }, token: null, account };
    },
  },
  'POST /app-api/user/password': {
    writes: 'audited',
    token: 'platform',
    good: async (c) => {
      const { account, token } = await c.platformUser();
      return {
        payload: { oldPassword: account, newPassword: 'door-platform-password' },
        token,
        account,
      };
    },
  },
  'POST /app-api/user/logout': { writes: 'session', token: 'platform', why: 'ends the platform session' },
  // Console import, history, saved views (dev-api).
  'POST /dev-api/import/dryRun': {
    writes: 'staging',
    why: "the job's rows, until commit",
    badMultipart: [{ fields: {}, field: 'file' }],
    query: '?resource=authors',
  },
  'POST /dev-api/import/commit': {
    writes: 'audited',
    good: async (c) => {
      const csv = multipart({}, { bytes: Buffer.from('authorName\nImported by door\n'), filename: 'a.csv' });
      const dry = await c.t.call({
        method: 'POST',
        url: '/dev-api/import/dryRun?resource=authors',
        ...csv,
      } as InjectOptions);
      return { payload: { id: dry.body.data.id } };
    },
  },
  'POST /dev-api/import/discard': { writes: 'staging', why: "deletes the job's staged rows" },
  'POST /dev-api/history/revert': {
    writes: 'audited',
    good: async (c) => {
      const id = await c.author();
      const revision = await c.lastRevision('authors', id);
      await c.t.post('/artmanager/authors/updateInfo', { id, introduction: 'To be reverted' });
      return { payload: { resource: 'authors', id, revision } };
    },
  },
  'POST /dev-api/views/add': { writes: 'staging', why: "the account's own saved views (preferences)" },
  'POST /dev-api/views/update': { writes: 'staging', why: "the account's own saved views" },
  'POST /dev-api/views/delete': { writes: 'staging', why: "the account's own saved views" },
  'POST /dev-api/views/last': { writes: 'staging', why: "the account's last-used list settings" },
};

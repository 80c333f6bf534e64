/**
 * Saved views of lists (issue 21 item 4; table `saved_views`, migration 20261126T0701): per account and
 * list (`resource`, any resource with a getList call), a named filter, sort and column set, optionally
 * shared with the other accounts; and the account's last view of each list, restored after signing in
 * again (react-admin #8197, #8062: list state kept on the server, not only in the browser).
 *
 * - `GET /dev-api/views/list?resource=`: the caller's views of the list and those others share, by name;
 * - `POST /dev-api/views/add` `{resource, name, filter, sort?, columns?, shared?}`: 409 (`unique`,
 *   `name`) when the caller already has a view of that name for the list;
 * - `POST /dev-api/views/update` `{id, name?, filter?, sort?, columns?, shared?}`, `POST /dev-api/views/delete`
 *   `{id}`: the owner only (403 for another account's shared view, 404 for a view the caller cannot see);
 * - `GET /dev-api/views/last?resource=` / `POST /dev-api/views/last` `{resource, filter, sort?, columns?}`:
 *   the caller's last view of the list (null before the first), replaced on each save.
 *
 * Roles: a signed-in account (401), and the list resource's own roles (its getList call's, else
 * `x-roles`; 403). Requests are validated by their schemas (400 naming the field, in the caller's language).
 */
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { Codes } from '../../../../common/envelope';
import { MAX_ID, resourceSchemas } from '../../../../kernel/dialect/schemaRegistry';
import { ok } from '../../../plugins/app/envelope';
import { apiError, notFound } from '../../../errors';
import { uniqueConflict } from '../../../../kernel/server/dbErrors';
import { nowText } from '../../../db/database';

const TABLE = 'saved_views';
/** The name of the row holding an account's last view of a list. */
const LAST = '';

const idSchema = { type: 'integer', minimum: 1, maximum: MAX_ID } as const;
const nameSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 60,
  pattern: '^[^\\u0000-\\u001f<>]*\\S[^\\u0000-\\u001f<>]*$',
} as const;
const filterSchema = { type: 'object', maxProperties: 50, description: "The list's filter values" } as const;
const sortSchema = {
  type: ['object', 'null'],
  properties: {
    field: { type: 'string', minLength: 1, maxLength: 100 },
    order: { type: 'string', enum: ['ASC', 'DESC'] },
  },
  required: ['field', 'order'],
  additionalProperties: false,
} as const;
const columnsSchema = {
  type: ['array', 'null'],
  items: { type: 'string', minLength: 1, maxLength: 100 },
  maxItems: 100,
  description: 'The shown columns (their sources), in order; null: the list default',
} as const;

/** A view as the calls answer it. */
const viewSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    resource: { type: 'string' },
    name: { type: 'string' },
    account: { type: 'string', description: "The owner's username" },
    mine: { type: 'boolean' },
    shared: { type: 'boolean' },
    filter: { type: 'object', additionalProperties: true },
    sort: { ...sortSchema, additionalProperties: true },
    columns: columnsSchema,
    updateTime: { type: 'string' },
  },
} as const;

const envelope = (data: object) => ({
  200: { type: 'object', properties: { code: { type: 'integer' }, msg: { type: 'string' }, data } },
});

interface ViewRow {
  id: number;
  accountId: number;
  resource: string;
  name: string;
  filter: string;
  sort: string | null;
  columns: string | null;
  shared: number;
  updateTime: string;
  account?: string;
}

/** A stored row as the calls answer it, for the caller `accountId`. */
function viewOf(row: ViewRow, accountId: number) {
  return {
    id: Number(row.id),
    resource: row.resource,
    name: row.name,
    account: row.account ?? '',
    mine: Number(row.accountId) === accountId,
    shared: Number(row.shared) === 1,
    filter: JSON.parse(row.filter) as object,
    sort: row.sort === null ? null : (JSON.parse(row.sort) as object),
    columns: row.columns === null ? null : (JSON.parse(row.columns) as string[]),
    updateTime: row.updateTime,
  };
}

/** The lists that can have views: every resource with a getList call, and the roles of that call. */
function listRoles(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const s of resourceSchemas()) {
    const spec = s['x-endpoints']?.getList;
    if (spec) out.set(s['x-resource']!.name, spec.roles ?? s['x-roles'] ?? ['admin']);
  }
  return out;
}

export default async function viewRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<JsonSchemaToTsProvider>();
  const db = app.db as unknown as Kysely<any>;
  const roles = listRoles();
  const resource = { type: 'string', enum: [...roles.keys()] } as const;
  /** The query naming just the list (`/list`, `/last`). */
  const resourceQuery = {
    type: 'object',
    properties: { resource },
    required: ['resource'],
    additionalProperties: false,
  } as const;
  const onRequest = app.requireRoles([]);

  /** 403 unless the caller may read the list `name`; answers the caller's account id. */
  const mayRead = (req: FastifyRequest, name: string): number => {
    const need = roles.get(name) ?? ['admin'];
    const mine = req.account?.roles ?? [];
    if (!mine.includes('admin') && !need.some((r) => mine.includes(r)))
      throw apiError(Codes.FORBIDDEN, 403, 'auth.roleRequired', {
        roles: { en: need.join(' or '), zh: need.join(' 或 ') },
      });
    return req.account!.id;
  };

  const select = () =>
    db
      .selectFrom(`${TABLE} as v`)
      .leftJoin('accounts as a', 'a.id', 'v.accountId')
      .selectAll('v')
      .select('a.username as account');

  /** The view `id` the caller owns: 404 when the caller cannot see it, 403 for another account's. */
  const ownView = async (req: FastifyRequest, id: number): Promise<ViewRow> => {
    const row = (await select().where('v.id', '=', id).where('v.name', '!=', LAST).executeTakeFirst()) as
      ViewRow | undefined;
    const me = req.account!.id;
    if (!row || (Number(row.accountId) !== me && Number(row.shared) !== 1))
      throw notFound({ en: 'View', zh: '视图' }, id);
    mayRead(req, row.resource);
    if (Number(row.accountId) !== me) throw apiError(Codes.FORBIDDEN, 403, 'views.ownerOnly');
    return row;
  };

  /** 409 naming `name` when the caller has another view of that name for the list. */
  const checkName = async (accountId: number, list: string, name: string, exceptId?: number) => {
    let q = db
      .selectFrom(TABLE)
      .select('id')
      .where('accountId', '=', accountId)
      .where('resource', '=', list)
      .where('name', '=', name);
    if (exceptId) q = q.where('id', '!=', exceptId);
    const holder = await q.executeTakeFirst();
    if (holder) throw uniqueConflict('name', name, `view ${holder.id}`);
  };

  const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

  app.get(
    '/list',
    {
      onRequest,
      schema: {
        querystring: resourceQuery,
        response: envelope({
          type: 'object',
          properties: { list: { type: 'array', items: viewSchema }, total: { type: 'integer' } },
        }),
      },
    },
    async (req) => {
      const me = mayRead(req, req.query.resource);
      const rows = (await select()
        .where('v.resource', '=', req.query.resource)
        .where('v.name', '!=', LAST)
        .where((eb) => eb.or([eb('v.accountId', '=', me), eb('v.shared', '=', 1)]))
        .orderBy('v.name')
        .orderBy('v.id')
        .execute()) as ViewRow[];
      return ok({ list: rows.map((r) => viewOf(r, me)), total: rows.length });
    },
  );

  app.post(
    '/add',
    {
      onRequest,
      schema: {
        body: {
          type: 'object',
          properties: {
            resource,
            name: nameSchema,
            filter: filterSchema,
            sort: sortSchema,
            columns: columnsSchema,
            shared: { type: 'boolean' },
          },
          required: ['resource', 'name', 'filter'],
          additionalProperties: false,
        },
        response: envelope(viewSchema),
      },
    },
    async (req) => {
      const me = mayRead(req, req.body.resource);
      const b = req.body;
      const name = b.name.trim();
      await checkName(me, b.resource, name);
      const { id } = await db
        .insertInto(TABLE)
        .values({
          accountId: me,
          resource: b.resource,
          name,
          filter: JSON.stringify(b.filter),
          sort: json(b.sort),
          columns: json(b.columns),
          shared: b.shared ? 1 : 0,
          updateTime: nowText(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return ok(viewOf((await select().where('v.id', '=', id).executeTakeFirstOrThrow()) as ViewRow, me));
    },
  );

  app.post(
    '/update',
    {
      onRequest,
      schema: {
        body: {
          type: 'object',
          properties: {
            id: idSchema,
            name: nameSchema,
            filter: filterSchema,
            sort: sortSchema,
            columns: columnsSchema,
            shared: { type: 'boolean' },
          },
          required: ['id'],
          additionalProperties: false,
        },
        response: envelope(viewSchema),
      },
    },
    async (req) => {
      const b = req.body;
      const row = await ownView(req, b.id);
      const set: Record<string, unknown> = { updateTime: nowText() };
      if (b.name !== undefined) {
        set.name = b.name.trim();
        await checkName(row.accountId, row.resource, set.name as string, row.id);
      }
      if (b.filter !== undefined) set.filter = JSON.stringify(b.filter);
      if (b.sort !== undefined) set.sort = json(b.sort);
      if (b.columns !== undefined) set.columns = json(b.columns);
      if (b.shared !== undefined) set.shared = b.shared ? 1 : 0;
      await db.updateTable(TABLE).set(set).where('id', '=', b.id).execute();
      const me = req.account!.id;
      return ok(viewOf((await select().where('v.id', '=', b.id).executeTakeFirstOrThrow()) as ViewRow, me));
    },
  );

  app.post(
    '/delete',
    {
      onRequest,
      schema: {
        body: { type: 'object', properties: { id: idSchema }, required: ['id'], additionalProperties: false },
        response: envelope({
          type: 'object',
          properties: { ids: { type: 'array', items: { type: 'integer' } } },
        }),
      },
    },
    async (req) => {
      await ownView(req, req.body.id);
      await db.deleteFrom(TABLE).where('id', '=', req.body.id).execute();
      return ok({ ids: [req.body.id] });
    },
  );

  const lastSchema = {
    type: ['object', 'null'],
    properties: {
      filter: viewSchema.properties.filter,
      sort: viewSchema.properties.sort,
      columns: columnsSchema,
    },
  } as const;

  app.get(
    '/last',
    {
      onRequest,
      schema: {
        querystring: resourceQuery,
        response: envelope(lastSchema),
      },
    },
    async (req) => {
      const me = mayRead(req, req.query.resource);
      const row = (await select()
        .where('v.accountId', '=', me)
        .where('v.resource', '=', req.query.resource)
        .where('v.name', '=', LAST)
        .executeTakeFirst()) as ViewRow | undefined;
      if (!row) return ok(null);
      const { filter, sort, columns } = viewOf(row, me);
      return ok({ filter, sort, columns });
    },
  );

  app.post(
    '/last',
    {
      onRequest,
      schema: {
        body: {
          type: 'object',
          properties: { resource, filter: filterSchema, sort: sortSchema, columns: columnsSchema },
          required: ['resource', 'filter'],
          additionalProperties: false,
        },
        response: envelope(lastSchema),
      },
    },
    async (req) => {
      const b = req.body;
      const me = mayRead(req, b.resource);
      const values = {
        filter: JSON.stringify(b.filter),
        sort: json(b.sort),
        columns: json(b.columns),
        updateTime: nowText(),
      };
      await db
        .insertInto(TABLE)
        .values({ accountId: me, resource: b.resource, name: LAST, shared: 0, ...values })
        .onConflict((oc) => oc.columns(['accountId', 'resource', 'name']).doUpdateSet(values))
        .execute();
      return ok({ filter: b.filter, sort: b.sort ?? null, columns: b.columns ?? null });
    },
  );
}

/**
 * The console's react-admin DataProvider, in the style of ra-data-simple-rest: one factory
 * `createDataProvider(httpClient)` whose verb → call table is DERIVED from each schema's `x-endpoints`
 * (schemas/*.schema.json, docs/api.md) by `endpointTable()`. The table itself is generated:
 * docs/data-provider-calls.md (written by `npm run codegen`, scripts/codegen/verbTable.ts; a unit test
 * checks it against `endpointTable()`), so a new schema needs no edit here.
 *
 * How each verb is sent:
 * - getList: `page` (1-based), `pageSize` (= perPage), `sort`, `order` (ASC|DESC), `q` and filters; in
 *   the query for GET, in a JSON body for POST. When the filter has a non-empty `q` and the resource has a
 *   `search` endpoint, that endpoint is used instead. Answer `data: {list, total}` → `{data, total}`.
 * - getOne: the id under the endpoint's `id` name (query for GET, body for POST) → the record.
 * - getMany: the ids under the endpoint's `ids` name ("1,2,3" in a GET query, [1,2,3] in a POST body),
 *   `page` 1 and `pageSize` = number of ids.
 * - getManyReference: `x-endpoints.getManyReference[target]`, the id under its `id` name plus the list
 *   parameters of getList.
 * - create: body = the record's writable fields (schema properties not `readOnly`).
 * - update: body = `{id, ...changed writable fields}` (compared with `previousData`), and `If-Match` with
 *   `previousData`'s revision: a record changed since is refused (409 with the current record; the edit
 *   page shows the conflict, src/schema-ui/conflict.tsx).
 * - delete / deleteMany: body `{[id]: id}` (with `If-Match` as update) / `{[ids]: [...]}`.
 * - updateMany: body `{[ids]: [...], data}` (the writable fields), one call, all or none; without its
 *   endpoint, N update calls. deleteMany without its endpoint: N delete calls.
 * - a verb the schema does not declare rejects with an Error naming the resource and the verb.
 *
 * Options of an `x-endpoints` entry beyond `{method, path, id, ids}` (schemas whose records are not
 * keyed by an integer `id` or whose list has a fixed order, e.g. the ledger's blocks and transactions):
 * - `sort: false`: the call takes no `sort`/`order` (the server's order is fixed); they are not sent.
 * - `idFrom: [field, ...]`: the record's id is made of these fields, joined with `:` (`["txId"]` → the
 *   tx id; `["channelId", "number"]` → `"1:42"`); every record of the answer gets that `id`. A call that
 *   sends an id (getOne) without an `id` parameter name sends the id split at `:` into these fields
 *   (`GET /baas-api/block?channelId=1&number=42`); an id with the wrong number of parts is an Error.
 * - `upload(file, target?)`: `POST /artmanager/upload` multipart (field `file`) → `{ url }` (not a react-admin
 *   verb); `target` `{resource, field}` asks for that schema property's `x-upload` limits
 *   (`?resource=&field=`, the field path without array indexes).
 * - `createWx(id)`: `POST /artmanager/authors/createWx {id}` → the author with its new mini-program code.
 *
 * Failures are the transport's: an `HttpError` carrying the envelope's `msg` (see httpClient.ts).
 */
import type {
  CreateParams,
  DataProvider,
  DeleteManyParams,
  DeleteParams,
  GetListParams,
  GetManyParams,
  GetManyReferenceParams,
  GetOneParams,
  Identifier,
  RaRecord,
  UpdateManyParams,
  UpdateParams,
} from 'ra-core';
import type { ListData } from '../../common/envelope';
import {
  schemaForResource,
  type EndpointSpec,
  type ResourceSchema,
  type Verb,
} from '../../kernel/dialect/schemaRegistry';
import { deref } from '../../kernel/dialect/deref';
import { REVISION } from '../../kernel/dialect/revision';
import { prepareValue, requires } from '../../kernel/dialect/formValues';
import { httpClient as defaultHttpClient, type HttpClient } from './httpClient';
export { endpointTable, formatEndpointRow, type EndpointRow } from '../../kernel/dialect/endpointTable';

/** Path of the upload call (docs/api.md). */
export const UPLOAD_PATH = '/artmanager/upload';

/** An `x-endpoints` entry with the options this provider reads (documented in the header above). */
export interface EndpointOptions extends EndpointSpec {
  /** false: send no `sort`/`order` (the call's order is fixed). */
  sort?: boolean;
  /** Fields whose values, joined with `:`, are the record's id. */
  idFrom?: string[];
}

type Params = Record<string, unknown>;

/** An endpoint with no options (for answers that need none). */
const endpointless: EndpointOptions = { method: 'GET', path: '' };

/** The DataProvider plus the console's upload call. */
export interface BaasDataProvider extends DataProvider {
  /** Uploads one image (jpeg/png/webp/gif/bmp, at most 2 MB, UPLOAD_LIMIT_BYTES); resolves its served URL. */
  upload(
    file: File | Blob,
    target?: { resource: string; field: string },
    filename?: string,
  ): Promise<{ url: string }>;
  createWx(id: Identifier): Promise<RaRecord>;
}

function endpoint(schema: ResourceSchema, verb: Verb): EndpointOptions {
  const spec = schema['x-endpoints']?.[verb] as EndpointOptions | undefined;
  if (!spec)
    throw new Error(
      `Resource "${schema['x-resource']!.name}" declares no x-endpoints.${verb} (schemas/${schema.$id}.schema.json)`,
    );
  return spec;
}

/** Query string of a GET call: undefined/null/'' values left out, arrays joined with commas. */
export function toQuery(params: Params): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue;
    q.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The list parameters of a getList call (page, pageSize, sort, order, filters) as the server reads them. */
export function listParams(
  p: Pick<GetListParams, 'pagination' | 'sort' | 'filter'>,
  spec: EndpointOptions = { method: 'GET', path: '' },
): Params {
  const out: Params = {};
  if (p.pagination) {
    out.page = p.pagination.page;
    out.pageSize = p.pagination.perPage;
  }
  if (p.sort?.field && spec.sort !== false) {
    out.sort = p.sort.field;
    out.order = p.sort.order === 'DESC' ? 'DESC' : 'ASC';
  }
  for (const [k, v] of Object.entries(p.filter ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    out[k] = typeof v === 'string' ? v.trim() || undefined : v;
  }
  return out;
}

/**
 * The record's fields a create/update may send: schema properties that are not `readOnly`. Inside a
 * nested object or an array's items, a `null` the property does not allow is dropped
 * (kernel/dialect/formValues.ts): react-admin gives `null` for an item's input the record lacks, and an
 * array left untouched must compare equal to the stored one (the fuzzer's `fzCrateAudit5`: an optional
 * integer in an object array made every edit a 400). An optional object left empty whose schema has
 * `required` properties is left out (`fzTourGrant6`: the edit form of a record without it could not save).
 */
export function writableFields(schema: ResourceSchema, data: Params): Params {
  const out: Params = {};
  for (const [k, v] of Object.entries(data)) {
    const prop = schema.properties[k];
    if (!prop || prop.readOnly || v === undefined) continue;
    const value = v !== null && typeof v === 'object' ? prepareValue(schema, deref(schema, prop), v) : v;
    if (value !== undefined) out[k] = value;
    else if (requires(schema, k)) out[k] = {};
  }
  return out;
}

/**
 * The records with their `id` made from `spec.idFrom` (joined with `:`); unchanged without `idFrom`.
 * @throws Error naming the field when a record lacks one of them
 */
export function withIds<R>(spec: Pick<EndpointOptions, 'idFrom'>, records: R[]): R[] {
  const fields = spec.idFrom;
  if (!fields?.length) return records;
  return records.map((r) => {
    const rec = r as Params;
    const parts = fields.map((f) => {
      const v = rec[f];
      if (v === undefined || v === null || v === '')
        throw new Error(`The server answered a record without "${f}", part of its id (x-endpoints idFrom)`);
      return String(v);
    });
    return { ...rec, id: parts.join(':') } as R;
  });
}

/**
 * The parameters that carry `id` on a call: `{[spec.id]: id}`, or, with `idFrom` and no `id` name, the
 * id split at `:` into those fields ("1:42" → `{channelId: 1, number: 42}`; digits become numbers).
 * The id is sent with the type the schema's `id` property declares: react-admin takes it from the route
 * as a string ("1"), and a POST body is validated without coercion (`getUerById {"id":"1"}` was a 400).
 * @throws Error when the id does not have one part per `idFrom` field
 */
export function idParams(
  spec: EndpointOptions,
  id: Identifier,
  resource: string,
  schema?: ResourceSchema,
): Params {
  if (spec.id || !spec.idFrom?.length) return { [spec.id ?? 'id']: typedId(schema, id) };
  const parts = String(id).split(':');
  if (parts.length !== spec.idFrom.length)
    throw new Error(
      `${resource}: id "${id}" must be ${spec.idFrom.join(':')} (${spec.idFrom.length} parts joined with ":")`,
    );
  return Object.fromEntries(spec.idFrom.map((f, i) => [f, numericId(parts[i])]));
}

/**
 * `id` as the schema's `id` property types it (JSON Schema `type` integer or number: a digit string
 * becomes a number); unchanged for a string id or a schema without an `id` property.
 */
export function typedId(schema: ResourceSchema | undefined, id: Identifier): Identifier {
  const type = ([] as string[]).concat(schema?.properties?.id?.type ?? []);
  return type.includes('integer') || type.includes('number') ? numericId(id) : id;
}

/**
 * The `If-Match` header of a write that started from `record`: its revision as an entity tag (`"7"`,
 * kernel/dialect/revision.ts), so that the server refuses it (409, with the current record) when the
 * record changed since; none for a record without a revision.
 */
export function ifMatch(record: unknown): Record<string, string> | undefined {
  const r = (record as Params | undefined)?.[REVISION];
  return typeof r === 'number' ? { 'If-Match': `"${r}"` } : undefined;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * A record id as the API's JSON bodies take it: react-admin takes ids from the route, as strings
 * ("5"), while the server's schemas say integer (bodies are validated without coercion).
 */
export function numericId(id: Identifier): Identifier {
  return typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id;
}

/**
 * Builds the DataProvider.
 * @param httpClient a fetchJson-like transport (default: fetch + `Admin-Token` cookie, httpClient.ts)
 * @param apiUrl prefix of every path (default '' = same origin; Vite proxies in development)
 */
export function createDataProvider(
  httpClient: HttpClient = defaultHttpClient,
  apiUrl = '',
): BaasDataProvider {
  async function call<T>(spec: EndpointSpec, params: Params, headers?: Record<string, string>): Promise<T> {
    const extra = headers && Object.keys(headers).length ? { headers } : {};
    if (spec.method === 'GET') {
      const { json } = await httpClient<T>(`${apiUrl}${spec.path}${toQuery(params)}`, {
        method: 'GET',
        ...extra,
      });
      return json.data;
    }
    const { json } = await httpClient<T>(`${apiUrl}${spec.path}`, {
      method: 'POST',
      body: JSON.stringify(params),
      ...extra,
    });
    return json.data;
  }

  function idsParam(spec: EndpointSpec, ids: Identifier[]): unknown {
    return spec.method === 'GET' ? ids.join(',') : ids.map(numericId);
  }

  function listResult<R extends RaRecord>(data: ListData<R>, spec: EndpointOptions = endpointless) {
    if (!data || !Array.isArray(data.list) || typeof data.total !== 'number')
      throw new Error('The server answered a list call without data: { list, total }');
    return { data: withIds(spec, data.list), total: data.total };
  }

  const provider: BaasDataProvider = {
    async getList<R extends RaRecord>(resource: string, params: GetListParams) {
      const schema = schemaForResource(resource);
      const q = params.filter?.q;
      const verb: Verb =
        typeof q === 'string' && q.trim() && schema['x-endpoints']?.search ? 'search' : 'getList';
      const spec = endpoint(schema, verb);
      return listResult<R>(await call<ListData<R>>(spec, listParams(params, spec)), spec);
    },

    async getOne<R extends RaRecord>(resource: string, params: GetOneParams) {
      const schema = schemaForResource(resource);
      const spec = endpoint(schema, 'getOne');
      const data = await call<R>(spec, idParams(spec, params.id, resource, schema));
      return { data: withIds(spec, [data])[0] };
    },

    async getMany<R extends RaRecord>(resource: string, params: GetManyParams) {
      if (params.ids.length === 0) return { data: [] as R[] };
      const spec = endpoint(schemaForResource(resource), 'getMany');
      const data = await call<ListData<R>>(spec, {
        [spec.ids ?? 'ids']: idsParam(spec, params.ids),
        page: 1,
        pageSize: params.ids.length,
      });
      return { data: listResult<R>(data, spec).data };
    },

    async getManyReference<R extends RaRecord>(resource: string, params: GetManyReferenceParams) {
      const schema = schemaForResource(resource);
      const spec = schema['x-endpoints']?.getManyReference?.[params.target] as EndpointOptions | undefined;
      if (spec)
        return listResult<R>(
          await call<ListData<R>>(spec, { [spec.id ?? 'id']: params.id, ...listParams(params, spec) }),
          spec,
        );
      // No dedicated endpoint: the target is a filterable field of the list call.
      return provider.getList<R>(resource, {
        ...params,
        filter: { ...params.filter, [params.target]: params.id },
      });
    },

    async create<R extends RaRecord>(resource: string, params: CreateParams) {
      const schema = schemaForResource(resource);
      return { data: await call<R>(endpoint(schema, 'create'), writableFields(schema, params.data)) };
    },

    async update<R extends RaRecord>(resource: string, params: UpdateParams) {
      const schema = schemaForResource(resource);
      const spec = endpoint(schema, 'update');
      const data = writableFields(schema, params.data);
      const prev = params.previousData as Params | undefined;
      const changed = prev
        ? Object.fromEntries(Object.entries(data).filter(([k, v]) => !same(v, prev[k])))
        : data;
      return { data: await call<R>(spec, { ...changed, id: numericId(params.id) }, ifMatch(prev)) };
    },

    async updateMany(resource: string, params: UpdateManyParams) {
      const schema = schemaForResource(resource);
      const data = writableFields(schema, params.data);
      const many = schema['x-endpoints']?.updateMany;
      if (many) {
        await call(many, { [many.ids ?? 'ids']: idsParam(many, params.ids), data });
        return { data: params.ids };
      }
      const spec = endpoint(schema, 'update');
      await Promise.all(params.ids.map((id) => call(spec, { ...data, id: numericId(id) })));
      return { data: params.ids };
    },

    async delete<R extends RaRecord>(resource: string, params: DeleteParams<R>) {
      const spec = endpoint(schemaForResource(resource), 'delete');
      await call(spec, { [spec.id ?? 'id']: numericId(params.id) }, ifMatch(params.previousData));
      return { data: (params.previousData ?? { id: params.id }) as R };
    },

    async deleteMany(resource: string, params: DeleteManyParams) {
      const schema = schemaForResource(resource);
      const many = schema['x-endpoints']?.deleteMany;
      if (many) {
        await call(many, { [many.ids ?? 'ids']: idsParam(many, params.ids) });
        return { data: params.ids };
      }
      const spec = endpoint(schema, 'delete');
      await Promise.all(params.ids.map((id) => call(spec, { [spec.id ?? 'id']: numericId(id) })));
      return { data: params.ids };
    },

    async upload(file: File | Blob, target?: { resource: string; field: string }, filename?: string) {
      const form = new FormData();
      form.append('file', file, filename ?? (file as File).name ?? 'upload');
      const query = target
        ? `?${new URLSearchParams({ resource: target.resource, field: target.field.replace(/\.\d+(?=\.|$)/g, '') })}`
        : '';
      const { json } = await httpClient<{ url: string }>(`${apiUrl}${UPLOAD_PATH}${query}`, {
        method: 'POST',
        body: form,
      });
      return json.data;
    },

    async createWx(id: Identifier) {
      const { json } = await httpClient<RaRecord>(`${apiUrl}/artmanager/authors/createWx`, {
        method: 'POST',
        body: JSON.stringify({ id: Number(id) }),
      });
      return json.data;
    },
  };
  return provider;
}

/** The console's DataProvider (default transport). */
export const dataProvider = createDataProvider();
export default dataProvider;

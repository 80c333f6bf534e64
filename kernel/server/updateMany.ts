/**
 * react-admin's `updateMany` (`x-endpoints.updateMany`, issue 33): the same change written to several
 * records, all or none. The call takes `{<ids>: [1..100 distinct ids], data: {...fields}}` (`<ids>` is the
 * endpoint's `ids` name, default `ids`), as react-admin's `UpdateManyParams` `{ids, data}`, and answers
 * `{ ids }` as deleteMany does.
 * - `data` is checked as an update's body is (the `<id>.update` variant's properties, without `id` and
 *   `revision`): a bad field is a 400 naming `data.<field>`, labelled with the field's `x-i18n`;
 * - every id must exist (404 naming the missing ones, nothing written);
 * - each record is then updated exactly as the update call does it (kernel/server/repository.ts `update`:
 *   cross-field rules on the merged record, references, `x-schemaFrom`, unique fields, `x-frozen`, hooks,
 *   the revision one more, one audit row per record), in ONE transaction: a record refused refuses the
 *   call, and the answer names its id (`record.manyFailed`: the record's label and id, then the refusal
 *   with its fields as `data.<field>`; `data.ids` the id), in the language asked.
 * No `If-Match`: several records have no one revision (as deleteMany of several ids).
 */
import type { FastifyError } from 'fastify';
import type { Kysely } from 'kysely';
import { Codes, type FieldError } from '../../common/envelope';
import { fieldLabel, msg, schemaLabel } from '../../common/messages/index';
import { REVISION } from '../dialect/revision';
import { buildVariant, formatErrors, MAX_ID, type ResourceSchema } from '../dialect/schemaRegistry';
import { ApiError, notFound } from '../../server/errors';
import type { WriteActor } from '../../server/db/audit';
import type { Repository } from './repository';

type Json = Record<string, unknown>;

/** The name of the body's changed fields (react-admin's `UpdateManyParams.data`). */
export const DATA = 'data';

/**
 * The body schema of an updateMany call (see the module doc).
 * @param update the update body with every writable property, `id` and `revision` (resources.ts
 *   `narrowedUpdate`: its subschemas stand alone)
 * @param idsName the endpoint's `ids` name
 */
export function updateManyBody(update: Json, idsName: string): Json {
  const { id: _id, [REVISION]: _revision, ...properties } = update.properties as Json;
  return {
    type: 'object',
    properties: {
      [idsName]: {
        type: 'array',
        items: { type: 'integer', minimum: 1, maximum: MAX_ID },
        minItems: 1,
        maxItems: 100,
        uniqueItems: true,
      },
      [DATA]: { type: 'object', properties, additionalProperties: false },
    },
    required: [idsName, DATA],
    additionalProperties: false,
  };
}

/** The writable properties of `schema` an update may name (its `<id>.update` variant's, not `false`). */
export function writableNames(schema: ResourceSchema): string[] {
  const update = buildVariant(schema, 'update') as { properties: Json };
  return Object.keys(update.properties).filter(
    (k) => k !== 'id' && k !== REVISION && update.properties[k] !== false,
  );
}

/**
 * `e`, an error at `inner` (a dotted path in the record; `''` for the record itself), as one of the body:
 * its field `data.<inner>`, labelled by the schema's `x-i18n` of that path (else the path itself).
 */
function underData(schemaId: string, e: FieldError, inner: string): FieldError {
  const field = inner ? `${DATA}.${inner}` : DATA;
  const message = e.message.startsWith(`${e.field}: `)
    ? `${field}: ${e.message.slice(e.field.length + 2)}`
    : `${field}: ${e.message}`;
  const labelOf = (path: string) => ({
    en: fieldLabel('en', path, schemaId),
    zh: fieldLabel('zh', path, schemaId),
  });
  const label = inner ? (e.label ?? labelOf(inner)) : e.label;
  // a two-field rule (x-ordered, x-distinct) names its pair by key in its object: labelled here, as the
  // renderer would find no property at `data.<key>`
  const base = inner.split('.').slice(0, -1).join('.');
  const params = { ...e.params };
  for (const k of ['first', 'second'])
    if (typeof params[k] === 'string') params[k] = labelOf(base ? `${base}.${params[k]}` : params[k]);
  return { ...e, field, message, params, ...(label ? { label } : {}) };
}

/**
 * The 400 of a body the route schema refused (Fastify's `attachValidation`): the fields of `data`
 * labelled as the record's (see the module doc).
 */
export function invalidBody(schemaId: string, error: FastifyError): ApiError {
  const errors = formatErrors(error.validation as never).map((e) =>
    e.field.startsWith(`${DATA}.`) ? underData(schemaId, e, e.field.slice(DATA.length + 1)) : e,
  );
  return new ApiError(Codes.INVALID, 400, msg('request.invalid', { part: 'body' }), { errors });
}

/** A refusal of record `id` as the answer of the whole call: its label and id, its fields under `data.`. */
function refusalOf(repo: Repository<object>, id: number, e: unknown): unknown {
  if (!(e instanceof ApiError)) return e;
  const data = (e.data ?? {}) as { errors?: FieldError[] } & Json;
  if (!Array.isArray(data.errors))
    return new ApiError(e.code, e.status, e.key ? { key: e.key, params: e.params ?? {} } : e.message, {
      ...data,
      ids: [id],
    });
  const { schemaId } = repo.model;
  return new ApiError(
    e.code,
    e.status,
    msg('record.manyFailed', { label: schemaLabel(schemaId), id: String(id) }),
    { ...data, errors: data.errors.map((f) => underData(schemaId, f, f.field)), ids: [id] },
  );
}

/**
 * Updates every record of `ids` with `data`, all or none (see the module doc); answers the ids.
 * @throws ApiError 404 naming the missing ids; a record's refusal naming its id (see the module doc)
 */
export async function updateMany(
  repo: Repository<object>,
  db: Kysely<any>,
  ids: number[],
  data: Json,
  actor?: WriteActor,
): Promise<{ ids: number[] }> {
  const work = async (trx: Kysely<any>) => {
    const found = await trx.selectFrom(repo.model.table).select('id').where('id', 'in', ids).execute();
    const missing = ids.filter((id) => !found.some((r) => Number(r.id) === id));
    if (missing.length) throw notFound(schemaLabel(repo.model.schemaId), missing.join(', '));
    for (const id of ids)
      try {
        await repo.update(trx, { ...structuredClone(data), id }, actor);
      } catch (e) {
        throw refusalOf(repo, id, e);
      }
    return { ids };
  };
  try {
    return await (db.isTransaction ? work(db) : db.transaction().execute(work));
  } finally {
    repo.totals.clear();
  }
}

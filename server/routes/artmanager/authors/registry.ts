/**
 * The product's author calls beyond CRUD (admin, from schemas/author.schema.json `x-roles`):
 * - `POST /artmanager/authors/addHeadPic`: multipart, text field `id` then the image `file` → the author
 *   with `portrait` set to the stored image. Limits from the schema's `portrait.x-upload` (an image, at most
 *   2 MB), checked by content (server/storage/uploads.ts); 400 naming `id` or `file`, 404 for an unknown id
 *   (nothing stored then).
 * - `POST /artmanager/authors/createWx` `{id}` → the author with a new mini-program code: `wxCode` (`WX` and
 *   16 random hex digits), `wxUrl` = `<origin>/#/verify/author/<id>` (the public verification page; origin
 *   = the request's protocol and host) and `wxIsEnable` 1; `wxCreateTime` is set by the authors' hook.
 * Both write through the authors' repository (the same checks and hooks as `updateInfo`).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { uploadSpecAt } from '../../../../common/fileTypes';
import { MAX_ID, schemas } from '../../../../kernel/dialect/schemaRegistry';
import { idBody } from '../../../ledger/routeHelpers';
import { ok } from '../../../plugins/app/envelope';
import { invalidField } from '../../../errors';
import { receiveUpload } from '../../../storage/uploads';
import { actorOf } from '../../../db/audit';
import multipart from '../../../plugins/external/multipart';

/** A record id from a multipart text field, or 400 naming the field. */
export function idField(fields: Record<string, string>, name: string): number {
  const v = fields[name];
  if (v === undefined) throw invalidField(name, 'required', 'is required (a text field before the file)');
  if (!/^[1-9][0-9]{0,9}$/.test(v) || Number(v) > MAX_ID)
    throw invalidField(name, 'type', `must be an id from 1 to ${MAX_ID}`);
  return Number(v);
}

/** The public page of an author, where the mini-program code leads. */
export const authorPageUrl = (origin: string, id: number) => `${origin}/#/verify/author/${id}`;

export default async function authorRegistryRoutes(app: FastifyInstance) {
  // multipart/form-data parsing (and @fastify/multipart's per-request hooks) only in this context (issue 10).
  await app.register(multipart);
  const schema = schemas.author;
  const onRequest = app.requireRoles(schema['x-roles'] ?? ['admin']);
  const spec = uploadSpecAt(schema, 'portrait')!;

  app.post('/addHeadPic', { onRequest }, async (req) => {
    let id = 0;
    const got = await receiveUpload(app, req, spec, 'authors/portrait', {
      allowPolicy: false,
      check: async (fields) => {
        id = idField(fields, 'id');
        await app.resources.authors.getOne(app.db, id);
      },
    });
    return ok(await app.resources.authors.update(app.db, { id, portrait: got.url }, actorOf(req)));
  });

  app.post<{ Body: { id: number } }>(
    '/createWx',
    {
      onRequest,
      schema: {
        body: idBody,
      },
    },
    async (req) => {
      const { id } = req.body;
      await app.resources.authors.getOne(app.db, id);
      const origin = `${req.protocol}://${req.host}`;
      return ok(
        await app.resources.authors.update(
          app.db,
          {
            id,
            wxCode: `WX${randomBytes(8).toString('hex').toUpperCase()}`,
            wxUrl: authorPageUrl(origin, id),
            wxIsEnable: 1,
          },
          actorOf(req),
        ),
      );
    },
  );
}

/**
 * `POST /artmanager/upload` (admin, or the roles of `?resource=`): one file as multipart/form-data (part
 * `file`, text fields first) → `{ url, size, type }`, served under `/uploads/`. Received by
 * server/storage/uploads.ts (content check, storage, policy):
 * - `?resource=<name>&field=<dotted path>`: the limits of that schema property's `x-upload` (e.g.
 *   `resource=artworks&field=images`: an image of at most 2 MB), stored under `<resource>/<field>/`;
 * - a signed policy (`policy` + `signature` fields from `POST /artmanager/oss/sign`): its limits and dir;
 * - neither: an image of at most UPLOAD_LIMIT_BYTES (default 2 MB, the product's limit), stored at the root (as before).
 */
import type { FastifyInstance } from 'fastify';
import { uploadSpecAt, type UploadSpec } from '../../../../common/fileTypes';
import { resourceSchemas, type ResourceSchema } from '../../../../kernel/dialect/schemaRegistry';
import { ok } from '../../../plugins/app/envelope';
import { invalidField } from '../../../errors';
import { receiveUpload } from '../../../storage/uploads';
import multipart from '../../../plugins/external/multipart';

/** JSON Schema properties naming an upload target (see {@link uploadTarget}): the resource and field. */
export const uploadTargetProperties = {
  resource: { type: 'string', maxLength: 64 },
  field: { type: 'string', maxLength: 200, pattern: '^[A-Za-z0-9_.]+$' },
} as const;

/** `resource` and `field` come together or not at all (JSON Schema `dependencies`). */
export const uploadTargetDependencies = { resource: ['field'], field: ['resource'] } as const;

/**
 * The schema of resource `resource` and the `x-upload` of its property `field`, with the storage dir
 * `<resource>/<field with dots as slashes, lower case>`.
 * @throws 400 naming `resource` (unknown) or `field` (no `x-upload`)
 */
export function uploadTarget(
  resource: string,
  field: string,
): { schema: ResourceSchema; spec: UploadSpec; dir: string } {
  const schema = resourceSchemas().find((s) => s['x-resource']?.name === resource);
  if (!schema) throw invalidField('resource', 'enum', `no resource is named "${resource}"`);
  const spec = uploadSpecAt(schema, field);
  if (!spec) throw invalidField('field', 'x-upload', `${resource}.${field} takes no uploaded file`);
  return { schema, spec, dir: `${resource}/${field.replace(/\./g, '/')}`.toLowerCase() };
}

export default async function uploadRoutes(app: FastifyInstance) {
  // multipart/form-data parsing (and @fastify/multipart's per-request hooks) only in this context (issue 10).
  await app.register(multipart);
  const adminOnly = app.requireRoles(['admin']);
  app.post<{ Querystring: { resource?: string; field?: string } }>(
    '/',
    {
      onRequest: adminOnly,
      schema: {
        querystring: {
          type: 'object',
          properties: uploadTargetProperties,
          dependencies: uploadTargetDependencies,
          additionalProperties: false,
        },
      },
    },
    async (req) => {
      const { resource, field } = req.query;
      const target = resource && field ? uploadTarget(resource, field) : undefined;
      const spec: UploadSpec = target?.spec ?? { types: ['image'], maxSize: app.config.uploadLimitBytes };
      const got = await receiveUpload(app, req, spec, target?.dir ?? '');
      return ok({ url: got.url, size: got.size, type: got.kind.mime });
    },
  );
}

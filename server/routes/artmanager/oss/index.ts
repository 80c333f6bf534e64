/**
 * The product's upload-signing calls (after Alibaba OSS), on the local BlobStore (server/storage/):
 * - `POST /artmanager/oss/sign` (admin) `{ resource?, field?, dir?, types?, maxSize?, expiresIn? }` →
 *   `{ host, dir, policy, signature, expire, types, maxSize }`: a policy signed with HMAC-SHA256 over its
 *   dir, size limit, file type groups and expiry (server/storage/uploads.ts). With `resource` + `field` the
 *   limits and dir are those of the schema property's `x-upload` (a client cannot widen them); otherwise
 *   `types` (default `["image"]`), `maxSize` (default UPLOAD_LIMIT_BYTES, at most 10 MiB) and `dir`
 *   (default `oss`). `expiresIn`: seconds, 1..3600, default 600. `host` is the upload call to send the file
 *   to, with `policy` and `signature` as text fields before the file.
 * - `GET /artmanager/oss/dir{suffix}` (admin): the objects and sub-directories directly under the prefix
 *   `suffix` (`/artmanager/oss/dir` = the root, `/artmanager/oss/dir/artworks/images` = that prefix) →
 *   `{ list: [{ key, name, dir, size, updateTime, url }], total }`; 400 naming `dir` for an invalid prefix.
 */
import type { FastifyInstance } from 'fastify';
import { FILE_GROUPS, type FileGroup } from '../../../../common/fileTypes';
import { ok } from '../../../plugins/app/envelope';
import { invalidField } from '../../../errors';
import { isValidKey } from '../../../storage/blobStore';
import { MAX_UPLOAD_BYTES, signPolicy } from '../../../storage/uploads';
import { uploadTarget, uploadTargetDependencies, uploadTargetProperties } from '../upload/index';
import { NO_QUERY } from '../../../../kernel/server/validation';

interface SignBody {
  resource?: string;
  field?: string;
  dir?: string;
  types?: FileGroup[];
  maxSize?: number;
  expiresIn?: number;
}

export default async function ossRoutes(app: FastifyInstance) {
  const onRequest = app.requireRoles(['admin']);
  app.post<{ Body: SignBody }>(
    '/sign',
    {
      onRequest,
      schema: {
        body: {
          type: 'object',
          properties: {
            ...uploadTargetProperties,
            dir: { type: 'string', maxLength: 200, pattern: '^[a-z0-9_][a-z0-9_./-]*$' },
            types: {
              type: 'array',
              items: { type: 'string', enum: [...FILE_GROUPS] },
              minItems: 1,
              uniqueItems: true,
            },
            maxSize: { type: 'integer', minimum: 1, maximum: MAX_UPLOAD_BYTES },
            expiresIn: { type: 'integer', minimum: 1, maximum: 3600 },
          },
          dependencies: uploadTargetDependencies,
          additionalProperties: false,
        },
      },
    },
    async (req) => {
      const b = req.body ?? {};
      const target = b.resource && b.field ? uploadTarget(b.resource, b.field) : undefined;
      if (target && (b.types || b.maxSize || b.dir))
        throw invalidField('types', 'not', 'resource + field fix the types, maxSize and dir; send neither');
      const dir = target?.dir ?? b.dir?.replace(/\/+$/, '') ?? 'oss';
      if (!isValidKey(dir, { prefix: true }))
        throw invalidField('dir', 'pattern', 'is not a valid directory');
      const types = target?.spec.types ?? b.types ?? ['image'];
      const maxSize = target?.spec.maxSize ?? b.maxSize ?? app.config.uploadLimitBytes;
      const expire = Math.floor(Date.now() / 1000) + (b.expiresIn ?? 600);
      const signed = signPolicy({ dir, types, maxSize, expire }, app.uploadSecret);
      return ok({ host: '/artmanager/upload', dir, ...signed, expire, types, maxSize });
    },
  );

  const list = async (suffix: string) => {
    const prefix = suffix.replace(/^\/+|\/+$/g, '');
    if (!isValidKey(prefix, { prefix: true }))
      throw invalidField('dir', 'pattern', `"${suffix}" is not a valid directory`);
    const entries = await app.storage.list(prefix);
    return ok({ list: entries, total: entries.length });
  };
  app.get('/dir', { onRequest, schema: { querystring: NO_QUERY } }, async () => list(''));
  app.get<{ Params: { '*': string } }>(
    '/dir/*',
    { onRequest, schema: { querystring: NO_QUERY } },
    async (req) => list(req.params['*']),
  );
}

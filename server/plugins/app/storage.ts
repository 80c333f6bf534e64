/**
 * The storage plugin: decorates `app.storage`, the BlobStore of uploaded files (server/storage/blobStore.ts:
 * the local disk under `<DATA_DIR>/uploads`, the database's `upload_blob` table or an S3 bucket, as
 * `UPLOAD_STORE` says; server/storage/storeConfig.ts), and `app.uploadSecret`, the key of signed upload
 * policies (server/storage/uploads.ts).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../storage/blobStore';
import { defaultKind, openStore } from '../../storage/storeConfig';
import { uploadSecret } from '../../storage/uploads';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where uploaded files are stored. */
    storage: BlobStore;
    /** HMAC key of upload policies. */
    uploadSecret: Buffer;
  }
}

export default fp(async function storage(app: FastifyInstance) {
  const kind = app.config.uploadStore ?? defaultKind(app.dialect);
  app.decorate('storage', openStore(kind, { dataDir: app.config.dataDir, db: app.db, s3: app.config.s3 }));
  app.decorate('uploadSecret', uploadSecret(app.config.dataDir));
});

/**
 * The storage plugin: decorates `app.storage`, the BlobStore of uploaded files (server/storage/blobStore.ts;
 * today the local disk under `<DATA_DIR>/uploads`), and `app.uploadSecret`, the key of signed upload
 * policies (server/storage/uploads.ts).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { join } from 'node:path';
import { LocalDiskStore, type BlobStore } from '../../storage/blobStore';
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
  app.decorate('storage', new LocalDiskStore(join(app.config.dataDir, 'uploads')));
  app.decorate('uploadSecret', uploadSecret(app.config.dataDir));
});

/**
 * `POST /artmanager/upload` (admin): one image as multipart/form-data → `{ url }`, served under `/uploads/`.
 * The type is checked by content (magic numbers: JPEG FF D8 FF, PNG 89 50 4E 47, GIF "GIF8", WebP
 * "RIFF....WEBP"), not by the name the client sent; the size limit is UPLOAD_LIMIT_BYTES (default 5 MB).
 * Files are stored under `<DATA_DIR>/uploads/<sha256>.<ext>`, so the same image uploaded twice is one file.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../../plugins/app/envelope';
import { invalidField } from '../../../plugins/app/errors';
import { multipartError } from '../../../plugins/external/multipart';

/** The image extension for `bytes`, from its magic number, or null when it is not an accepted image. */
export function imageKind(bytes: Buffer): 'jpg' | 'png' | 'gif' | 'webp' | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString('latin1'))) return 'gif';
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  return null;
}

export default async function uploadRoutes(app: FastifyInstance) {
  app.post('/', { onRequest: app.requireRoles(['admin']) }, async (req) => {
    const file = await req.file({ limits: { fileSize: app.config.uploadLimitBytes, files: 1 } });
    if (!file) throw invalidField('file', 'required', 'send one image as multipart/form-data');
    const bytes = await file.toBuffer().catch((err: Error & { code?: string }) => {
      if (err.code === 'FST_REQ_FILE_TOO_LARGE')
        throw invalidField('file', 'maxSize', `must be at most ${app.config.uploadLimitBytes} bytes`, {
          limit: app.config.uploadLimitBytes,
        });
      throw multipartError(err, file.fieldname) ?? err;
    });
    const kind = imageKind(bytes);
    if (!kind) throw invalidField('file', 'imageType', 'must be a JPEG, PNG, GIF or WebP image', {});
    const name = `${createHash('sha256').update(bytes).digest('hex')}.${kind}`;
    const dir = join(app.config.dataDir, 'uploads');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, name), bytes);
    return ok({ url: `/uploads/${name}` });
  });
}

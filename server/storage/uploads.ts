/**
 * Receiving an upload, for every upload call (the generic `POST /artmanager/upload`, `authors/addHeadPic`,
 * `artwork/addPicture`, `traceability/addTraceabilityCert`): one multipart/form-data request with text
 * fields and ONE file part named `file` (text fields first, as Alibaba OSS PostObject requires).
 *
 * The limits are an {@link UploadSpec}: `{ types, maxSize }` from the schema property's `x-upload`
 * (common/fileTypes.ts `uploadSpecAt`), or from a signed upload policy (below) when the request carries one.
 * The file is recognised by content (`detectFileKind`), refused (400 naming `file`) when it is none of the
 * spec's groups or larger than `maxSize`, then stored in the app's BlobStore under
 * `<dir>/<sha256 of the bytes>.<ext>` (the same file uploaded twice is one object).
 *
 * Upload policy (`POST /artmanager/oss/sign`, after Alibaba OSS's PostObject policy): `policy` is the
 * base64url of the JSON `{ dir, types, maxSize, expire }` (`expire`: Unix seconds) and `signature` the
 * base64url HMAC-SHA256 of the `policy` text under the server's upload secret (`UPLOAD_SECRET`, else the
 * file `<DATA_DIR>/upload-secret`, 32 random bytes created on first use, mode 0600). An upload sending
 * `policy` must send `signature`; an altered policy (signature mismatch, 400 `signature`), an expired one
 * (400 `policy`, keyword `expired`) or a file past its `maxSize` or types is refused.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  accepts,
  detectFileKind,
  FILE_GROUPS,
  formatBytes,
  type FileGroup,
  type FileKind,
  type UploadSpec,
} from '../../common/fileTypes';
import { invalidField } from '../errors';
import { multipartError } from './multipartError';
import { isValidKey } from './blobStore';

/** Largest file any upload call reads (the multipart plugin's own limit is the same 10 MiB). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** A signed upload policy's content. */
export interface UploadPolicy {
  /** Storage prefix the file goes under (a BlobStore key prefix). */
  dir: string;
  types: FileGroup[];
  /** Bytes. */
  maxSize: number;
  /** Unix seconds. */
  expire: number;
}

/** The upload secret (see the module doc): `UPLOAD_SECRET`, else `<dataDir>/upload-secret`, created once. */
export function uploadSecret(dataDir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  if (env.UPLOAD_SECRET) return Buffer.from(env.UPLOAD_SECRET, 'utf8');
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'upload-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'utf8');
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

/** `{ policy, signature }` of `p` under `secret` (see the module doc). */
export function signPolicy(p: UploadPolicy, secret: Buffer): { policy: string; signature: string } {
  const policy = b64url(JSON.stringify(p));
  return { policy, signature: b64url(createHmac('sha256', secret).update(policy).digest()) };
}

/**
 * The policy `policy` carries when `signature` is its signature under `secret` and it has not expired.
 * @throws 400 naming `signature` (missing or not matching), or `policy` (unreadable, or expired)
 */
export function verifyPolicy(
  policy: string,
  signature: string | undefined,
  secret: Buffer,
  now = Date.now(),
): UploadPolicy {
  if (!signature) throw invalidField('signature', 'required', 'an upload with a policy needs its signature');
  const expected = createHmac('sha256', secret).update(policy).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw invalidField('signature', 'signature', 'does not match the policy (altered or not signed here)');
  let p: UploadPolicy;
  try {
    p = JSON.parse(Buffer.from(policy, 'base64url').toString('utf8')) as UploadPolicy;
  } catch {
    throw invalidField('policy', 'format', 'is not a base64url JSON policy');
  }
  if (typeof p.expire !== 'number' || p.expire * 1000 <= now)
    throw invalidField('policy', 'expired', `expired at ${new Date(p.expire * 1000).toISOString()}`, {
      expire: p.expire,
    });
  if (
    !isValidKey(p.dir, { prefix: true }) ||
    !Array.isArray(p.types) ||
    !p.types.every((t) => (FILE_GROUPS as readonly string[]).includes(t)) ||
    typeof p.maxSize !== 'number'
  )
    throw invalidField('policy', 'format', 'has no valid dir, types and maxSize');
  return p;
}

/** One received, checked and stored upload. */
export interface ReceivedUpload {
  url: string;
  kind: FileKind;
  /** Bytes. */
  size: number;
  /** The request's text fields (those sent before the file). */
  fields: Record<string, string>;
}

/** `words` with their indefinite article: "an image", "an mp3", "a pdf" (by the first letter's sound). */
const withArticle = (words: string) => `${/^(?:[aeio]|m(?:p|kv|2v)|xls)/i.test(words) ? 'an' : 'a'} ${words}`;

/** The message naming the allowed groups, e.g. "must be an image or pdf file (checked by content)". */
const typeMessage = (types: string[]) =>
  `must be ${withArticle(types.length === 1 ? types[0] : `${types.slice(0, -1).join(', ')} or ${types.at(-1)}`)} file (checked by content)`;

/**
 * Reads the multipart request `req`, checks its file against `spec` (or the signed policy it carries when
 * `allowPolicy`) and stores it under `dir` (a policy's own `dir` wins). See the module doc.
 * @throws 400 naming `file` (missing, too large: params `{limit}`, wrong type: params `{types}`), or the
 *   policy's fields; a malformed body as multipartError says
 */
export async function receiveUpload(
  app: FastifyInstance,
  req: FastifyRequest,
  spec: UploadSpec,
  dir: string,
  {
    allowPolicy = true,
    check,
  }: {
    allowPolicy?: boolean;
    /** Runs once the file is read and checked, before it is stored (e.g. the record exists): may throw. */
    check?: (fields: Record<string, string>) => Promise<void>;
  } = {},
): Promise<ReceivedUpload> {
  const fields: Record<string, string> = {};
  let file: { bytes: Buffer; filename: string } | undefined;
  let limits = spec;
  let target = dir;
  try {
    for await (const part of req.parts({ limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20 } })) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file') {
        await part.toBuffer();
        throw invalidField(part.fieldname, 'unknown', 'only one file part, named "file", is read');
      }
      if (allowPolicy && fields.policy !== undefined) {
        const p = verifyPolicy(fields.policy, fields.signature, app.uploadSecret);
        limits = { types: p.types, maxSize: Math.min(p.maxSize, MAX_UPLOAD_BYTES) };
        target = p.dir;
      }
      const bytes = await part.toBuffer().catch((err: Error & { code?: string }) => {
        if (err.code === 'FST_REQ_FILE_TOO_LARGE') return null;
        throw multipartError(err, 'file') ?? err;
      });
      if (!bytes || bytes.length > limits.maxSize)
        throw invalidField('file', 'maxSize', `must be at most ${formatBytes(limits.maxSize)}`, {
          limit: limits.maxSize,
        });
      file = { bytes, filename: part.filename };
    }
  } catch (err) {
    throw multipartError(err) ?? err;
  }
  if (!file) throw invalidField('file', 'required', 'send one file as multipart/form-data (part "file")');
  const kind = detectFileKind(file.bytes, file.filename);
  if (!kind || !accepts(limits, kind))
    throw invalidField(
      'file',
      'fileType',
      typeMessage(limits.formats ?? limits.types),
      limits.formats ? { types: limits.types, formats: limits.formats } : { types: limits.types },
    );
  await check?.(fields);
  const name = `${createHash('sha256').update(file.bytes).digest('hex')}.${kind.ext}`;
  const { url } = await app.storage.put(target ? `${target}/${name}` : name, file.bytes, kind.mime);
  return { url, kind, size: file.bytes.length, fields };
}

/**
 * `multipartError` (below the plugins: storage/uploads.ts, the envelope plugin and the upload routes use it)
 * turns the parser's failures on a malformed body into the envelope's 400 (never a 500):
 * busboy (@fastify/busboy) throws plain `Error`s without a code, so they are recognized by their messages
 * ("Multipart: Boundary not found" / "Boundary required" when Content-Type has no `boundary=` parameter,
 * "Unexpected end of multipart data" when the body stops before its closing boundary, and "Part
 * terminated early due to unexpected end of multipart data" when it stops inside a part). The envelope
 * plugin maps any such error that a route lets through; a route that knows which part it was reading
 * passes the part's name so the error names it.
 */
import { Codes } from '../../common/envelope';
import { msg } from '../../common/messages/index';
import { ApiError, invalidField } from '../errors';

/**
 * The 400 `ApiError` for a malformed multipart body, or undefined when `err` is not one.
 * - no boundary → field `Content-Type`, keyword `boundary`;
 * - truncated body → field `part` (the part being read, or "" when unknown), keyword `multipart`.
 * An `ApiError` passed in is returned unchanged.
 */
export function multipartError(err: unknown, part = ''): ApiError | undefined {
  if (err instanceof ApiError) return err;
  const message = (err as { message?: unknown } | null)?.message;
  if (typeof message !== 'string') return undefined;
  if (message === 'Multipart: Boundary not found' || message === 'Boundary required')
    return invalidField(
      'Content-Type',
      'boundary',
      'multipart/form-data needs a boundary parameter (e.g. "multipart/form-data; boundary=x")',
    );
  if (
    message === 'Unexpected end of multipart data' ||
    message === 'Part terminated early due to unexpected end of multipart data'
  ) {
    const text = 'the multipart body ends before its closing boundary (truncated upload)';
    if (part) return invalidField(part, 'multipart', text);
    return new ApiError(Codes.INVALID, 400, msg('request.fields'), {
      errors: [{ field: '', keyword: 'multipart', params: {}, message: text }],
    });
  }
  return undefined;
}

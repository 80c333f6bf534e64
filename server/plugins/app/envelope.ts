/**
 * The envelope plugin: every error becomes `{ code, msg, data }` with a meaningful HTTP status
 * (see common/envelope.ts `Codes` and docs/api.md): ajv validation errors → 400 with `data.errors`
 * (FieldError[]), a malformed JSON body or a forbidden key in it (`__proto__`) → 400 naming it
 * (jsonBody.ts), a malformed multipart body → 400 naming the header or part (external/multipart.ts),
 * `ApiError` as thrown, an upload call that is not multipart → 406 and a Content-Type no parser reads → 415
 * (both naming `Content-Type`), a body over the limit → 413, rate limiting → 429, unknown route → 404,
 * anything else → 500 (logged, message hidden). Errors Node's HTTP parser raises before Fastify sees a
 * request (e.g. headers or URL over Node's 16 KiB `maxHeaderSize` → 431) leave in the same envelope
 * through `clientErrorHandler`, passed to Fastify in server/app.ts. Routes answer success with `ok(data)`.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import type { ConnectionError, FastifyError, FastifyInstance } from 'fastify';
import { Codes, type Envelope } from '../../../common/envelope';
import { formatErrors } from '../../../common/schemaRegistry';
import { multipartError } from '../external/multipart';
import { ApiError, invalidField } from './errors';
import { decodeUtf8, parseJsonBody } from './jsonBody';

/** The success envelope. */
export function ok<T>(data: T, msg = 'success'): Envelope<T> {
  return { code: Codes.OK, msg, data };
}

/**
 * Fastify's `clientErrorHandler` (server/app.ts): answers, in the envelope, the errors Node's HTTP parser
 * raises on a socket before any request exists, then closes the socket. `HPE_HEADER_OVERFLOW` → 431 (the
 * request line with its query, or the headers, exceed Node's `maxHeaderSize`, 16 KiB by default; `data`
 * says which, from the bytes received), `ERR_HTTP_REQUEST_TIMEOUT` → 408, anything else → 400. A reset
 * connection gets nothing (as Fastify's default handler).
 */
export function clientErrorHandler(err: ConnectionError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let msg = 'Malformed HTTP request';
  let data: unknown = null;
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    // The request line ends at the first CRLF; when it is not within the bytes received, it is the URL
    // (path and query) that is too long.
    const packet: unknown = err.rawPacket;
    const raw = Buffer.isBuffer(packet) ? packet.toString('latin1') : '';
    const lineEnd = raw.indexOf('\r\n');
    const part = lineEnd < 0 || lineEnd > raw.length / 2 ? 'url' : 'headers';
    msg =
      part === 'url'
        ? 'The URL (path and query) is too long: the request line and headers must fit in 16 KiB'
        : 'The request headers are too large: the request line and headers must fit in 16 KiB';
    data = {
      part,
      errors: [{ field: '', keyword: 'maxHeaderSize', params: { part, limit: 16384 }, message: msg }],
    };
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    msg = 'The request was not received in time';
  }
  const body = JSON.stringify({ code: status, msg, data });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  socket.destroy();
}

export default fp(async function envelope(app: FastifyInstance) {
  // JSON bodies: Fastify's rules, with errors that name the fault (jsonBody.ts).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(decodeUtf8(body as Buffer)));
    } catch (err) {
      done(err as Error, undefined);
    }
  });

  app.setErrorHandler((error: FastifyError & { validationContext?: string }, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.status).send({ code: error.code, msg: error.message, data: error.data });
    }
    const mapped = multipartError(error);
    if (mapped) {
      return reply.status(mapped.status).send({ code: mapped.code, msg: mapped.message, data: mapped.data });
    }
    if (
      error.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' ||
      error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
    ) {
      const status = error.statusCode ?? 415;
      const e = invalidField(
        'Content-Type',
        'contentType',
        status === 406
          ? 'this call takes multipart/form-data'
          : `"${request.headers['content-type'] ?? ''}" is not accepted (send application/json)`,
      );
      return reply.status(status).send({ code: status, msg: e.message, data: e.data });
    }
    if (error.validation) {
      const part = error.validationContext === 'querystring' ? 'query' : (error.validationContext ?? 'body');
      const errors = formatErrors(error.validation as any);
      const msg = `Invalid ${part}: ${errors.map((e) => e.message).join('; ')}`;
      return reply.status(400).send({ code: Codes.INVALID, msg, data: { errors } });
    }
    if (error.statusCode === 413) {
      const limit = app.initialConfig.bodyLimit;
      const message = `body: must be at most ${limit} bytes`;
      return reply.status(413).send({
        code: 413,
        msg: error.message,
        data: { errors: [{ field: '', keyword: 'maxBodyLength', params: { limit }, message }] },
      });
    }
    if (error.statusCode === 429) {
      return reply.status(429).send({ code: Codes.RATE_LIMITED, msg: error.message, data: null });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send({ code: error.statusCode, msg: error.message, data: null });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ code: Codes.INTERNAL, msg: 'Internal server error', data: null });
  });
});

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
 *
 * Every error envelope carries the message's stable `key` and its `params` (common/messages) besides `msg`;
 * `msg` is rendered in the language the request's `Accept-Language` prefers (en or zh, else en). An
 * `ApiError` thrown with plain text (no key) keeps its text and gets no key.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import type { ConnectionError, FastifyError, FastifyInstance } from 'fastify';
import { Codes, type Envelope } from '../../../common/envelope';
import { formatErrors } from '../../../kernel/dialect/schemaRegistry';
import { multipartError } from '../../storage/multipartError';
import { ApiError, invalidField } from '../../errors';
import { languageOf, msg, renderMessage, type Message } from '../../../common/messages/index';
import { decodeUtf8, parseJsonBody } from './jsonBody';
import { LedgerError } from '../../../common/ledger/types';

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
  let message = msg('request.malformed');
  let data: unknown = null;
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    // The request line ends at the first CRLF; when it is not within the bytes received, it is the URL
    // (path and query) that is too long.
    const packet: unknown = err.rawPacket;
    const raw = Buffer.isBuffer(packet) ? packet.toString('latin1') : '';
    const lineEnd = raw.indexOf('\r\n');
    const part = lineEnd < 0 || lineEnd > raw.length / 2 ? 'url' : 'headers';
    message = msg(part === 'url' ? 'request.urlTooLong' : 'request.headersTooLarge');
    const text = renderMessage('en', message);
    data = {
      part,
      errors: [{ field: '', keyword: 'maxHeaderSize', params: { part, limit: 16384 }, message: text }],
    };
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    message = msg('request.timeout');
  }
  // No request exists yet, so no Accept-Language: the message is in English; the key lets the console translate it.
  const body = JSON.stringify({ code: status, msg: renderMessage('en', message), data, ...message });
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
    const lang = languageOf(request.headers['accept-language']);
    /** Sends the envelope of `message` (its `msg` in the request's language). */
    const send = (status: number, code: number, message: Message, data: unknown = null) =>
      reply.status(status).send({
        code,
        msg: renderMessage(lang, { ...message, data }),
        data,
        key: message.key,
        params: message.params,
      });
    if (error instanceof ApiError) {
      if (error.key)
        return send(error.status, error.code, { key: error.key, params: error.params ?? {} }, error.data);
      return reply.status(error.status).send({ code: error.code, msg: error.message, data: error.data });
    }
    if (error instanceof LedgerError && error.code === 'halted')
      return send(503, 503, msg('ledger.halted', { reason: error.message }), { reason: error.message });
    const mapped = multipartError(error);
    if (mapped)
      return send(mapped.status, mapped.code, { key: mapped.key!, params: mapped.params ?? {} }, mapped.data);
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
      return send(status, status, { key: e.key!, params: e.params ?? {} }, e.data);
    }
    if (error.validation) {
      const part = error.validationContext ?? 'body';
      const errors = formatErrors(error.validation as any);
      const routeSchema = request.routeOptions.schema as
        Record<string, { $ref?: unknown } | undefined> | undefined;
      const ref = routeSchema?.[part]?.$ref;
      const params: Record<string, unknown> = { part };
      if (typeof ref === 'string') params.schema = ref;
      return send(400, Codes.INVALID, msg('request.invalid', params), { errors });
    }
    if (error.statusCode === 413) {
      const limit = app.initialConfig.bodyLimit;
      const message = `body: must be at most ${limit} bytes`;
      return send(413, 413, msg('request.bodyTooLarge'), {
        errors: [{ field: '', keyword: 'maxBodyLength', params: { limit }, message }],
      });
    }
    if (error.statusCode === 429) {
      // @fastify/rate-limit says "Rate limit exceeded, retry in <after>".
      const after = /retry in (.+)$/.exec(error.message)?.[1] ?? '1 minute';
      return send(429, Codes.RATE_LIMITED, msg('request.rateLimited', { after }));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send({
        code: error.statusCode,
        msg: error.message,
        data: null,
        key: 'request.failed',
        params: { status: error.statusCode },
      });
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(500, Codes.INTERNAL, msg('server.internal'));
  });
});

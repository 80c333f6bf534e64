/**
 * The envelope plugin: every error becomes `{ code, msg, data }` with a meaningful HTTP status
 * (see common/envelope.ts `Codes`): ajv validation errors → 400 with `data.errors` (FieldError[]),
 * malformed JSON → 400, `ApiError` as thrown, rate limiting → 429, unknown route → 404, anything else → 500
 * (logged, message hidden). Routes answer success with `ok(data)`.
 */
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance } from 'fastify';
import { Codes, type Envelope } from '../../../common/envelope';
import { formatErrors } from '../../../common/schemaRegistry';
import { ApiError } from './errors';

/** The success envelope. */
export function ok<T>(data: T, msg = 'success'): Envelope<T> {
  return { code: Codes.OK, msg, data };
}

export default fp(async function envelope(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError & { validationContext?: string }, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.status).send({ code: error.code, msg: error.message, data: error.data });
    }
    if (error.validation) {
      const part = error.validationContext === 'querystring' ? 'query' : (error.validationContext ?? 'body');
      const errors = formatErrors(error.validation as any);
      const msg = `Invalid ${part}: ${errors.map((e) => e.message).join('; ')}`;
      return reply.status(400).send({ code: Codes.INVALID, msg, data: { errors } });
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

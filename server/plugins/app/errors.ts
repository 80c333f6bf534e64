/**
 * `ApiError`: thrown by routes and repositories, turned into the envelope `{code, msg, data}` with the
 * matching HTTP status by the envelope plugin.
 */
import { Codes, type FieldError } from '../../../common/envelope';

export class ApiError extends Error {
  constructor(
    /** Envelope code (common/envelope.ts `Codes`). */
    public readonly code: number,
    /** HTTP status. */
    public readonly status: number,
    message: string,
    public readonly data: unknown = null,
  ) {
    super(message);
  }
}

/** 400 with one field at fault; `keyword` names the rule (e.g. `reference`, `unique`). */
export function invalidField(
  field: string,
  keyword: string,
  message: string,
  params: Record<string, unknown> = {},
) {
  const errors: FieldError[] = [{ field, keyword, params, message: `${field}: ${message}` }];
  return new ApiError(Codes.INVALID, 400, `${field}: ${message}`, { errors });
}

export const notFound = (what: string, id: unknown) =>
  new ApiError(Codes.NOT_FOUND, 404, `${what} ${String(id)} does not exist`);

export const conflict = (message: string, data: unknown = null) =>
  new ApiError(Codes.CONFLICT, 409, message, data);

/**
 * The platform API's response envelope, shared by server and console.
 *
 * Every response body is `{ code, msg, data }`. `code` 0 is success; the console also accepts 200 and a
 * body with `state: "OK"` (older endpoints of the product answer that way). Failure codes below travel
 * with a matching HTTP status. A failure also carries `key` and `params`: the stable message key of
 * common/messages (en.ts, zh.ts) and its parameters; `msg` is that message in the language of the
 * request's `Accept-Language` (en when it asks for neither en nor zh), and the console renders the key in
 * its own current language (src/dataProvider/httpClient.ts).
 */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
  /** Message key of a failure (common/messages/en.ts); absent on success and on untranslated messages. */
  key?: string;
  /** The message's parameters (a `{ en, zh }` value is a text in each language). */
  params?: Record<string, unknown>;
}

/** Envelope codes. `TOKEN_INVALID` (2) is what the console turns into its "logged out" dialog. */
export const Codes = {
  OK: 0,
  /** A token was sent but is expired, revoked or unknown (HTTP 401). */
  TOKEN_INVALID: 2,
  /** Invalid input: data.errors lists every field at fault (HTTP 400). */
  INVALID: 400,
  /** No token sent, or bad username/password (HTTP 401). */
  UNAUTHENTICATED: 401,
  /** The token's roles do not allow the call (HTTP 403). */
  FORBIDDEN: 403,
  /** Unknown id or path (HTTP 404). */
  NOT_FOUND: 404,
  /** The call conflicts with stored state, e.g. deleting an author who still has works (HTTP 409). */
  CONFLICT: 409,
  /** Too many requests (HTTP 429). */
  RATE_LIMITED: 429,
  /** Unexpected server failure (HTTP 500). */
  INTERNAL: 500,
  /** Not ready to serve: a readiness check failed (HTTP 503, `GET /readyz`). */
  UNAVAILABLE: 503,
} as const;

/** One field at fault, as carried in `data.errors` of a code-400 envelope. */
export interface FieldError {
  /** Dotted path of the field, e.g. `artWorkName` or `baseInfo.size` or `images` ("" for the whole body). */
  field: string;
  /** The JSON Schema keyword that failed, e.g. `x-maxWidth`, `required`, `type`, `additionalProperties`. */
  keyword: string;
  /** The keyword's parameters (limit, width, missingProperty, additionalProperty, type, ...). */
  params: Record<string, unknown>;
  /** English message that names the field. The console translates from keyword + params instead. */
  message: string;
  /**
   * The field's label in each language, when no registry schema labels it (a contract's parameter, labelled
   * by its template's `paramsSchema`, kernel/server/schemaFrom.ts): messages name the field by it.
   */
  label?: { en: string; zh: string };
}

/** `data` of a list call: one page of rows and the total matching the filters. */
export interface ListData<T> {
  list: T[];
  total: number;
}

/** True when an envelope body means success: code 0 or 200, or `state: "OK"`. */
export function isSuccess(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const b = body as { code?: unknown; state?: unknown };
  return b.code === 0 || b.code === 200 || b.state === 'OK';
}

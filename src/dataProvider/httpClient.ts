/**
 * The console's HTTP transport: a `fetchJson`-like function (same call shape as react-admin's
 * `fetchUtils.fetchJson`) that speaks the platform envelope `{code, msg, data}` (common/envelope.ts).
 *
 * - Sends the token from the `Admin-Token` cookie in the `X-Token` header (docs/api.md), and this tab's id
 *   in `X-Client-Id` (src/live/clientId.ts: the live record events tell the tab its own saves).
 * - JSON-encodes nothing itself: callers pass `body` as a JSON string (sent with
 *   `Content-Type: application/json`) or as `FormData` (multipart uploads).
 * - Resolves `{ status, headers, body, json }` when the envelope means success (`isSuccess`: code 0 or
 *   200, or `state: "OK"`), whatever the HTTP status.
 * - Sends `Accept-Language` with the console's language (the `language` cookie, else the browser's), so
 *   the server's `msg` is in it too.
 * - Otherwise rejects with react-admin's `HttpError(message, status, body)`: `message` is the envelope's
 *   message key rendered in the console's current language (common/messages `renderMessage`; the
 *   envelope's `msg` when it has no key), what react-admin's notifications show; `body` is the envelope plus
 *   `errors`: `{ [field]: serialized {message, args} }` built from `data.errors` (FieldError[]), which
 *   react-admin's forms show under each field, translated (src/i18n/validation.ts). An envelope without
 *   any message rejects with "error" (the product's text, spec §8); a body that is not JSON rejects with
 *   the HTTP status text (a network or HTTP failure shows its own message).
 */
import Cookies from 'js-cookie';
import { HttpError } from 'ra-core';
import { isSuccess, type Envelope, type FieldError } from '../../common/envelope';
import { messageForFieldError, serializeMessage } from '../i18n/validation';
import { languageOf, type Language } from '../../common/messages/language';
import { CLIENT_ID, CLIENT_ID_HEADER } from '../live/clientId';

/** Name of the cookie that holds the session token (as the product has it). */
export const TOKEN_COOKIE = 'Admin-Token';

export interface HttpOptions {
  method?: 'GET' | 'POST';
  body?: string | FormData;
  headers?: Record<string, string>;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: string;
  json: Envelope<T>;
}

/** A fetchJson-like transport; the dataProvider and authProvider take one so tests can inject a fake. */
export type HttpClient = <T = unknown>(url: string, options?: HttpOptions) => Promise<HttpResponse<T>>;

/** The body of an HttpError raised for a failed envelope. */
export interface EnvelopeErrorBody extends Envelope<unknown> {
  /** Per-field messages for react-admin forms (dotted field paths as keys); absent when none. */
  errors?: Record<string, string>;
}

/** Reads the session token from its cookie (undefined when logged out). */
export function getToken(): string | undefined {
  return Cookies.get(TOKEN_COOKIE);
}

/** The `errors` map react-admin forms read from a rejected save, from an envelope's `data.errors`. */
export function fieldErrorsOf(envelope: Envelope<unknown>): Record<string, string> | undefined {
  const list = (envelope.data as { errors?: FieldError[] } | null)?.errors;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const e of list) {
    const field = e.field || '_';
    if (!(field in out)) out[field] = serializeMessage(messageForFieldError(e));
  }
  return out;
}

/** The `language` cookie the console's language switch writes (src/i18n/index.ts `LANGUAGE_COOKIE`). */
const LANGUAGE_COOKIE = 'language';

/** The console's current language: the `language` cookie, else the browser's languages, else en. */
export function consoleLanguage(): Language {
  const cookie = Cookies.get(LANGUAGE_COOKIE);
  if (cookie) return languageOf(cookie);
  if (typeof navigator === 'undefined') return 'en';
  return languageOf([...(navigator.languages ?? []), navigator.language].filter(Boolean).join(','));
}

/** What a refusal whose envelope has no `msg` shows (the product's `Message({message: msg || 'error'})`). */
export const REFUSAL_WITHOUT_MESSAGE = 'error';

/** Requests are abandoned after 60 s (the product's axios timeout), with an HttpError saying so. */
export const REQUEST_TIMEOUT_MS = 60_000;

/**
 * Builds the transport.
 * @param deps.fetch the fetch implementation (default: global fetch)
 * @param deps.token where the token comes from (default: the `Admin-Token` cookie)
 * @param deps.timeoutMs how long a request may take (default REQUEST_TIMEOUT_MS)
 * @param deps.language the console's language (default {@link consoleLanguage})
 */
export function createHttpClient(
  deps: {
    fetch?: typeof fetch;
    token?: () => string | undefined;
    timeoutMs?: number;
    language?: () => Language;
  } = {},
): HttpClient {
  const language = deps.language ?? consoleLanguage;
  const timeoutMs = deps.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const doFetch = deps.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const token = deps.token ?? getToken;
  return async <T>(url: string, options: HttpOptions = {}) => {
    const headers = new Headers({ Accept: 'application/json', ...options.headers });
    if (typeof options.body === 'string' && !headers.has('Content-Type'))
      headers.set('Content-Type', 'application/json');
    const lang = language();
    if (!headers.has('Accept-Language')) headers.set('Accept-Language', lang);
    const t = token();
    if (t) headers.set('X-Token', t);
    if (!headers.has(CLIENT_ID_HEADER)) headers.set(CLIENT_ID_HEADER, CLIENT_ID);
    let response: Response;
    try {
      response = await doFetch(url, {
        method: options.method ?? 'GET',
        headers,
        body: options.body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      if ((err as Error).name !== 'TimeoutError') throw err;
      const msg = `No answer from the server within ${timeoutMs / 1000} s`;
      throw new HttpError(msg, 0, { code: 0, msg, data: null, timeout: true });
    }
    const text = await response.text();
    let json: Envelope<T>;
    try {
      json = JSON.parse(text) as Envelope<T>;
    } catch {
      throw new HttpError(response.statusText || `HTTP ${response.status}`, response.status, {
        code: response.status,
        msg: text,
        data: null,
      });
    }
    if (isSuccess(json)) return { status: response.status, headers: response.headers, body: text, json };
    const body: EnvelopeErrorBody = { ...json };
    const errors = fieldErrorsOf(json);
    if (errors) body.errors = errors;
    // The catalogues and the schemas' field labels load with the first refusal (not with the login page).
    const { renderMessage } = await import('../../common/messages/index');
    // A refusal without a message says "error", as the product's request interceptor does (spec §8).
    const message = renderMessage(lang, json) || json.msg || REFUSAL_WITHOUT_MESSAGE;
    throw new HttpError(message, response.status, body);
  };
}

/** The default transport (global fetch, cookie token). */
export const httpClient: HttpClient = createHttpClient();

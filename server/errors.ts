/**
 * `ApiError`: thrown by routes and repositories, turned into the envelope `{code, msg, data, key, params}`
 * with the matching HTTP status by the envelope plugin. An error built from a `Message` (message key +
 * params, common/messages) has its `msg` rendered in the language the request asks for; one built from a
 * plain string keeps that English text and carries no key (the console shows it as sent).
 */
import { Codes, type FieldError } from '../common/envelope';
import { msg, renderMessage, type Message, type MessageKey } from '../common/messages/index';

export class ApiError extends Error {
  /** The message key and params, when the error was built from a `Message`. */
  public readonly key?: MessageKey;
  public readonly params?: Record<string, unknown>;
  constructor(
    /** Envelope code (common/envelope.ts `Codes`). */
    public readonly code: number,
    /** HTTP status. */
    public readonly status: number,
    /** A `Message` (preferred: translated), or English text. */
    message: string | Message,
    public readonly data: unknown = null,
  ) {
    super(typeof message === 'string' ? message : renderMessage('en', { ...message, data }));
    if (typeof message !== 'string') {
      this.key = message.key;
      this.params = message.params;
    }
  }
}

/** An `ApiError` for the message `key` with `params` (see common/messages/en.ts to add a key). */
export function apiError(
  code: number,
  status: number,
  key: MessageKey,
  params: Record<string, unknown> = {},
  data: unknown = null,
): ApiError {
  return new ApiError(code, status, msg(key, params), data);
}

/**
 * 400 with one field at fault; `keyword` names the rule (e.g. `reference`, `unique`) and is what other
 * languages say (common/messages `fieldMessages`); `message` is the English detail after "<field>: ".
 */
export function invalidField(
  field: string,
  keyword: string,
  message: string,
  params: Record<string, unknown> = {},
) {
  const errors: FieldError[] = [{ field, keyword, params, message: `${field}: ${message}` }];
  return new ApiError(Codes.INVALID, 400, msg('request.fields'), { errors });
}

/** 404 for an unknown record; `label` is the resource's label in each language (or English text). */
export const notFound = (label: string | Record<'en' | 'zh', string>, id: unknown) =>
  new ApiError(
    Codes.NOT_FOUND,
    404,
    msg('record.notFound', {
      label: typeof label === 'string' ? { en: label, zh: label } : label,
      id: String(id),
    }),
  );

/** 409 with a message (`Message` to translate it, or English text). */
export const conflict = (message: string | Message, data: unknown = null) =>
  new ApiError(Codes.CONFLICT, 409, message, data);

/**
 * Translation of schema validation errors (ajv errors on the console, `FieldError`s from the server)
 * into react-admin validation messages: `{ message: 'baas.validation.<keyword>', args }`, rendered by
 * react-admin's `ValidationError` in the current locale. Source of the rules: the JSON Schema keywords
 * of `schemas/*.schema.json` and the custom keywords of `kernel/dialect/keywords.ts`.
 */
import type { FieldError } from '../../common/envelope';
import { fieldMessagesEn } from '../../common/messages/en';

/** A react-admin validation message: a translation key plus its interpolation arguments. */
export interface RaMessage {
  message: string;
  args: Record<string, unknown>;
}

/**
 * Keywords with a dedicated message under `baas.validation.*`: every keyword of the shared catalogue
 * common/messages/en.ts `fieldMessagesEn` (also the server's), `invalid` aside.
 */
export const TRANSLATED_KEYWORDS: readonly string[] = Object.keys(fieldMessagesEn).filter(
  (k) => k !== 'invalid',
);

/** Prefix react-admin's `ValidationError` uses to recognise a serialized `{message, args}` string. */
export const RA_MESSAGE_PREFIX = '@@react-admin@@';

/**
 * The message for one failed keyword. `x-maxWidth` gets `chars` = floor(limit / 2), the limit in
 * Chinese characters; `x-plainText` and `x-text` pick their sub-message from `params.reason`; an unknown keyword falls
 * back to `baas.validation.invalid` carrying the English `fallback` text.
 */
export function messageFor(keyword: string, params: Record<string, unknown> = {}, fallback = ''): RaMessage {
  const args: Record<string, unknown> = { ...params };
  if (keyword === 'x-maxWidth' && typeof params.limit === 'number') args.chars = Math.floor(params.limit / 2);
  if (keyword === 'x-plainText')
    return { message: `baas.validation.x-plainText.${String(params.reason ?? 'markup')}`, args };
  if (keyword === 'x-text')
    return {
      message: `baas.validation.x-text.${params.reason === 'surrogate' ? 'surrogate' : 'control'}`,
      args,
    };
  if (keyword === 'type') args.type = String(params.type ?? '');
  if (keyword === 'enum' && Array.isArray(params.allowedValues))
    args.values = params.allowedValues.filter((v) => v !== null).join(', ');
  if (TRANSLATED_KEYWORDS.includes(keyword)) return { message: `baas.validation.${keyword}`, args };
  return { message: 'baas.validation.invalid', args: { ...args, message: fallback } };
}

/** `messageFor` for a server `FieldError` (its English `message` is kept as the fallback). */
export function messageForFieldError(e: FieldError): RaMessage {
  return messageFor(e.keyword, e.params, e.message);
}

/** Serializes a message the way react-admin's `ValidationError` parses it from a plain string. */
export function serializeMessage(m: RaMessage): string {
  return RA_MESSAGE_PREFIX + JSON.stringify(m);
}

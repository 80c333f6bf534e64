/**
 * Server messages in the user's language: the catalogues (common/messages/en.ts, zh.ts), the language an
 * `Accept-Language` header asks for, and the rendering of an envelope's `{key, params, data}` into text.
 * Used by the server (the envelope's `msg`, server/plugins/app/envelope.ts) and by the console (every
 * notification of a refused call, src/dataProvider/httpClient.ts), so both say the same in each language.
 *
 * Params: a value `{ en, zh }` (a `LocalizedText`) is taken in the language rendered, so a server can pass
 * a resource's label or a phrase it built without choosing the language; other values are printed as is.
 * `%{details}` is filled from `data.errors` (FieldError[]): "<field label>: <keyword text>" per field,
 * with the field's label from its schema's `x-i18n` (the envelope's `params.schema`, else any schema that
 * has the field) and the keyword's text from `fieldMessages`.
 */
import type { FieldError } from '../envelope';
import { schemas, type PropertySchema } from '../../kernel/dialect/schemaRegistry';
import { fieldMessagesEn, serverMessagesEn, type MessageKey } from './en';
import { fieldMessagesZh, serverMessagesZh } from './zh';
import type { Language } from './language';

export type { MessageKey } from './en';
export { languageOf, LANGUAGES, type Language } from './language';

/** A text in each language, as a message param. */
export type LocalizedText = Record<Language, string>;

export const serverMessages: Record<Language, Record<MessageKey, string>> = {
  en: serverMessagesEn,
  zh: serverMessagesZh,
};
export const fieldMessages: Record<Language, typeof fieldMessagesEn> = {
  en: fieldMessagesEn,
  zh: fieldMessagesZh,
};

/** A message key with its params: what `ApiError` carries and the envelope sends as `key`, `params`. */
export interface Message {
  key: MessageKey;
  params: Record<string, unknown>;
}

/** A `Message` (the one way the server names a message; common/messages/messages.test.ts finds the keys). */
export function msg(key: MessageKey, params: Record<string, unknown> = {}): Message {
  return { key, params };
}

/** True when `key` is a key of the catalogues (an envelope from an older server may carry none). */
export function isMessageKey(key: unknown): key is MessageKey {
  return typeof key === 'string' && Object.hasOwn(serverMessagesEn, key);
}

function isLocalized(v: unknown): v is LocalizedText {
  return !!v && typeof v === 'object' && typeof (v as LocalizedText).en === 'string';
}

/** `template` with each `%{name}` replaced by `params[name]` (a `LocalizedText` in `lang`); unknown ones stay. */
export function interpolate(template: string, params: Record<string, unknown>, lang: Language): string {
  return template.replace(/%\{(\w+)\}/g, (whole, name: string) => {
    if (!Object.hasOwn(params, name)) return whole;
    const v = params[name];
    if (isLocalized(v)) return v[lang] ?? v.en;
    return Array.isArray(v) ? v.join(', ') : String(v);
  });
}

function propertyAt(schema: { properties?: Record<string, PropertySchema> }, path: string[]) {
  let node: any = schema;
  for (const p of path) {
    const isArray = node?.items !== undefined;
    // An item index (`contacts.0.name`) steps into the items; a name after an array names an item's property.
    if (/^\d+$/.test(p) && isArray) {
      node = node.items;
      continue;
    }
    if (isArray) node = node.items;
    if (/^\d+$/.test(p) && !node?.properties) continue;
    node = node?.properties?.[p];
    if (!node) return undefined;
  }
  return node as PropertySchema | undefined;
}

/** The `x-i18n` label of the field at `path` in `lang`: of schema `base` first, else of any schema. */
function ownLabel(lang: Language, path: string[], base: string | undefined): string | undefined {
  const ordered = [
    ...(base && schemas[base] ? [schemas[base]] : []),
    ...Object.values(schemas).filter((s) => s.$id !== base),
  ];
  for (const s of ordered) {
    const p = propertyAt(s, path);
    const label = (p as { 'x-i18n'?: Partial<LocalizedText> } | undefined)?.['x-i18n']?.[lang];
    if (label) return label;
  }
  return undefined;
}

/**
 * The label of an item at `positions` (0-based indexes) of the list labelled `list`, in `lang`: the
 * first index is the list's item, each further one a value of an inner list ("Samples, item 2, value 2";
 * "各样本第 2 项第 2 个值").
 */
export function itemLabel(lang: Language, list: string, positions: number[]): string {
  return positions.reduce(
    (label, n, i) =>
      interpolate(serverMessages[lang][i === 0 ? 'label.item' : 'label.value'], { label, n: n + 1 }, lang),
    list,
  );
}

/**
 * The label of a field (dotted path) in `lang`, from `x-i18n` of the schema `schemaId` (`<id>` or
 * `<id>.<variant>`), else of the first schema that has the path. An item without a label of its own (a
 * list's value, a value of an inner list: `samples.1.1`) is named by its list's label and its place
 * ({@link itemLabel}); a field no schema labels by the catalogue's `field.<name>`, else by its path.
 */
export function fieldLabel(lang: Language, field: string, schemaId?: string): string {
  if (!field) return lang === 'zh' ? '请求' : 'body';
  const path = field.split('.');
  const base = schemaId?.split('.')[0];
  const own = ownLabel(lang, path, base);
  if (own) return own;
  let k = path.length;
  while (k > 0 && /^\d+$/.test(path[k - 1])) k--;
  const list = k > 0 && k < path.length ? ownLabel(lang, path.slice(0, k), base) : undefined;
  if (list) return itemLabel(lang, list, path.slice(k).map(Number));
  const key = `field.${field}`;
  return isMessageKey(key) ? serverMessages[lang][key] : field;
}

/**
 * The text of one failed keyword in `lang` (the console's form messages follow the same rules).
 * @param pair where the fields `params.first`/`second` of a two-field rule (x-ordered, x-distinct) live:
 *   their object's dotted path (`baseInfo`, `''` for the record) and schema id, so they are named by label
 */
export function keywordText(
  lang: Language,
  keyword: string,
  params: Record<string, unknown> = {},
  fallback = '',
  pair?: { base: string; schemaId?: string },
): string {
  const cat = fieldMessages[lang] as Record<string, string | Record<string, string>>;
  const args: Record<string, unknown> = { ...params };
  if (keyword === 'x-maxWidth' && typeof params.limit === 'number') args.chars = Math.floor(params.limit / 2);
  if (keyword === 'enum' && Array.isArray(params.allowedValues))
    args.values = params.allowedValues.filter((v) => v !== null).join(', ');
  for (const k of ['first', 'second'])
    if (typeof params[k] === 'string')
      args[k] = fieldLabel(
        lang,
        pair?.base ? `${pair.base}.${params[k] as string}` : (params[k] as string),
        pair?.schemaId,
      );
  let entry = Object.hasOwn(cat, keyword) ? cat[keyword] : undefined;
  if (entry && typeof entry === 'object') {
    const sub =
      keyword === 'x-text'
        ? params.reason === 'surrogate'
          ? 'surrogate'
          : 'control'
        : String(params.reason ?? 'markup');
    entry = entry[sub] ?? Object.values(entry)[0];
  }
  if (typeof entry !== 'string') return interpolate(cat.invalid as string, { message: fallback }, lang);
  return interpolate(entry, args, lang);
}

/** The keywords whose params name two fields (`first`, `second`). */
const TWO_FIELD_RULES = new Set(['x-ordered', 'x-distinct']);

/**
 * One `data.errors` entry in `lang`, naming the field by its label (x-i18n) like the console's forms:
 * English keeps the server's own `message` (it says more than the keyword text) with its leading
 * "<field>: " replaced by "<label>: "; other languages say "<label>：<keyword text>".
 */
export function fieldErrorText(lang: Language, e: FieldError, schemaId?: string): string {
  // A two-field rule is reported at its second field: the pair lives in that field's object.
  const pair = { base: e.field.split('.').slice(0, -1).join('.'), schemaId };
  if (lang === 'en') {
    const label = e.label?.en ?? fieldLabel('en', e.field, schemaId);
    const prefix = `${e.field || 'body'}: `;
    // a two-field rule's message names its fields by key: the catalogue's text names them by label
    if (TWO_FIELD_RULES.has(e.keyword))
      return `${label}: ${keywordText(lang, e.keyword, e.params, e.message, pair)}`;
    return e.message.startsWith(prefix) ? `${label}: ${e.message.slice(prefix.length)}` : e.message;
  }
  return `${e.label?.[lang] ?? fieldLabel(lang, e.field, schemaId)}：${keywordText(lang, e.keyword, e.params, e.message, pair)}`;
}

/** What of an envelope `renderMessage` reads. */
export interface MessageEnvelope {
  key?: unknown;
  params?: unknown;
  msg?: unknown;
  data?: unknown;
}

/**
 * The envelope's message in `lang`: its `key` rendered with its `params` (and `%{details}` from
 * `data.errors`, `%{part}` from `params.part`), or its `msg` as sent when it carries no known key.
 */
export function renderMessage(lang: Language, envelope: MessageEnvelope): string {
  if (!isMessageKey(envelope.key)) return typeof envelope.msg === 'string' ? envelope.msg : '';
  const params: Record<string, unknown> = {
    ...(envelope.params && typeof envelope.params === 'object' ? (envelope.params as object) : {}),
  };
  const errors = (envelope.data as { errors?: FieldError[] } | null | undefined)?.errors;
  const schemaId = typeof params.schema === 'string' ? params.schema : undefined;
  if (Array.isArray(errors))
    params.details = errors.map((e) => fieldErrorText(lang, e, schemaId)).join(lang === 'zh' ? '；' : '; ');
  if (typeof params.part === 'string' && isMessageKey(`part.${params.part}`))
    params.part = serverMessages[lang][`part.${params.part}` as MessageKey];
  const template = serverMessages[lang][envelope.key] ?? serverMessages.en[envelope.key];
  return interpolate(template, params, lang);
}

/**
 * The label of a resource schema (`x-i18n` "one |||| many" of schema `schemaId`) in each language, as a
 * message param; `plural` picks the form after `||||`. Falls back to the schema id.
 */
export function schemaLabel(schemaId: string, plural = false): LocalizedText {
  const i18n = (schemas[schemaId]?.['x-i18n'] ?? {}) as Partial<LocalizedText>;
  const pick = (text: string | undefined) => {
    if (!text) return schemaId;
    const forms = text.split('||||').map((f) => f.trim());
    return (plural ? forms[1] : forms[0]) ?? forms[0];
  };
  return { en: pick(i18n.en), zh: pick(i18n.zh) };
}

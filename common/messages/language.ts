/**
 * The languages of the message catalogues and the choice among them from an `Accept-Language` header,
 * in a module of its own (no catalogue, no schema): the console's first chunk needs only this
 * (src/dataProvider/httpClient.ts); common/messages/index.ts re-exports it.
 */
export type Language = 'en' | 'zh';
export const LANGUAGES: readonly Language[] = ['en', 'zh'];

/**
 * The language an `Accept-Language` header (RFC 9110 §12.5.4) prefers among en and zh, by q-value then
 * order; `zh-CN`, `zh-Hans`... count as zh. Anything else, or no header: en.
 */
export function languageOf(acceptLanguage: string | undefined | null): Language {
  if (!acceptLanguage) return 'en';
  let best: { lang: Language; q: number } | undefined;
  for (const part of acceptLanguage.split(',')) {
    const [tag, ...opts] = part.trim().toLowerCase().split(';');
    const qOpt = opts.map((o) => o.trim()).find((o) => o.startsWith('q='));
    const q = qOpt ? Number(qOpt.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    const lang = LANGUAGES.find((l) => tag === l || tag.startsWith(`${l}-`));
    if (lang && (!best || q > best.q)) best = { lang, q };
  }
  return best?.lang ?? 'en';
}

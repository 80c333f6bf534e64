/**
 * The console's i18nProvider (ra-i18n-polyglot) over the English and Chinese catalogues.
 *
 * Locale: the `language` cookie (`en` or `zh`), else the browser language (`zh*` → zh), else en.
 * Changing the locale in the console writes the cookie, so the choice survives a reload.
 *
 * Only the English catalogue is in the entry chunk; the Chinese one (src/i18n/zh.ts, with react-admin's
 * Chinese messages) is a chunk of its own, loaded on demand: before the first render when zh is the
 * starting locale (main.tsx awaits `i18nProvider.ready`), else on the first switch to zh
 * (ra-i18n-polyglot's `changeLocale` waits for the promise).
 */
import Cookies from 'js-cookie';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider, TranslationMessages } from 'ra-core';
import en from './en';

export type Locale = 'en' | 'zh';
export const LANGUAGE_COOKIE = 'language';

/** The catalogues loaded so far (English is always there). */
const catalogues: Partial<Record<Locale, TranslationMessages>> = { en };
const loaders: Record<Locale, () => Promise<TranslationMessages>> = {
  en: async () => en,
  zh: async () => (await import('./zh')).default,
};
const asLocale = (locale: string): Locale => (locale === 'zh' ? 'zh' : 'en');

/** The catalogue of `locale`, loading its chunk the first time. */
export async function loadMessages(locale: Locale): Promise<TranslationMessages> {
  return (catalogues[locale] ??= await loaders[locale]());
}

/** Picks the locale from the cookie value, then the browser languages, defaulting to English. */
export function detectLocale(cookie: string | undefined, browserLanguages: readonly string[] = []): Locale {
  const c = cookie?.toLowerCase();
  if (c === 'en' || c === 'zh') return c;
  if (c?.startsWith('zh')) return 'zh';
  if (c?.startsWith('en')) return 'en';
  for (const lang of browserLanguages) {
    const l = lang.toLowerCase();
    if (l.startsWith('zh')) return 'zh';
    if (l.startsWith('en')) return 'en';
  }
  return 'en';
}

/** The locale for this browser (cookie, navigator.languages, navigator.language). */
export function currentLocale(): Locale {
  const nav =
    typeof navigator === 'undefined'
      ? []
      : [...(navigator.languages ?? []), navigator.language].filter(Boolean);
  return detectLocale(Cookies.get(LANGUAGE_COOKIE), nav);
}

/**
 * Builds the i18nProvider; `changeLocale` also stores the choice in the `language` cookie. When the
 * catalogue of `initial` is not loaded yet the provider starts in English and `ready` resolves once it
 * has switched to `initial` (render after `ready` to avoid an English flash).
 */
export function createI18nProvider(
  initial: Locale = currentLocale(),
): I18nProvider & { ready: Promise<void> } {
  const start: Locale = catalogues[initial] ? initial : 'en';
  const base = polyglotI18nProvider(
    (locale) => catalogues[asLocale(locale)] ?? loadMessages(asLocale(locale)),
    start,
    [
      { locale: 'en', name: 'English' },
      { locale: 'zh', name: '中文' },
    ],
  );
  return {
    ...base,
    ready: start === initial ? Promise.resolve() : base.changeLocale(initial),
    changeLocale: (locale: string, options?: unknown) => {
      Cookies.set(LANGUAGE_COOKIE, locale, { path: '/', sameSite: 'lax', expires: 365 });
      return base.changeLocale(locale, options);
    },
  };
}

export const i18nProvider = createI18nProvider();

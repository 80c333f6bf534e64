/**
 * The console's i18nProvider (ra-i18n-polyglot) over the English and Chinese catalogues.
 *
 * Locale: the `language` cookie (`en` or `zh`), else the browser language (`zh*` → zh), else en.
 * Changing the locale in the console writes the cookie, so the choice survives a reload.
 */
import Cookies from 'js-cookie';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider } from 'ra-core';
import en from './en';
import zh from './zh';

export type Locale = 'en' | 'zh';
export const LANGUAGE_COOKIE = 'language';
export const messages: Record<Locale, object> = { en, zh };

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

/** Builds the i18nProvider; `changeLocale` also stores the choice in the `language` cookie. */
export function createI18nProvider(initial: Locale = currentLocale()): I18nProvider {
  const base = polyglotI18nProvider(
    (locale) => messages[(locale as Locale) in messages ? (locale as Locale) : 'en'] as any,
    initial,
    [
      { locale: 'en', name: 'English' },
      { locale: 'zh', name: '中文' },
    ],
  );
  return {
    ...base,
    changeLocale: (locale: string, options?: unknown) => {
      Cookies.set(LANGUAGE_COOKIE, locale, { path: '/', sameSite: 'lax', expires: 365 });
      return base.changeLocale(locale, options);
    },
  };
}

export const i18nProvider = createI18nProvider();

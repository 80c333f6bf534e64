/**
 * The shell's persisted preferences, with the product's storage places:
 * - settings (theme colour, tagsView, fixedHeader, sidebarLogo, showSettings): per account, local storage
 *   `shell-settings:<account>` (`setPreferencesAccount`, called by the layout once the user info is
 *   known); with no account (login page, after logout) the defaults, so one account's choices never carry
 *   over to the next account in the same browser. Which account a session token belongs to is remembered
 *   (`shell-settings-session`: the account and a fingerprint of the token, never the token), so that a
 *   reload shows the account's settings at once instead of the defaults until the user info answers;
 * - sidebar open/closed: cookie `sidebarStatus` (`1` open, `0` closed; vue-element-admin);
 * - global size: cookie `size` (`default` | `medium` | `small` | `mini`, default `medium`);
 * - language: cookie `language` (`zh` | `en`).
 * A tiny external store (`subscribe`/`getSnapshot`) so React components read them with
 * `useSyncExternalStore` and every change applies at once.
 */
import Cookies from 'js-cookie';

/** The 8 predefined theme colours (vue-element-admin ThemePicker); the first is the default. */
export const THEME_COLORS = [
  '#409EFF',
  '#1890FF',
  '#304156',
  '#212121',
  '#11A983',
  '#13C2C2',
  '#6959CD',
  '#F5222D',
] as const;

/** Global sizes, largest first (element-ui's sizes). */
export const SIZES = ['default', 'medium', 'small', 'mini'] as const;
export type Size = (typeof SIZES)[number];

/** Settings of the drawer. */
export interface ShellSettings {
  theme: string;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  /**
   * Whether the navbar shows the settings button (vue-element-admin `settings.js` `showSettings`, which
   * renders the right panel only when on). Not a switch of the drawer (turning it off there would hide the
   * way back): its default is the build's `VITE_SHOW_SETTINGS` (`false` or `0`: off; default on, spec §9),
   * and an account's stored settings may carry it.
   */
  showSettings: boolean;
}

/** The build's default of `showSettings` (`VITE_SHOW_SETTINGS`; on unless `false` or `0`). */
export function showSettingsDefault(raw: string | undefined): boolean {
  return !/^(false|0|off|no)$/i.test((raw ?? '').trim());
}

export const DEFAULT_SETTINGS: ShellSettings = {
  theme: THEME_COLORS[0],
  tagsView: true,
  fixedHeader: true,
  sidebarLogo: true,
  showSettings: showSettingsDefault(import.meta.env?.VITE_SHOW_SETTINGS as string | undefined),
};

const SETTINGS_KEY = 'shell-settings';
/** The account whose drawer settings are in use (null: none signed in). */
let account: string | null = null;

/** The local-storage key of an account's drawer settings. */
export function settingsKey(of: string): string {
  return `${SETTINGS_KEY}:${of}`;
}

/** The local-storage key of the session's account (see the module doc). */
const SESSION_KEY = `${SETTINGS_KEY}-session`;

/** A fingerprint of a session token (FNV-1a, 32 bits, hex): tells tokens apart, does not reveal them. */
function fingerprint(token: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * The account that session `token` was last seen to belong to (`setPreferencesAccount` with the token),
 * or null: no token, another token, nothing remembered or a damaged entry.
 */
export function rememberedAccount(token: string | null | undefined): string | null {
  if (!token || typeof localStorage === 'undefined') return null;
  try {
    const v = JSON.parse(localStorage.getItem(SESSION_KEY) ?? 'null') as {
      token?: unknown;
      account?: unknown;
    } | null;
    return v && v.token === fingerprint(token) && typeof v.account === 'string' ? v.account : null;
  } catch {
    return null;
  }
}

/**
 * Parses stored settings; unknown keys, wrong types and colours outside `#RRGGBB` fall back to the
 * defaults one by one, so a damaged entry never breaks the shell.
 */
export function parseSettings(raw: string | null): ShellSettings {
  let v: Record<string, unknown> = {};
  try {
    const parsed = raw ? JSON.parse(raw) : {};
    if (parsed && typeof parsed === 'object') v = parsed;
  } catch {
    v = {};
  }
  const bool = (k: keyof ShellSettings) =>
    typeof v[k] === 'boolean' ? (v[k] as boolean) : DEFAULT_SETTINGS[k];
  return {
    theme:
      typeof v.theme === 'string' && /^#[0-9a-fA-F]{6}$/.test(v.theme) ? v.theme : DEFAULT_SETTINGS.theme,
    tagsView: bool('tagsView') as boolean,
    fixedHeader: bool('fixedHeader') as boolean,
    sidebarLogo: bool('sidebarLogo') as boolean,
    showSettings: bool('showSettings') as boolean,
  };
}

/** Parses the `size` cookie; anything unknown is `medium`. */
export function parseSize(raw: string | undefined): Size {
  return (SIZES as readonly string[]).includes(raw ?? '') ? (raw as Size) : 'medium';
}

/** The whole snapshot read by components. */
export interface Preferences {
  settings: ShellSettings;
  sidebarOpened: boolean;
  size: Size;
}

const listeners = new Set<() => void>();
let snapshot: Preferences | undefined;

function read(): Preferences {
  const storage = typeof localStorage === 'undefined' ? null : localStorage;
  return {
    settings:
      account === null
        ? { ...DEFAULT_SETTINGS }
        : parseSettings(storage?.getItem(settingsKey(account)) ?? null),
    sidebarOpened: Cookies.get('sidebarStatus') !== '0',
    size: parseSize(Cookies.get('size')),
  };
}

/** Current preferences (stable object between changes). */
export function getPreferences(): Preferences {
  snapshot ??= read();
  return snapshot;
}

/** Subscribes to changes; returns the unsubscribe function. */
export function subscribePreferences(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(next: Preferences) {
  snapshot = next;
  listeners.forEach((l) => l());
}

const COOKIE = { path: '/', expires: 365, sameSite: 'lax' as const };

/**
 * Uses the drawer settings of `next` (an account name; null when nobody is signed in: the defaults) and
 * tells the subscribers when that changes them. With `token` (the session's, once its user info named
 * `next`), remembers that the token is `next`'s ({@link rememberedAccount}); `null` forgets it.
 */
export function setPreferencesAccount(next: string | null, token?: string | null): void {
  if (typeof localStorage !== 'undefined') {
    if (next === null) localStorage.removeItem(SESSION_KEY);
    else if (token)
      localStorage.setItem(SESSION_KEY, JSON.stringify({ token: fingerprint(token), account: next }));
  }
  if (next === account) return;
  account = next;
  // Only the drawer settings are the account's: the sidebar state (closed automatically on a phone,
  // without touching its cookie) and the size stay as they are.
  const { sidebarOpened, size } = getPreferences();
  emit({ ...read(), sidebarOpened, size });
}

/** Changes one setting of the drawer and stores all of them for the signed-in account. */
export function setSetting<K extends keyof ShellSettings>(key: K, value: ShellSettings[K]): void {
  const settings = { ...getPreferences().settings, [key]: value };
  if (account !== null) localStorage.setItem(settingsKey(account), JSON.stringify(settings));
  emit({ ...getPreferences(), settings });
}

/** Opens or closes the sidebar; `persist: false` for the automatic closing on mobile. */
export function setSidebarOpened(opened: boolean, persist = true): void {
  if (persist) Cookies.set('sidebarStatus', opened ? '1' : '0', COOKIE);
  emit({ ...getPreferences(), sidebarOpened: opened });
}

/** Sets the global size (cookie `size`). */
export function setSize(size: Size): void {
  Cookies.set('size', size, COOKIE);
  emit({ ...getPreferences(), size });
}

/** Stores the language choice (cookie `language`), read by the console's i18nProvider at start. */
export function setLanguageCookie(locale: string): void {
  Cookies.set('language', locale, COOKIE);
}

// @vitest-environment jsdom
/**
 * The settings drawer's choices are per account (issue 12): what one account chose is not what the next
 * account signed in the same browser sees, and it comes back when the first account returns.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS,
  getPreferences,
  rememberedAccount,
  setPreferencesAccount,
  setSetting,
  setSidebarOpened,
  settingsKey,
  subscribePreferences,
} from './preferences';

describe('preferences per account', () => {
  it("keeps each account's theme to itself; nobody signed in sees the defaults", () => {
    let changes = 0;
    const stop = subscribePreferences(() => changes++);
    setPreferencesAccount('alice');
    setSetting('theme', '#11A983');
    setSetting('tagsView', false);
    expect(getPreferences().settings).toMatchObject({ theme: '#11A983', tagsView: false });
    expect(JSON.parse(localStorage.getItem(settingsKey('alice'))!)).toMatchObject({ theme: '#11A983' });

    setPreferencesAccount(null);
    expect(getPreferences().settings).toEqual(DEFAULT_SETTINGS);
    setPreferencesAccount('bob');
    expect(getPreferences().settings).toEqual(DEFAULT_SETTINGS);
    setSetting('theme', '#F5222D');

    setPreferencesAccount('alice');
    expect(getPreferences().settings).toMatchObject({ theme: '#11A983', tagsView: false });
    setPreferencesAccount('bob');
    expect(getPreferences().settings.theme).toBe('#F5222D');
    expect(changes).toBeGreaterThanOrEqual(7);
    stop();
  });

  it('a setting changed with nobody signed in is not stored for anyone', () => {
    setPreferencesAccount(null);
    localStorage.clear();
    setSetting('theme', '#304156');
    expect(localStorage.length).toBe(0);
    setPreferencesAccount('carol');
    expect(getPreferences().settings.theme).toBe(DEFAULT_SETTINGS.theme);
  });

  it('keeps the sidebar as it is when the account changes (a phone closes it without its cookie)', () => {
    setPreferencesAccount(null);
    setSidebarOpened(false, false);
    setPreferencesAccount('dave');
    expect(getPreferences().sidebarOpened).toBe(false);
  });

  it('remembers which account a session token is, never the token, and forgets it when nobody is signed in', () => {
    localStorage.clear();
    expect(rememberedAccount('tok-alice')).toBeNull();
    setPreferencesAccount('alice', 'tok-alice');
    expect(rememberedAccount('tok-alice')).toBe('alice');
    // Another session (another token, none, or a damaged entry) is nobody's yet.
    expect(rememberedAccount('tok-bob')).toBeNull();
    expect(rememberedAccount(undefined)).toBeNull();
    expect(JSON.stringify({ ...localStorage })).not.toContain('tok-alice');
    // Without a token (the user info has not answered) nothing is remembered anew.
    setPreferencesAccount('bob');
    expect(rememberedAccount('tok-alice')).toBe('alice');
    setPreferencesAccount(null);
    expect(rememberedAccount('tok-alice')).toBeNull();
    localStorage.setItem('shell-settings-session', '{not json');
    expect(rememberedAccount('tok-alice')).toBeNull();
  });
});

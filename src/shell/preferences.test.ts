import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, parseSettings, parseSize, showSettingsDefault, THEME_COLORS } from './preferences';
import { addErrorLog, clearErrorLogs, getErrorLogs, MAX_ENTRIES } from './errorLog';

describe('settings parsing', () => {
  it('defaults everything on, with the #409EFF theme and 8 colours', () => {
    expect(parseSettings(null)).toEqual({
      theme: '#409EFF',
      tagsView: true,
      fixedHeader: true,
      sidebarLogo: true,
      showSettings: true,
    });
    expect(THEME_COLORS).toHaveLength(8);
  });
  it('models showSettings: on by default (spec §9), off when stored or built off', () => {
    expect(parseSettings('{"showSettings":false}')).toEqual({ ...DEFAULT_SETTINGS, showSettings: false });
    expect(showSettingsDefault(undefined)).toBe(true);
    expect(showSettingsDefault('true')).toBe(true);
    expect(showSettingsDefault('false')).toBe(false);
    expect(showSettingsDefault('0')).toBe(false);
  });
  it('keeps valid stored values and repairs damaged ones one by one', () => {
    expect(parseSettings('{"theme":"#11A983","tagsView":false}')).toEqual({
      ...DEFAULT_SETTINGS,
      theme: '#11A983',
      tagsView: false,
    });
    expect(parseSettings('{"theme":"red","fixedHeader":"no","sidebarLogo":false}')).toEqual({
      ...DEFAULT_SETTINGS,
      sidebarLogo: false,
    });
    expect(parseSettings('not json')).toEqual(DEFAULT_SETTINGS);
    expect(parseSettings('[1]')).toEqual(DEFAULT_SETTINGS);
  });
  it('reads the size cookie, medium by default', () => {
    expect(parseSize(undefined)).toBe('medium');
    expect(parseSize('huge')).toBe('medium');
    expect(parseSize('mini')).toBe('mini');
  });
});

describe('error log', () => {
  it('records message, info, URL and time, and keeps the newest entries', () => {
    clearErrorLogs();
    addErrorLog(new Error('boom'), 'in Dashboard', 'http://x/dashboard');
    const [e] = getErrorLogs();
    expect(e).toMatchObject({ message: 'boom', info: 'in Dashboard', url: 'http://x/dashboard' });
    expect(Number.isNaN(Date.parse(e.time))).toBe(false);
    for (let i = 0; i < MAX_ENTRIES + 5; i++) addErrorLog(`e${i}`, 'loop', 'u');
    expect(getErrorLogs()).toHaveLength(MAX_ENTRIES);
    expect(getErrorLogs()[MAX_ENTRIES - 1].message).toBe(`e${MAX_ENTRIES + 4}`);
    clearErrorLogs();
    expect(getErrorLogs()).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { recordTagText, routeTitle } from './routeTitle';
import { en as shellEn } from './i18n';
import { zh as shellZh } from './i18n.zh';
import { generatedMessages } from '../generated/messages';
import { allRoutes } from '../shell/routes';
import { flattenRoutes } from '../shell/router';

const shellMessages = { en: shellEn, zh: shellZh };

/** A translate that shows its key and options, to see what routeTitle asks for. */
const translate = (key: string, options?: Record<string, unknown>) =>
  key === 'resources.widgets.name'
    ? options?.smart_count === 1
      ? 'Widget'
      : 'Widgets'
    : `${key}${options?.name ? `(${String(options.name)})` : ''}`;

describe('route titles', () => {
  it('reads shell.route keys, plural resource labels and derived detail titles', () => {
    expect(routeTitle(translate, 'authors')).toBe('shell.route.authors');
    expect(routeTitle(translate, 'resources.widgets.name')).toBe('Widgets');
    expect(routeTitle(translate, 'resources.widgets.name#show')).toBe('shell.view.show(Widget)');
  });

  it('names a record page tab after the record, marking the edit page', () => {
    const t = (key: string, o?: Record<string, unknown>) =>
      key === 'shell.tagsView.record' ? `${String(o?.name)}: ${String(o?.record)}` : translate(key, o);
    expect(recordTagText(t, { resource: 'widgets', name: 'Sunset', view: 'show' })).toBe('Widget: Sunset');
    expect(recordTagText(t, { resource: 'widgets', name: 'Sunset', view: 'edit' })).toBe(
      'shell.view.edit(Widget): Sunset',
    );
  });
});

describe('every route title of the tree', () => {
  it('has a text in English and in Chinese', () => {
    for (const lang of ['en', 'zh'] as const) {
      const messages = { ...shellMessages[lang], resources: generatedMessages[lang] };
      const strict = (key: string) => {
        const v = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], messages);
        if (typeof v !== 'string') throw new Error(`${lang}: no message "${key}"`);
        return v;
      };
      for (const f of flattenRoutes(allRoutes))
        if (f.route.meta?.title) expect(routeTitle(strict, f.route.meta.title), f.fullPath).not.toBe('');
    }
  });
});

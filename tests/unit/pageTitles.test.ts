/**
 * A schema's own page titles (`x-resource.titles`, issue 33): a view's title is either the schema's text in
 * English and Chinese (`{ en, zh }`: codegen emits it into the generated messages as
 * `resources.<name>.titles.<view>`, scripts/codegen.ts `labels`, and the registry row names that key,
 * scripts/codegen/resources.ts `titleKey`), or a key of the console's hand-written route titles
 * (src/layout/i18n.ts `shell.route`). The sidebar, breadcrumbs and tabs show the text
 * (src/layout/routeTitle.ts); a key the repository's schemas name must be in that catalogue, in both
 * languages.
 */
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { describe, expect, it } from 'vitest';
import { resourceSchemas } from '../../kernel/dialect/schemaRegistry';
import { labels } from '../../scripts/codegen';
import { resourceRow } from '../../scripts/codegen/resources';
import en from '../../src/i18n/en';
import { flattenMessages } from '../../src/i18n/merge';
import zh from '../../src/i18n/zh';
import { routeTitle } from '../../src/layout/routeTitle';
import { flattenRoutes } from '../../src/shell/router';
import { withResourceRoutes } from '../../src/shell/resourceRoutes';

// an id of no schema in schemas/, nor of a fixture a test adds there (the zero-code test adds `treatment`,
// whose x-storage would give the show page a History tab here)
const treatment = {
  $id: 'pageTitlesProbe',
  title: 'Treatment',
  'x-roles': ['admin'],
  'x-i18n': { en: 'Treatment |||| Treatments', zh: '修复记录' },
  'x-resource': {
    name: 'treatments',
    titles: {
      list: { en: 'Conservation treatments', zh: '文物修复' },
      show: { en: 'Treatment report', zh: '修复报告' },
      edit: 'editAuthor',
    },
  },
  'x-endpoints': { getList: {}, getOne: {}, create: {}, update: {} },
  properties: { id: { type: 'integer', readOnly: true, 'x-i18n': { en: 'ID', zh: '编号' } } },
};

/** The titles of the treatment's pages, by path, in `lang`, as the console shows them. */
function shownTitles(lang: 'en' | 'zh') {
  const catalogue = { ...(lang === 'en' ? en : zh), resources: { treatments: labels(treatment, lang) } };
  const provider = polyglotI18nProvider(() => catalogue, lang);
  const translate = (key: string, options?: Record<string, unknown>) => provider.translate(key, options);
  const routes = flattenRoutes(withResourceRoutes([], [resourceRow(treatment)]));
  return Object.fromEntries(routes.map((r) => [r.fullPath, routeTitle(translate, r.route.meta!.title!)]));
}

describe('x-resource.titles', () => {
  it("shows a schema's own titles in English and Chinese, a catalogue key's text, else the derived title", () => {
    expect(resourceRow(treatment).titles).toEqual({
      list: 'resources.treatments.titles.list',
      show: 'resources.treatments.titles.show',
      create: null,
      edit: 'editAuthor',
    });
    expect(shownTitles('en')).toEqual({
      '/treatments': 'Conservation treatments',
      '/treatments/:id/show': 'Treatment report',
      '/treatments/create': 'Add Treatment',
      '/treatments/:id': 'Edit author',
    });
    expect(shownTitles('zh')).toMatchObject({
      '/treatments': '文物修复',
      '/treatments/:id/show': '修复报告',
    });
  });

  it("every catalogue key the repository's schemas name is a route title in both languages", () => {
    const fe = flattenMessages(en);
    const fz = flattenMessages(zh);
    const missing: string[] = [];
    for (const s of resourceSchemas())
      for (const [view, t] of Object.entries(s['x-resource']?.titles ?? {}))
        if (typeof t === 'string')
          for (const [lang, flat] of [
            ['en', fe],
            ['zh', fz],
          ] as const)
            if (!flat[`shell.route.${t}`]) missing.push(`${lang} ${s.$id} ${view}: shell.route.${t}`);
    expect(missing).toEqual([]);
  });
});

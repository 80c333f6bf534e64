import englishMessages from 'ra-language-english';
import { beforeAll, describe, expect, it } from 'vitest';
import en from './en';
import zh from './zh';
import { createI18nProvider, detectLocale, loadMessages } from './index';
import { flattenMessages } from './merge';
import { messageFor, TRANSLATED_KEYWORDS } from './validation';
import { resourceSchemas } from '../../kernel/dialect/schemaRegistry';

const fe = flattenMessages(en);
const fz = flattenMessages(zh);
const placeholders = (s: string) => [...new Set([...s.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]))].sort();

describe('i18n catalogues', () => {
  it('zero missing keys: every English key exists in Chinese and vice versa', () => {
    expect(Object.keys(fe).filter((k) => !(k in fz))).toEqual([]);
    expect(Object.keys(fz).filter((k) => !(k in fe))).toEqual([]);
  });

  it('Chinese texts use Chinese punctuation after a Chinese character (no "修改未保存. 放弃修改吗?")', () => {
    expect(fz['ra.message.unsaved_changes']).toBe('修改未保存。放弃修改吗？');
    expect(Object.entries(fz).filter(([, v]) => /[\u4e00-\u9fff][.?!,;:](\s|$)/.test(v))).toEqual([]);
  });

  it("includes every key of react-admin's English messages in both languages", () => {
    const ra = Object.keys(flattenMessages(englishMessages));
    expect(ra.length).toBeGreaterThan(150);
    expect(ra.filter((k) => !(k in fe))).toEqual([]);
    expect(ra.filter((k) => !(k in fz))).toEqual([]);
  });

  it('no empty texts, and Chinese texts are translated (not copies of the English) for the ra.* keys', () => {
    // react-admin's own ra.boolean.null is a deliberate blank in English too
    expect(Object.entries(fz).filter(([k, v]) => v.trim() === '' && fe[k].trim() !== '')).toEqual([]);
    expect(Object.entries(fe).filter(([k, v]) => v.trim() === '' && k !== 'ra.boolean.null')).toEqual([]);
    const copies = Object.keys(fe).filter(
      (k) => k.startsWith('ra.') && /[a-z]{4}/.test(fe[k]) && fe[k] === fz[k],
    );
    expect(copies).toEqual([]);
  });

  it('our own messages use the same placeholders in both languages', () => {
    const mismatched = Object.keys(fe)
      .filter((k) => k.startsWith('baas.') || k.startsWith('resources.'))
      .filter((k) => placeholders(fe[k]).join() !== placeholders(fz[k]).join());
    expect(mismatched).toEqual([]);
  });

  it('every resource, field and enum label of every schema is present in both languages', () => {
    for (const s of resourceSchemas()) {
      const r = s['x-resource']!.name;
      expect(fe[`resources.${r}.name`]).toBe(s['x-i18n']!.en);
      expect(fz[`resources.${r}.name`]).toBe(s['x-i18n']!.zh);
      for (const [field, prop] of Object.entries(s.properties)) {
        expect(fe[`resources.${r}.fields.${field}`], `${r}.${field}`).toBe(prop['x-i18n']!.en);
        expect(fz[`resources.${r}.fields.${field}`], `${r}.${field}`).toBe(prop['x-i18n']!.zh);
      }
    }
  });

  it('every translated validation keyword has a message in both languages', () => {
    for (const k of TRANSLATED_KEYWORDS) {
      const { message } = messageFor(k, { reason: 'blank' });
      expect(fe[message], message).toBeTruthy();
      expect(fz[message], message).toBeTruthy();
    }
  });

  it('every reason of x-plainText and x-text has a message in both languages', () => {
    const reasons = {
      'x-plainText': ['control', 'bidi', 'markup', 'blank', 'invisible'],
      'x-text': ['control', 'surrogate'],
    };
    for (const [keyword, list] of Object.entries(reasons))
      for (const reason of list) {
        const { message } = messageFor(keyword, { reason });
        expect(message).toBe(`baas.validation.${keyword}.${reason}`);
        expect(fe[message], message).toBeTruthy();
        expect(fz[message], message).toBeTruthy();
      }
  });
});

describe('validation messages, rendered', () => {
  beforeAll(() => loadMessages('zh'));
  const render = (locale: 'en' | 'zh', keyword: string, params: Record<string, unknown>) => {
    const { message, args } = messageFor(keyword, params);
    return createI18nProvider(locale).translate(message, args);
  };

  it('x-maxWidth says the limit in display width and in Chinese characters', () => {
    expect(render('en', 'x-maxWidth', { limit: 60, width: 62 })).toBe(
      'At most 60 wide (30 Chinese characters); this is 62 wide',
    );
    expect(render('zh', 'x-maxWidth', { limit: 60, width: 62 })).toBe(
      '最多 30 个汉字（60 个字符），当前为 62 个字符',
    );
  });

  it('x-plainText picks the reason; required; unknown keywords keep the server text', () => {
    expect(render('zh', 'x-plainText', { reason: 'markup' })).toBe('不能包含 < 或 >');
    expect(render('en', 'required', { missingProperty: 'author' })).toBe('Required');
    expect(render('en', 'somethingNew', {})).toBe('Invalid: ');
    const m = messageFor('somethingNew', {}, 'x: odd');
    expect(createI18nProvider('zh').translate(m.message, m.args)).toBe('无效：x: odd');
  });
});

describe('detectLocale', () => {
  it.each([
    ['zh', ['en-US'], 'zh'],
    ['en', ['zh-CN'], 'en'],
    ['zh-CN', [], 'zh'],
    [undefined, ['zh-TW', 'en'], 'zh'],
    [undefined, ['fr-FR', 'zh-CN'], 'zh'],
    [undefined, ['en-GB', 'zh-CN'], 'en'],
    [undefined, ['fr-FR'], 'en'],
    [undefined, [], 'en'],
    ['xx', ['zh'], 'zh'],
  ] as const)('cookie %s, browser %j → %s', (cookie, browser, expected) => {
    expect(detectLocale(cookie, browser)).toBe(expected);
  });
});

describe('the Chinese catalogue on demand', () => {
  it('a provider starting in zh before the catalogue is loaded switches to it once ready', async () => {
    const p = createI18nProvider('zh');
    await p.ready;
    expect(p.getLocale()).toBe('zh');
    expect(p.translate('ra.action.save')).toBe('保存');
  });
});

describe('section tab labels come from the schemas (x-sections)', () => {
  it("every section tab of every resource has its schema's label in both languages", () => {
    const missing: string[] = [];
    for (const schema of resourceSchemas()) {
      const name = schema['x-resource']!.name;
      const sections = new Set(
        Object.values(schema.properties)
          .map((p) => p['x-ui']?.section)
          .filter((s): s is string => typeof s === 'string' && !(s in schema.properties)),
      );
      for (const s of sections)
        for (const [lang, flat] of [
          ['en', fe],
          ['zh', fz],
        ] as const)
          if (flat[`resources.${name}.sections.${s}`] !== schema['x-sections']?.[s]?.[lang])
            missing.push(`${lang} resources.${name}.sections.${s}`);
    }
    expect(missing).toEqual([]);
    expect(fe['resources.authors.sections.wechat']).toBe('Mini-program');
    expect(fz['resources.authors.sections.wechat']).toBe('小程序');
  });

  it('no hand-written resource section labels remain in the console catalogue (only "main")', () => {
    expect(Object.keys(fe).filter((k) => k.startsWith('baas.sections.'))).toEqual(['baas.sections.main']);
    expect(Object.keys(fz).filter((k) => k.startsWith('baas.sections.'))).toEqual(['baas.sections.main']);
  });
});

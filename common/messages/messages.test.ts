/**
 * The server's message catalogues (common/messages/en.ts, zh.ts): every message key and every field-error
 * keyword the code uses (collected from the source text of server/ and common/) has a text in English and
 * in Chinese, both catalogues have the same keys and placeholders, and the rendering follows the language.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fieldLabel, fieldMessages, itemLabel, languageOf, renderMessage, serverMessages } from './index';

const ROOT = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    // generated code and the catalogues themselves (their docs show example keys) are not users of keys
    if (name === 'node_modules' || name === 'generated' || path.endsWith(join('common', 'messages')))
      continue;
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

const sources = ['server', 'common'].flatMap((d) => sourceFiles(join(ROOT, d)));
const text = sources.map((f) => readFileSync(f, 'utf8')).join('\n');

/** Message keys: `msg('key'`, `apiError(code, status, 'key'`. */
function usedKeys(): string[] {
  const keys = new Set<string>();
  for (const m of text.matchAll(/\bmsg\(\s*'([^']+)'/g)) keys.add(m[1]);
  for (const m of text.matchAll(/\bapiError\(\s*[^,]+,\s*[^,]+,\s*'([^']+)'/g)) keys.add(m[1]);
  return [...keys].sort();
}

/** Field-error keywords: `invalidField(field, 'keyword'`, `bad(text, field, 'keyword')`, `keyword: 'x'`. */
function usedKeywords(): string[] {
  const keywords = new Set<string>();
  for (const m of text.matchAll(/\binvalidField\(\s*(?:'[^']*'|[\w.]+),\s*'([^']+)'/g)) keywords.add(m[1]);
  for (const m of text.matchAll(/\bkeyword: '([^']+)'/g)) keywords.add(m[1]);
  for (const m of text.matchAll(/\bkeyword = '([^']+)'/g)) keywords.add(m[1]);
  for (const m of text.matchAll(/\brefuse\(\s*(?:'[^']*'|[\w.]+),\s*'([^']+)'/g)) keywords.add(m[1]);
  for (const m of text.matchAll(/\bbad\([^;]*?,\s*'[^']*',\s*'([^']+)'\)/g)) keywords.add(m[1]);
  return [...keywords].sort();
}

const placeholders = (s: string) => [...s.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]).sort();

function leaves(tree: object, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(tree))
    if (v && typeof v === 'object') Object.assign(out, leaves(v, `${prefix}${k}.`));
    else out[`${prefix}${k}`] = String(v);
  return out;
}

describe('server message catalogues', () => {
  it('finds the message keys the code uses (the collection works)', () => {
    const keys = usedKeys();
    expect(keys).toContain('auth.badCredentials');
    expect(keys).toContain('ledger.authorNotOnChain');
    expect(keys).toContain('request.invalid');
    expect(keys.length).toBeGreaterThan(15);
  });

  it.each(['en', 'zh'] as const)('has every message key the code uses in %s', (lang) => {
    const missing = usedKeys().filter((k) => !Object.hasOwn(serverMessages[lang], k));
    expect(missing).toEqual([]);
  });

  it.each(['en', 'zh'] as const)('has every field-error keyword the code uses in %s', (lang) => {
    const used = usedKeywords();
    for (const k of [
      'json',
      'encoding',
      'propertyNames',
      'boundary',
      'multipart',
      'contentType',
      'maxBodyLength',
      'maxHeaderSize',
    ])
      expect(used).toContain(k);
    const missing = used.filter((k) => !Object.hasOwn(fieldMessages[lang], k));
    expect(missing).toEqual([]);
  });

  it('has the same keys and placeholders in zh as in en', () => {
    for (const [en, zh] of [
      [serverMessages.en, serverMessages.zh],
      [fieldMessages.en, fieldMessages.zh],
    ] as const) {
      const e = leaves(en);
      const z = leaves(zh);
      expect(Object.keys(z).sort()).toEqual(Object.keys(e).sort());
      for (const k of Object.keys(e)) expect([k, placeholders(z[k])]).toEqual([k, placeholders(e[k])]);
      // A Chinese text is Chinese (not a copy of the English one), pure placeholders aside.
      for (const k of Object.keys(e))
        if (e[k].replace(/%\{\w+\}/g, '').trim())
          expect([k, /[\u4e00-\u9fff]/.test(z[k])]).toEqual([k, true]);
    }
  });
});

describe('languageOf (Accept-Language)', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['zh-CN,zh;q=0.9,en;q=0.8', 'zh'],
    ['zh', 'zh'],
    ['en-US,en;q=0.9', 'en'],
    ['fr-FR,zh;q=0.5,en;q=0.8', 'en'],
    ['fr-FR,zh;q=0.9,en;q=0.8', 'zh'],
    ['de', 'en'],
    ['zh;q=0', 'en'],
  ])('%s → %s', (header, lang) => expect(languageOf(header)).toBe(lang));
});

describe('renderMessage', () => {
  it('renders a key with params, a { en, zh } param in the language asked', () => {
    const env = {
      key: 'record.notFound',
      params: { label: { en: 'Author', zh: '作者' }, id: '7' },
      msg: 'x',
    };
    expect(renderMessage('en', env)).toBe('Author 7 does not exist');
    expect(renderMessage('zh', env)).toBe('作者 7 不存在');
  });

  it('names each field in the language asked, with its x-i18n label', () => {
    const env = {
      key: 'request.invalid',
      params: { part: 'body', schema: 'artwork.create' },
      data: {
        errors: [
          {
            field: 'artWorkName',
            keyword: 'x-maxWidth',
            params: { limit: 60, width: 62 },
            message: 'artWorkName: must be at most 60 wide',
          },
          {
            field: 'author',
            keyword: 'required',
            params: { missingProperty: 'author' },
            message: 'author: is required',
          },
        ],
      },
    };
    expect(renderMessage('en', env)).toBe(
      'Invalid body: Artwork name: must be at most 60 wide; Author: is required',
    );
    expect(renderMessage('zh', env)).toBe(
      '请求体无效：作品名称：最多 30 个汉字（60 个字符），当前为 62 个字符；作者：必填',
    );
  });

  it("names an item without a label of its own by its list's label and its place, at any depth", () => {
    const error = (field: string) => ({
      field,
      keyword: 'minLength',
      params: { limit: 1 },
      message: `${field}: must NOT have fewer than 1 characters`,
    });
    const env = {
      key: 'request.invalid',
      params: { part: 'body', schema: 'artwork.create' },
      data: { errors: [error('images.1'), error('images.0.2')] },
    };
    expect(renderMessage('en', env)).toBe(
      'Invalid body: Images, item 2: must NOT have fewer than 1 characters; Images, item 1, value 3: must NOT have fewer than 1 characters',
    );
    expect(renderMessage('zh', env)).toBe(
      '请求体无效：作品图片第 2 项：至少 1 个字符；作品图片第 1 项第 3 个值：至少 1 个字符',
    );
    expect(itemLabel('en', 'Samples', [1, 1])).toBe('Samples, item 2, value 2');
    expect(itemLabel('zh', '样本', [1, 1])).toBe('样本第 2 项第 2 个值');
    // a field no schema labels, nor its list, keeps its path
    expect(fieldLabel('en', 'noSuchList.3')).toBe('noSuchList.3');
  });

  it('keeps msg when the envelope has no known key', () => {
    expect(renderMessage('zh', { msg: 'Plain text', key: 'no.such.key' })).toBe('Plain text');
  });
});

/**
 * Chinese catalogue: @haxqer/ra-language-chinese (written for react-admin 4; its CommonJS default export
 * arrives as `mod.default` under Vite, hence `mod.default ?? mod`), completed with the 16 keys react-admin
 * 5 added and without the one key v5 dropped (`ra.navigation.prev`), then the console's `baas.*`, the
 * generated resource labels and the console parts' contributions (`<part>/i18n.zh.ts`). Key parity with the
 * English catalogue is checked by src/i18n/i18n.test.ts.
 */
import chineseModule from '@haxqer/ra-language-chinese';
import type { TranslationMessages } from 'ra-core';
import { generatedMessagesZh } from '../generated/messages.zh';
import { baasZh } from './baas.zh';
import { inFileOrder, mergeMessages } from './merge';

const mod = chineseModule as TranslationMessages & { default?: TranslationMessages };
const raChinese: TranslationMessages = mod.default ?? mod;

/**
 * Keys react-admin 5 has and ra-language-chinese 4.16 lacks (the 16 v5 additions), plus two the package
 * leaves in English (`partial_page_range_info`, `configurable.inspector.title`).
 */
export const raV5Additions = {
  ra: {
    action: { reset: '重置', search_columns: '搜索列', select_all_button: '全选' },
    page: { access_denied: '拒绝访问', authentication_error: '认证错误' },
    message: {
      access_denied: '您没有访问此页面的权限',
      authentication_error: '认证服务器返回错误，无法验证您的身份。',
      select_all_limit_reached: '元素过多，无法全部选中。仅选中了前 %{max} 项。',
      placeholder_data_warning: '网络问题：数据刷新失败。',
    },
    navigation: {
      clear_filters: '清除筛选',
      no_filtered_results: '在当前筛选条件下没有找到%{name}。',
      partial_page_range_info: '%{offsetBegin}-%{offsetEnd}，共超过 %{offsetEnd} 条',
    },
    configurable: { inspector: { title: '检查器' } },
    auth: { email: '邮箱' },
    notification: { offline: '无网络连接，无法获取数据。' },
    validation: { unique: '必须唯一' },
    guesser: { empty: { title: '没有可显示的数据', message: '请检查数据提供者（dataProvider）' } },
  },
};

/**
 * Chinese punctuation where ra-language-chinese writes ASCII after a Chinese character ("修改未保存. 放弃
 * 修改吗?" → "修改未保存。放弃修改吗？"): full stop, question and exclamation marks, comma, colon and
 * semicolon become their full-width forms (GB/T 15834-2011), the space after them dropped. Deep, over
 * every string of the catalogue; placeholders (`%{name}`) are left alone.
 */
export function chinesePunctuation<T>(value: T): T {
  if (typeof value === 'string') {
    const full: Record<string, string> = { '.': '。', '?': '？', '!': '！', ',': '，', ':': '：', ';': '；' };
    return value.replace(
      /([\u3400-\u9fff\uff00-\uffef）])([.?!,:;]) ?/g,
      (_m, c: string, p: string) => c + full[p],
    ) as T;
  }
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, chinesePunctuation(v)])) as T;
  return value;
}

function withoutV4Only(ra: TranslationMessages['ra']): TranslationMessages['ra'] {
  const { prev: _prev, ...navigation } = ra.navigation;
  return { ...ra, navigation: navigation as TranslationMessages['ra']['navigation'] };
}

/** The Chinese halves of the console parts' catalogues (src/i18n/merge.ts `inFileOrder`). */
const contributed = import.meta.glob<object>(
  ['../layout/i18n.zh.ts', '../resources/*/i18n.zh.ts', '../schema-ui/i18n.zh.ts'],
  { eager: true, import: 'zh' },
);

const zh: TranslationMessages = mergeMessages(
  { ra: chinesePunctuation(withoutV4Only(raChinese.ra)) },
  raV5Additions,
  { baas: baasZh },
  { resources: generatedMessagesZh },
  ...inFileOrder(contributed),
);
export default zh;

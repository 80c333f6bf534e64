/**
 * Display names of the artwork categories the Tate seed brings (its `classification` values, stored
 * as `classify`; ../shared/data/tate/README.md). A category is record data: the stored value is kept and
 * sent as is, only its display is translated; a category an operator typed shows as typed.
 */
const CATEGORY_LABELS: Record<string, { en: string; zh: string }> = {
  'on paper, unique': { en: 'On paper, unique', zh: '纸本（孤品）' },
  'on paper, print': { en: 'On paper, print', zh: '纸本（版画）' },
  painting: { en: 'Painting', zh: '绘画' },
  sculpture: { en: 'Sculpture', zh: '雕塑' },
  installation: { en: 'Installation', zh: '装置' },
  relief: { en: 'Relief', zh: '浮雕' },
  'block for printing': { en: 'Block for printing', zh: '印版' },
  'time-based media': { en: 'Time-based media', zh: '时基媒体' },
  'supporting material': { en: 'Supporting material', zh: '辅助材料' },
};

/** The category `name` as shown in `locale` (`en` or `zh`); an unknown name is shown as stored. */
export function categoryLabel(name: string | null | undefined, locale: string): string {
  if (name == null) return '';
  const l = CATEGORY_LABELS[name];
  return l ? (locale === 'zh' ? l.zh : l.en) : name;
}

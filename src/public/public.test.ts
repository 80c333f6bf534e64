/** The public pages' routes and catalogue: which hashes are public, and en/zh key parity. */
import { describe, expect, it } from 'vitest';
import { publicMessages } from './i18n';
import { publicRoute } from './PublicApp';

describe('public pages', () => {
  it('parses #/verify/:kind/:id and #/certificate/:id, and nothing else', () => {
    expect(publicRoute('#/verify/artwork/12')).toEqual({ page: 'verify', kind: 'artwork', id: 12 });
    expect(publicRoute('#/verify/author/3/')).toEqual({ page: 'verify', kind: 'author', id: 3 });
    expect(publicRoute('#/certificate/7')).toEqual({ page: 'certificate', id: 7 });
    for (const h of [
      '',
      '#/',
      '#/verify/user/1',
      '#/verify/author/0',
      '#/verify/author/x',
      '#/artworks/1/show',
    ])
      expect(publicRoute(h)).toBeUndefined();
  });

  it('has the same keys in English and Chinese, none empty', () => {
    expect(Object.keys(publicMessages.zh).sort()).toEqual(Object.keys(publicMessages.en).sort());
    for (const m of Object.values(publicMessages)) for (const v of Object.values(m)) expect(v).not.toBe('');
  });
});

/**
 * Two editors, one record (issue 32 item 4), on the real server with the Tate seed, in English and
 * Chinese: two browsers (two sessions of the admin) open the edit page of one seeded artwork. The first
 * changes its name and medium and saves. The second, still on the form it opened before, changes the name
 * too and saves: the server refuses it (stale revision), and the conflict view shows, per field, the value
 * when the form was opened, theirs and yours. The second keeps their own name and takes the first's medium,
 * saves, and the stored record has both; History shows the base revision and both edits.
 *
 * A delete confirmed on a page loaded before another editor's save (its live stream cut, so the page did
 * not refetch) is refused naming that editor; the page then shows their version, and confirming again
 * deletes it.
 */
import { describe, expect, it } from 'vitest';
import { sharedEnv } from './helpers/sharedEnv';
import { ConflictPage } from './pages/ConflictPage';
import { notKept } from './helpers/shownView';

const env = sharedEnv(300_000);

const TEXT = {
  en: {
    name: 'Artwork name',
    medium: 'Texture / medium',
    save: /^Save$/,
    mine: 'Mine',
    theirs: 'Theirs',
    unchanged: 'unchanged',
  },
  zh: {
    name: '作品名称',
    medium: '材质',
    save: /^保存$/,
    mine: '我的',
    theirs: '对方的',
    unchanged: '未修改',
  },
};

describe.each(['en', 'zh'] as const)('two editors, one record (%s)', (lang) => {
  const t = TEXT[lang];

  it('the second save gets the conflict view, keeps one value per field, and both edits are kept', async () => {
    const id = lang === 'en' ? 11 : 12;
    const first = new ConflictPage(await env.signIn('admin', lang), env.baseUrl);
    const second = new ConflictPage(await env.signIn('admin', lang), env.baseUrl);
    try {
      const base = await first.api<{ artWorkName: string; texture: string }>(
        'GET',
        `/artmanager/artwork/ArtInfoByArtId?artId=${id}`,
      );
      await first.openEdit('artworks', id);
      await second.openEdit('artworks', id);

      await first.fill(t.name, `First editor ${lang}`);
      await first.fill(t.medium, `Medium of the first ${lang}`);
      await first.save(t.save);
      await first.page.waitForURL(/\/show/);

      await second.fill(t.name, `Second editor ${lang}`);
      await second.save(t.save);
      const rows = await second.rows();
      expect(rows.artWorkName).toEqual([
        t.name,
        base.artWorkName,
        `First editor ${lang}`,
        `Second editor ${lang}`,
      ]);
      expect(rows.texture).toEqual([
        t.medium,
        base.texture || '—',
        `Medium of the first ${lang}`,
        t.unchanged,
      ]);

      await second.pick('artWorkName', t.mine);
      await second.pick('texture', t.theirs);
      await second.saveChosen();

      const stored = await second.api<{ artWorkName: string; texture: string; revision: number }>(
        'GET',
        `/artmanager/artwork/ArtInfoByArtId?artId=${id}`,
      );
      expect(stored).toMatchObject({
        artWorkName: `Second editor ${lang}`,
        texture: `Medium of the first ${lang}`,
      });
      const history = await second.api<{
        list: { account: string; changes: { field: string; after: unknown }[] }[];
      }>('GET', `/dev-api/history/revisions?resource=artworks&id=${id}`);
      // Newest first: the second editor's name, the first editor's name and medium, the seeded base.
      expect(history.list).toHaveLength(3);
      expect(history.list[0].changes).toEqual([
        { field: 'artWorkName', before: `First editor ${lang}`, after: `Second editor ${lang}` },
      ]);
      expect(history.list[1].changes.map((c) => c.field).sort()).toEqual(['artWorkName', 'texture']);
    } finally {
      await first.page.context().close();
      await second.page.context().close();
    }
  });
});

describe('a delete from a page loaded before another save', () => {
  it('is refused naming who changed it; the page then shows their version, and confirming again deletes it', async () => {
    const id = 13;
    const ui = new ConflictPage(await env.signIn('admin', 'en'), env.baseUrl);
    try {
      // No live stream (its request left unanswered, as behind a proxy that buffers it): the page keeps
      // what it loaded.
      await ui.page.route('**/dev-api/events**', () => undefined);
      await ui.page.reload();
      const path = `/artmanager/artwork/ArtInfoByArtId?artId=${id}`;
      const before = await ui.api<{ artWorkName: string }>('GET', path);
      await ui.openShow('artworks', id, before.artWorkName);
      const other = await env.adminApi('/artmanager/artwork/baseInfo', {
        id,
        artWorkName: 'Renamed meanwhile',
      });
      expect(other.status).toBe(200);

      expect(await ui.deleteConfirmed(/^confirm$/i)).toBe(409);
      expect(await ui.notification()).toMatch(/was changed by admin since you loaded it/);
      await notKept(ui.page.getByText('Renamed meanwhile')).first().waitFor();
      expect((await env.adminApi(path)).status).toBe(200);

      expect(await ui.deleteConfirmed(/^confirm$/i)).toBe(200);
      // the list: react-admin's `/artworks`, which the shell sends on to its menu entry
      await ui.page.waitForURL(/#\/industry\/artWork(\?.*)?$/);
      expect((await env.adminApi(path)).status).toBe(404);
    } finally {
      await ui.page.context().close();
    }
  });
});

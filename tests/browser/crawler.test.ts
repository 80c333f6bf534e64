/**
 * The route crawler: as admin and as user, in English and in Chinese, visits every leaf of the route
 * tree the account's roles allow (src/shell/permission.ts `routesForRoles`) — menu entries by clicking
 * the sidebar, hidden routes by in-app navigation, routes with parameters filled with real ids of the
 * seeded Tate data (and of the ledger) — and clicks every tab of every resource's show, create and edit
 * page. It requires of each page:
 * - no 404 (neither the /404 route nor the 404 page in place) and no 401 for a route the roles allow;
 * - no "not available yet" page where the route names a screen (leaves without `screen` are the
 *   product's sections not in this version: that page is expected there);
 * - no uncaught exception and no console error (none is acceptable);
 * - no API answer with a 5xx status, and no other error status either (the crawler only visits and
 *   clicks tabs: any 4xx is a request the user did not cause, e.g. a call sent without its parameter);
 * - no failed request and no request to another site (pictures come through the image cache);
 * - no link in the page (a List, Create or Edit button, a reference) to a page the account's roles do
 *   not reach: it would end on the 401 page (src/shell/permission.ts `decideNavigation`).
 * Every route is visited with a real record: the `beforeAll` makes, through the product's own calls
 * (helpers/records.ts), the records the Tate seed has none of: a company (with its video) and a
 * notification to it, a bid user who signed in to the mini-program (so a platform user too), a chaincode
 * installed, approved and committed, a smart contract, and a second one archived. A route whose parameters no record fills is
 * listed as skipped in the output and fails the session, so a new route cannot go uncrawled.
 *
 * A second test opens an artwork's deal-info tab on its show and edit pages (1440 and 375 px, en and zh)
 * and takes their screenshots (.tmp/screenshots/, or docs/screenshots/ with `npm run screenshots`).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEnv, type TestEnv } from './helpers/env';
import { addContract, addPlatformUser, archive, installChaincode, MP4, uploadFile } from './helpers/records';
import { screenshotDir } from './helpers/screenshots';
import { notKept, shownLocator } from './helpers/shownView';
import { CrawlerPage, type Problem } from './pages/CrawlerPage';
import { decideNavigation, routesForRoles } from '../../src/shell/permission';
import { buildMenu, fillPath, flattenRoutes, openGroupsFor, type FlatRoute } from '../../src/shell/router';
import { generatedResources } from '../../src/generated/resources';
import { schemaForResource } from '../../kernel/dialect/schemaRegistry';
import { usccCheckCharacter } from '../../kernel/dialect/keywords';

let env: TestEnv;

beforeAll(async () => {
  env = await startEnv();
  // The seed has no company: add one (through the API, as admin) so the companies' show and edit pages
  // and their tabs are crawled too.
  const page = await env.signIn('admin', 'en');
  const crawler = new CrawlerPage(page, env.baseUrl);
  const company = await crawler.api<{ id: number }>('POST', '/medicine-api/company/addCompany', {
    companyName: '华东示例制药有限公司',
    creditCode: code('91310000MA1FL0001'),
    licenseNo: '沪20200001',
    contactName: '王芳',
    contactPhone: '13800001111',
    adminAccount: 'admin.crawler',
    adminName: '王芳',
    adminPassword: 'Crawler-admin-1',
    backupAdminAccount: 'ops.crawler',
    backupAdminName: '李雷',
    backupAdminPassword: 'Crawler-ops-1',
    status: 1,
    // Its video, so the show page's player is crawled too.
    video: await uploadFile(env, { resource: 'companies', field: 'video' }, 'tour.mp4', MP4, 'video/mp4'),
  });
  // A draft notification to it, so the notifications' show and edit pages are crawled too.
  await crawler.api('POST', '/medicine-api/notification/add', {
    companyId: company.id,
    title: '年度检查通知',
    content: '请按时提交自查报告。',
  });
  await page.context().close();
  // Bid users and platform users come from the mini-program; chaincode from Fabric's lifecycle; contracts
  // from their add call and the pigeonhole from archiving one (see helpers/records.ts).
  await addPlatformUser(env, '13700001234', '藏家小林');
  await installChaincode(env, 'assetTransfer');
  await addContract(env, '二季度供货合同');
  await archive(env, 'contracts', await addContract(env, '一季度供货合同（已归档）'));
});

afterAll(async () => {
  await env?.stop();
});

/** A synthetic credit code: 17 given characters and their check character (GB 32100-2015). */
const code = (first17: string) => first17 + usccCheckCharacter(first17);

const ROLES = { admin: ['admin'], user: ['user'] } as const;
const RESOURCE_NAMES = new Set(generatedResources.map((r) => r.name));

/** The resource a route belongs to: its screen's, else the resource named by its first path segment. */
function resourceOf(f: FlatRoute): string | undefined {
  const s = f.route.screen;
  if (s && 'resource' in s) return s.resource;
  const first = f.fullPath.split('/')[1];
  return RESOURCE_NAMES.has(first) ? first : undefined;
}

/** Real ids, fetched once per session through the API the console itself calls. */
class Ids {
  private cache = new Map<string, Promise<Record<string, string> | null>>();
  constructor(private crawler: CrawlerPage) {}

  /** The id of the first record of `resource` (its `getList` endpoint, x-endpoints), or null. */
  record(resource: string): Promise<Record<string, string> | null> {
    return this.memo(`resource:${resource}`, async () => {
      const spec = schemaForResource(resource)['x-endpoints']?.getList;
      if (!spec) return null;
      const data =
        spec.method === 'GET'
          ? await this.crawler.api<{ list: { id: number }[] }>('GET', `${spec.path}?page=1&pageSize=1`)
          : await this.crawler.api<{ list: { id: number }[] }>('POST', spec.path, { page: 1, pageSize: 1 });
      return data.list[0] ? { id: String(data.list[0].id) } : null;
    });
  }

  /** Parameters of the ledger screens' routes, by route name. */
  ledger(name: string): Promise<Record<string, string> | null> {
    return this.memo(`ledger:${name}`, async (): Promise<Record<string, string> | null> => {
      const channels = await this.crawler.api<{ list: { id: number }[] }>(
        'GET',
        '/baas-api/channels?page=1&pageSize=1',
      );
      const channel = channels.list[0];
      if (!channel) return null;
      switch (name) {
        case 'channel':
          return { id: String(channel.id) };
        case 'block': {
          const blocks = await this.crawler.api<{ list: { number: number }[] }>(
            'GET',
            `/baas-api/blocks?channelId=${channel.id}&page=1&pageSize=1`,
          );
          return blocks.list[0]
            ? { channelId: String(channel.id), number: String(blocks.list[0].number) }
            : null;
        }
        case 'transaction': {
          const txs = await this.crawler.api<{ list: { txId: string }[] }>(
            'GET',
            `/baas-api/transactions?channelId=${channel.id}&page=1&pageSize=1`,
          );
          return txs.list[0] ? { txId: txs.list[0].txId } : null;
        }
        case 'chainCode': {
          const ccs = await this.crawler.api<{ list: { id: number }[] }>(
            'GET',
            '/baas-api/chaincodes?page=1&pageSize=1',
          );
          return ccs.list[0] ? { id: String(ccs.list[0].id) } : null;
        }
        default:
          throw new Error(`the crawler has no parameter source for the ledger route "${name}"`);
      }
    });
  }

  private memo(key: string, load: () => Promise<Record<string, string> | null>) {
    if (!this.cache.has(key)) this.cache.set(key, load());
    return this.cache.get(key)!;
  }
}

/** Parameter names of a path pattern (`:id`, `*path`). */
const paramNames = (pattern: string) =>
  pattern
    .split('/')
    .filter((s) => s.startsWith(':') || s.startsWith('*'))
    .map((s) => s.slice(1));

/** A concrete path for a route, or null (with the reason) when no record can fill its parameters. */
async function concretePath(f: FlatRoute, ids: Ids): Promise<{ path: string } | { skip: string }> {
  const names = paramNames(f.fullPath);
  if (names.length === 0) return { path: f.fullPath };
  if (f.fullPath.startsWith('/redirect/')) return { path: '/redirect/dashboard' };
  const resource = resourceOf(f);
  let params: Record<string, string> | null;
  if (resource) params = await ids.record(resource);
  else if (f.fullPath.startsWith('/baas/')) params = await ids.ledger(f.route.name ?? '');
  else throw new Error(`the crawler has no parameter source for ${f.fullPath}`);
  if (!params) return { skip: `${f.fullPath}: no record to take ${names.join(', ')} from` };
  for (const n of names)
    if (!(n in params)) throw new Error(`the crawler has no value for "${n}" of ${f.fullPath}`);
  return { path: fillPath(f.fullPath, params) };
}

/** Crawls the tree for one account and language; resolves what went wrong and what was done. */
async function crawl(who: 'admin' | 'user', lang: 'en' | 'zh') {
  const page = await env.signIn(who, lang);
  const crawler = new CrawlerPage(page, env.baseUrl);
  await crawler.settle();
  const ids = new Ids(crawler);
  const roles = ROLES[who];
  const tree = routesForRoles(roles);
  const menu = buildMenu(tree);
  const leaves = flattenRoutes(tree).filter((f) => !f.route.children?.length && !f.route.public);
  const problems: Problem[] = crawler.problems;
  const skipped: string[] = [];
  const visited: string[] = [];
  const tabsClicked: string[] = [];
  const tabbedViews = new Set<string>();
  const check = async (route: string, hasScreen: boolean) => {
    const st = await crawler.state();
    if (st.path === '/404' || st.is404)
      problems.push({ route, kind: '404', detail: `landed on ${st.path} (404)` });
    if (st.is401) problems.push({ route, kind: '404', detail: `401 page for a route the roles allow` });
    if (st.notAvailable && hasScreen)
      problems.push({
        route,
        kind: 'not-available',
        detail: 'the "not available yet" page on a route with a screen',
      });
    for (const link of await crawler.links()) {
      const [to, query] = link.split('?');
      const d = decideNavigation({ path: to, search: query ? `?${query}` : '', hasToken: true, roles });
      if (d.kind === 'unauthorized')
        problems.push({ route, kind: 'link', detail: `a link to ${link}, the 401 page for ${who}` });
    }
  };

  for (const f of leaves) {
    if (f.fullPath === '/404' || f.fullPath === '/401') continue; // the error pages themselves
    const target = await concretePath(f, ids);
    if ('skip' in target) {
      skipped.push(target.skip);
      continue;
    }
    const { path } = target;
    const groups = openGroupsFor(menu, path);
    const inMenu = !f.route.hidden && (groups.length > 0 || menu.some((m) => m.path === path));
    if (!(inMenu && (await crawler.clickMenu(path, groups)))) await crawler.navigate(path);
    if (!f.route.redirect && !path.startsWith('/redirect/')) await crawler.waitForRoute(f.fullPath);
    visited.push(path);
    await check(path, !!f.route.screen);

    // Every tab of a resource's show, create and edit page (once per resource and view).
    const s = f.route.screen;
    if (s && 'resource' in s && ['show', 'create', 'edit'].includes(s.view)) {
      const key = `${s.resource}:${s.view}`;
      if (tabbedViews.has(key)) continue;
      tabbedViews.add(key);
      if (!(await crawler.waitForContentTabs())) {
        problems.push({ route: path, kind: 'tab', detail: 'no tabs on a show/create/edit page' });
        continue;
      }
      const count = await crawler.contentTabs().count();
      for (let i = 0; i < count; i++) {
        crawler.current = `${path} tab ${i}`;
        const t = await crawler.clickContentTab(i);
        tabsClicked.push(`${t.path} (${t.label})`);
        await check(`${path} → tab "${t.label}" (${t.path})`, true);
        if (!t.selected && !(await crawler.state()).is404)
          problems.push({ route: path, kind: 'tab', detail: `tab "${t.label}" not selected after a click` });
        // A 404 leaves the page: come back for the next tab.
        if (crawler.path() === '/404' || (await crawler.state()).is404) await crawler.navigate(path);
        await crawler.waitForContentTabs();
      }
    }
  }
  await page.context().close();
  return { problems, skipped, visited, tabsClicked };
}

const SESSIONS = [
  ['admin', 'en'],
  ['admin', 'zh'],
  ['user', 'en'],
  ['user', 'zh'],
] as const;

// The sessions run side by side (the browser project's maxConcurrency: two at a time), each in a browser
// context of its own: a crawl mostly waits for pages to settle, so one alone left the machine half idle.
describe('route crawler', () => {
  it.concurrent.for(SESSIONS)(
    'as %s in %s: every route and every tab renders, without 404, errors or 5xx',
    { timeout: 600_000 },
    async ([who, lang], { expect }) => {
      const t0 = Date.now();
      const { problems, skipped, visited, tabsClicked } = await crawl(who, lang);
      console.log(
        `crawler ${who}/${lang}: ${visited.length} routes, ${tabsClicked.length} tab clicks, ` +
          `${skipped.length} skipped, ${problems.length} problems, ${((Date.now() - t0) / 1000).toFixed(1)} s` +
          (skipped.length ? `\n  skipped: ${skipped.join('\n  skipped: ')}` : ''),
      );
      // Every session must have clicked tabs of real records (admin: the registry; user: none of its own).
      if (who === 'admin') expect(tabsClicked.length).toBeGreaterThan(10);
      expect(visited.length).toBeGreaterThan(10);
      // The rule: every route visited with a real record (none skipped), and none with a problem.
      expect({
        skipped,
        problems: problems.map((p) => `[${p.kind}] ${p.route}: ${p.detail}`),
      }).toEqual({ skipped: [], problems: [] });
    },
  );
});

describe('an artwork on a tab', () => {
  it('shows the deal info tab on show and edit at 1440 and 375 px, en and zh, with one tab-strip entry per page', async () => {
    const dir = screenshotDir();
    for (const lang of ['en', 'zh'] as const) {
      for (const width of [1440, 375]) {
        const page = await env.signIn('admin', lang, { width, height: width > 992 ? 900 : 812 });
        const crawler = new CrawlerPage(page, env.baseUrl);
        await crawler.settle();
        const id = (await new Ids(crawler).record('artworks'))!.id;
        const { artWorkName } = await crawler.api<{ artWorkName: string }>(
          'GET',
          `/artmanager/artwork/ArtInfoByArtId?artId=${id}`,
        );
        const deal = lang === 'en' ? 'Deal info' : '交易信息';
        const credit = lang === 'en' ? 'Credit line' : '来源说明';
        for (const view of ['show', 'edit'] as const) {
          const base = view === 'show' ? `/artworks/${id}/show` : `/artworks/${id}`;
          await crawler.navigate(base);
          const where = `${lang}/${width}/${view}`;
          // The edit page is the one with a form (the show page's tabs may still be on screen a moment).
          if (view === 'edit')
            await crawler.mustSee(shownLocator(page, '#main-content form'), `${where}: the edit form`);
          const dealTab = crawler.contentTabs().filter({ hasText: deal });
          await crawler.mustSee(dealTab, `${where}: the "${deal}" tab`);
          await dealTab.click();
          await crawler.waitForPath(`${base}/dealInfo`);
          await crawler.settle();
          expect(crawler.path()).toBe(`${base}/dealInfo`);
          await notKept(page.locator('#main-content').getByText(credit)).first().waitFor();
          if (width > 992) {
            // The tab strip keeps one entry for the record page, active on its tab.
            const tags = page.getByTestId('tags-view');
            await expect.poll(() => tags.locator(`[data-tag-path="${base}"]`).count()).toBe(1);
            expect(await tags.locator(`[data-tag-path="${base}/dealInfo"]`).count()).toBe(0);
            const tag = tags.locator(`[data-tag-path="${base}"]`);
            expect(await tag.getAttribute('aria-selected')).toBe('true');
            // Named after the record: "Artwork: <name>" / "作品：<name>", "Edit Artwork: <name>" on edit.
            const label = lang === 'en' ? 'Artwork' : '作品';
            const named = view === 'show' ? label : lang === 'en' ? `Edit ${label}` : `编辑${label}`;
            await expect
              .poll(() => tag.textContent())
              .toBe(lang === 'en' ? `${named}: ${artWorkName}` : `${named}：${artWorkName}`);
          }
          await page.mouse.move(0, 0);
          await page.waitForTimeout(400); // the tab indicator slides to the tab (MUI, 300 ms)
          await page.screenshot({
            path: join(dir, `artwork-${view}-dealInfo.${lang}.${width}.png`),
            fullPage: width < 992,
          });
        }
        expect(crawler.problems.map((p) => `[${p.kind}] ${p.route}: ${p.detail}`)).toEqual([]);
        await page.context().close();
      }
    }
  }, 300_000);
});

/**
 * Page object: the element-admin shell around every page — sidebar menu, breadcrumbs, tab strip
 * (with its right-click menu), language and size switches, settings drawer, avatar menu and the
 * "logged out" dialog. Routes are hash routes (`#/industry/authors`).
 */
import type { Locator } from 'playwright-core';
import { BasePage } from './BasePage';
import { REDUCED_MOTION_QUERY } from '../../../src/layout/motion';

export class ShellPage extends BasePage {
  /** In-app navigation (no reload, so the tab strip keeps its tabs). */
  async navigate(route: string): Promise<void> {
    await this.page.evaluate((r) => {
      window.location.hash = r;
    }, route);
    await this.page.waitForURL((u) => u.hash.split('?')[0] === `#${route.split('?')[0]}`);
  }

  sidebar(): Locator {
    return this.page.getByTestId('sidebar');
  }

  /**
   * Waits until the shell knows the signed-in account: the sidebar holds its menu, built from the roles
   * of the account's user info.
   */
  async waitSignedIn(): Promise<void> {
    await this.sidebar().locator('[data-menu-path], [data-menu-group]').first().waitFor();
  }

  /** Paths of the sidebar's top-level entries (links and groups). */
  async topMenuPaths(): Promise<string[]> {
    return this.sidebar()
      .locator(':scope > ul > li > [data-menu-path], :scope > ul > li > [data-menu-group]')
      .evaluateAll((els) =>
        els.map((e) => e.getAttribute('data-menu-path') ?? e.getAttribute('data-menu-group') ?? ''),
      );
  }

  breadcrumbs(): Locator {
    return this.page.getByRole('navigation', { name: 'breadcrumb' });
  }

  tabs(): Locator {
    return this.page.getByTestId('tags-view').getByRole('tab');
  }

  tab(path: string): Locator {
    return this.page.locator(`[data-tag-path="${path}"]`);
  }

  /** Waits until the tab of `path` is the active one (the page has rendered). */
  async waitActiveTab(path: string): Promise<void> {
    await this.page.locator(`[data-tag-path="${path}"][aria-selected="true"]`).waitFor();
  }

  async tabPaths(): Promise<string[]> {
    return this.tabs().evaluateAll((els) => els.map((e) => e.getAttribute('data-tag-path') ?? ''));
  }

  /** Right-clicks a tab and picks an entry of its menu by its visible text. */
  async tabMenu(path: string, entry: RegExp): Promise<void> {
    await this.tab(path).click({ button: 'right' });
    const menu = this.page.getByTestId('tags-contextmenu');
    await menu.waitFor();
    await menu.getByRole('menuitem', { name: entry }).click();
  }

  async closeTab(path: string): Promise<void> {
    await this.tab(path).getByTestId('tag-close').click();
  }

  /** Switches the language with the navbar's menu; resolves once `<html lang>` says the new one is on screen. */
  async switchLanguage(to: 'en' | 'zh'): Promise<void> {
    await this.page.getByTestId('lang-select').click();
    await this.page.locator(`li[data-locale="${to}"]`).click();
    await this.page.locator(`html[lang="${to === 'zh' ? 'zh-CN' : 'en'}"]`).waitFor({ state: 'attached' });
  }

  async openSettings(): Promise<Locator> {
    await this.page.getByTestId('settings-toggle').click();
    const panel = this.page.getByRole('dialog', { name: /Page style setting|系统布局配置/ });
    await panel.waitFor();
    return panel;
  }

  /** The sidebar's computed CSS `transition-duration`: `0.28s, 0.28s` when it slides, `0s` when it does not. */
  async sidebarTransition(): Promise<string> {
    return this.sidebar().evaluate((e) => getComputedStyle(e).transitionDuration);
  }

  /** Whether the page's media query `prefers-reduced-motion: reduce` matches (the system's setting). */
  async asksForReducedMotion(): Promise<boolean> {
    return this.page.evaluate((query) => window.matchMedia(query).matches, REDUCED_MOTION_QUERY);
  }

  /** How many ripples the navbar's hamburger button shows while the pointer is held down on it. */
  async ripplesWhilePressed(): Promise<number> {
    const button = this.page.getByTestId('hamburger');
    await button.hover();
    await this.page.mouse.down();
    try {
      // a ripple is added on the press's next frame
      await this.page.waitForTimeout(100);
      return await button.locator('.MuiTouchRipple-ripple').count();
    } finally {
      await this.page.mouse.up();
    }
  }

  /** The `<html>`-level shell wrapper, carrying `data-device` and `data-sidebar`. */
  wrapper(): Locator {
    return this.page.locator('.app-wrapper');
  }
}

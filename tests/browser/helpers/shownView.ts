/**
 * Queries scoped to the page shown, leaving out the pages the shell keeps hidden (issue 21 keep-alive,
 * src/layout/keepAlive.tsx: each kept page sits in a `data-shell-view` box marked `data-kept-hidden` while
 * hidden, and stays in the document with its inputs, test ids and texts). Everything outside the kept
 * pages still matches: the shown page, the shell, dialogs and menus in portals, the login page.
 */
import type { Locator, Page } from 'playwright-core';

/** CSS for any element that is not inside a hidden kept page. */
export const NOT_KEPT = ':not([data-kept-hidden] *)';

/** `locator` without the elements of hidden kept pages. */
export function notKept(locator: Locator): Locator {
  return locator.and(locator.page().locator(NOT_KEPT));
}

/** `page.locator(css)` without the elements of hidden kept pages. */
export function shownLocator(page: Page, css: string): Locator {
  return notKept(page.locator(css));
}

/** `page.getByTestId(id)` without the elements of hidden kept pages. */
export function shownTestId(page: Page, id: string): Locator {
  return notKept(page.getByTestId(id));
}

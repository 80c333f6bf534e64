/**
 * What a successful add does (react-admin's `useCreateController` default, plus the tab strip): the
 * "created" notification, the redirect (`show`, or step two of a two-step add), and the add page's tab
 * ("Add author", "Add artwork") closed once the redirect has happened, as the product's add pages close
 * their view after saving. The close travels in the redirect's history state (src/shell/tagsView.ts
 * `TagsNavigationState`), so it applies only when the page is really left.
 */
import { useLocation } from 'react-router';
import { useNotify, useRedirect, useTranslate, type RaRecord, type RedirectionSideEffect } from 'react-admin';
import type { TagsNavigationState } from '../shell/tagsView';

/** The tab path of an add page: `/authors/create` for `/authors/create` and its tabs `/authors/create/<tab>`. */
export function createTabPath(pathname: string): string {
  return pathname.replace(/(\/create)(?:\/[^/]*)?$/, '$1');
}

/** The `mutationOptions.onSuccess` of a resource's Create (see the module docstring). */
export function useCreateSuccess(
  resource: string,
  redirectTo: RedirectionSideEffect,
): (data: RaRecord) => void {
  const notify = useNotify();
  const redirect = useRedirect();
  const translate = useTranslate();
  const { pathname } = useLocation();
  return (data) => {
    notify(`resources.${resource}.notifications.created`, {
      type: 'info',
      messageArgs: { smart_count: 1, _: translate('ra.notification.created', { smart_count: 1 }) },
    });
    const state: TagsNavigationState = { tagsAction: { type: 'close', path: createTabPath(pathname) } };
    redirect(redirectTo, resource, data.id, data, state);
  };
}
